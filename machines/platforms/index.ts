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
export type {
  ActionDefinition,
  ActionKind,
  Capture,
  ParamField,
  ParamSource,
  PlatformAction,
  PlatformDefinition,
  RequestHeader,
  RequestTemplate,
  SessionField,
  SessionFormat,
} from './definition.js';
export { CASHAPP_ACTIVITY_REQUEST, PARAM_RULE, SESSION_FORMATS } from './formats.js';
export type { FormatRule } from './formats.js';
export { BEARER, BEARER_HEADER, COOKIE, COOKIE_HEADER, PAYMENT_ID } from './fields.js';
export { ALIPAY, CASHAPP, CHIME, MONZO, PAYPAL, PAYPAL_BUSINESS, PLATFORMS, REVOLUT, VENMO, WISE, ZELLE_BOFA, ZELLE_CHASE, ZELLE_CITI } from './catalog.js';
export { actionsOf, PLATFORM_ACTIONS, platformAction, platformById } from './actions.js';
export { fillPlaceholders, placeholdersOf } from './placeholders.js';
export { IDENTITY_ATTESTATION_DOMAIN, IDENTITY_ATTESTATION_TYPES } from './identity-attestation-types.js';
