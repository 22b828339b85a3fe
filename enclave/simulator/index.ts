/**
 * Stand-ins for what the enclave talks to outside: the payment platforms' web APIs and
 * their dispute e-mails with DKIM keys. Not part of the measured bundle: the enclave
 * only ever sees them through a base URL and a DNS resolver.
 */
export * from './platform-simulator.js';
export * from './buyer-api.js';
export * from './buyer-platforms.js';
export * from './loopback-cors.js';
export * from './dispute-mail.js';
export * from './records.js';
