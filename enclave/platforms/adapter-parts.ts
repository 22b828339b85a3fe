/**
 * The parts of an adapter its platform definition fixes: id, action type, session and
 * params schemas, and the request. An adapter adds only how to read the platform's
 * answer, so what it accepts and asks is what the provider template publishes.
 */
import type { z } from 'zod';
import type { ActionDefinition, PlatformDefinition } from '../../machines/platforms/index.js';
import type { PlatformRequest } from './platform.js';
import { platformRequest, requestFrom } from './request-template.js';
import { paramsSchema, sessionSchema } from './session-formats.js';

/** The session material an action's schema answers, typed from its fields. */
export type SessionOf<A extends ActionDefinition> = z.output<ReturnType<typeof sessionSchema<A['session']>>>;

export function actionParts<const A extends ActionDefinition>(action: A) {
  const session = sessionSchema<A['session']>(action.session);
  return {
    session,
    params: paramsSchema<A['params']>(action.params),
    request: requestFrom<z.output<typeof session>>(action.request),
  };
}

/** An adapter's id, action type, schemas and payment request, from its platform's payment action. */
export function paymentParts<const P extends PlatformDefinition & { payment: ActionDefinition }>(platform: P) {
  const { session, params, request } = actionParts<P['payment']>(platform.payment);
  const accountParams = platform.payment.params.filter((param) => param.source === 'account').map((param) => param.name);
  return { id: platform.id, actionType: platform.payment.type, session, params, accountParams, paymentRequest: request };
}

/** The request reading the session's own account, from the payment action's accountRequest. */
export function accountRequest<S extends object>(
  action: ActionDefinition & { accountRequest: NonNullable<ActionDefinition['accountRequest']> },
): (session: S) => PlatformRequest {
  return (session) => platformRequest(action.accountRequest, session, {});
}
