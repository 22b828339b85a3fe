/** machines/merchant: a merchant account (one environment), its settings and API key hash. */
export * from './merchant-machine.js';
