/**
 * Stand-ins for what the enclave talks to outside: the payment platforms' web APIs and
 * their dispute e-mails with DKIM keys. Not part of the measured bundle: the enclave
 * only ever sees them through a base URL and a DNS resolver.
 */
export { PlatformSimulator } from './platform-simulator.js';
export { buyerApi } from './buyer-api.js';
export type { BuyerSessions } from './buyer-api.js';
export { buyerAccount, buyerPlatform, proofParams } from './buyer-platforms.js';
export type { BuyerPlatform } from './buyer-platforms.js';
export { isLoopbackOrigin, loopbackCors } from './loopback-cors.js';
export { DisputeMailer } from './dispute-mail.js';
export type { DisputeMailOptions } from './dispute-mail.js';
export { renderIdentity, renderPayment } from './records.js';
export type { SimAccount, SimPayment, SimPaymentStatus } from './records.js';
