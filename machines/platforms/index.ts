/**
 * machines/platforms: the one definition of each payment platform the attestation
 * service reads (id, name, currencies, where to sign in, and per action the session
 * material, the public params and the request made with them). Two sides are built
 * from it and must never disagree:
 *
 * - the enclave's adapters (enclave/platforms/, enclave/identity/) make their session
 *   and params schemas and their platform requests from it;
 * - the gateway publishes it as document 3's provider manifests and templates
 *   (gateway/providers/), which tell a client what to capture and send.
 *
 * To add a platform: its definition in catalog.ts, an adapter in enclave/platforms/
 * that reads the platform's answer, and test/gateway/providers.test.ts proves the two
 * agree. Pure data and pure functions, like the rest of machines/.
 */
export type * from './definition.js';
export * from './formats.js';
export * from './fields.js';
export * from './catalog.js';
export * from './actions.js';
export * from './placeholders.js';
