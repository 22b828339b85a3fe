/** Session fields, params and headers several platforms share, each written once. */
import type { ParamField, RequestHeader, SessionField } from './definition.js';

export const COOKIE = {
  name: 'Cookie',
  format: 'header',
  capture: { from: 'request-header', header: 'Cookie' },
  description: 'The Cookie header of the signed-in page’s request to the platform',
} as const satisfies SessionField;

export const BEARER = {
  name: 'Authorization',
  format: 'bearer',
  capture: { from: 'request-header', header: 'Authorization' },
  description: 'The Authorization header ("Bearer <token>") of the signed-in page’s request to the platform',
} as const satisfies SessionField;

export const PAYMENT_ID = {
  name: 'PAYMENT_ID',
  source: 'payment',
  description: 'The platform’s own id of the payment the buyer sent, as its activity shows it',
} as const satisfies ParamField;

export const COOKIE_HEADER = { name: 'Cookie', session: 'Cookie' } as const satisfies RequestHeader;
export const BEARER_HEADER = { name: 'Authorization', session: 'Authorization' } as const satisfies RequestHeader;
