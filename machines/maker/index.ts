/**
 * machines/maker: document 3's maker records. The processors and the depositData each
 * takes (deposit-data.ts), how a payee id is spelled and normalised (payee-ids.ts), the
 * record and its keys (maker-record.ts), the maker machine and the sequence that numbers
 * records.
 */
export * from './payee-ids.js';
export * from './deposit-data.js';
export * from './maker-record.js';
export * from './maker-machine.js';
export * from './maker-sequence-machine.js';
