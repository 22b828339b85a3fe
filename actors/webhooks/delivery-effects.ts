/**
 * The effects of a delivery. `send` makes one attempt: it reads the endpoint as it is
 * now (its URL, headers, secrets and whether it is still on), signs the fixed body
 * with a fresh timestamp of the node's time (the one a receiver checks against its
 * own), POSTs it and reports what happened at the delivery's time (a test clock's, for
 * a delivery on one). It runs at least once: a node killed between the receiver's
 * answer and the report sends the same event, same id, again. `reportScheduleSpent` switches an endpoint off when nothing it was
 * sent has been answered with a 2xx since the failing delivery began.
 */
import { decode } from '../codec.js';
import type { WebhookAttemptOutcome } from '../metrics/node-metrics.js';
import type { EffectContext, EffectHandlers, EffectParams } from '../runtime/actor-kind.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import { reportToSelf } from '../runtime/effect-report.js';
import {
  signingSecrets,
  type AttemptErrorCode,
  type AttemptOutcome,
  type DeliveryEvent,
  type Environment,
  type deliveryMachine,
  type WebhookContext,
} from '../../machines/webhook/index.js';
import type { DestinationPolicy } from './destination-guard.js';
import type { AttemptRequest, AttemptResult } from './http-sender.js';
import { deliveryKind } from '../kinds/delivery-kind.js';
import { signatureHeaders } from './signing.js';
import { webhookKind } from '../kinds/webhook-kind.js';

export interface DeliveryEffectDependencies {
  system: Pick<ActorSystem, 'documents' | 'views'>;
  send(request: AttemptRequest): Promise<AttemptResult>;
  /** Where an endpoint of this environment may point. */
  policy(environment: Environment): DestinationPolicy;
  timeoutMs: number;
}

/** The endpoint as its actor last wrote it, secrets included; null when there is none. */
async function endpointOf(system: DeliveryEffectDependencies['system'], webhookId: string): Promise<{ context: WebhookContext; state: string } | null> {
  const doc = await system.documents(webhookKind.name).findOne({ _id: webhookId }, { projection: { snapshot: 1 } });
  if (!doc) return null;
  const snapshot = decode<{ value: string; context: WebhookContext }>(doc.snapshot);
  return { context: snapshot.context, state: snapshot.value };
}

function inactive(url: string | null, why: string): AttemptOutcome {
  return { responseCode: null, responseExcerpt: '', durationMs: 0, error: why, errorCode: 'ENDPOINT_INACTIVE', requestHeaders: {}, url };
}

const FAILED_ATTEMPTS: Record<AttemptErrorCode, WebhookAttemptOutcome> = {
  TIMEOUT: 'timeout',
  DESTINATION_FORBIDDEN: 'destination_forbidden',
  CONNECTION_FAILED: 'connection_failed',
  INVALID_URL: 'invalid_url',
  TLS_ERROR: 'tls_error',
  ENDPOINT_INACTIVE: 'endpoint_inactive',
};

/** The attempt as a metrics outcome: one of a few fixed values, whatever the receiver answered. */
function attemptOutcome(outcome: AttemptOutcome): WebhookAttemptOutcome {
  if (outcome.responseCode !== null) return outcome.responseCode >= 200 && outcome.responseCode < 300 ? 'ok' : 'http_error';
  return FAILED_ATTEMPTS[outcome.errorCode ?? 'CONNECTION_FAILED'];
}

export function deliveryEffects(deps: DeliveryEffectDependencies): EffectHandlers<typeof deliveryMachine> {
  async function send(params: EffectParams<typeof deliveryMachine, 'send'>, context: EffectContext): Promise<void> {
    const endpoint = await endpointOf(deps.system, params.webhookId);
    const now = context.clock.now();
    let outcome: AttemptOutcome;
    if (endpoint?.state !== 'ACTIVE') {
      outcome = inactive(
        endpoint?.context.url ?? null,
        endpoint ? `The endpoint is ${endpoint.state === 'DELETED' ? 'deleted' : 'disabled'}` : 'The endpoint does not exist',
      );
    } else {
      const { context: webhook } = endpoint;
      const headers: Record<string, string> = {};
      for (const { key, value } of webhook.customHeaders) headers[key] = value;
      Object.assign(
        headers,
        signatureHeaders({ id: params.eventId, timestamp: Math.floor(now / 1000), body: params.body, secrets: signingSecrets(webhook, now) }),
      );
      const result = await deps.send({ url: webhook.url, headers, body: params.body, timeoutMs: deps.timeoutMs, ...deps.policy(webhook.environment) });
      outcome = {
        responseCode: result.status,
        responseExcerpt: result.responseExcerpt,
        durationMs: Math.round(result.durationMs),
        error: result.error,
        errorCode: result.errorCode,
        requestHeaders: { 'content-type': 'application/json', ...headers },
        url: webhook.url,
      };
    }
    context.metrics.webhookAttempt(attemptOutcome(outcome), outcome.durationMs / 1000);
    // On the delivery's clock (a sandbox test clock's time, for an event of an order on one), as its retry is counted.
    const report: DeliveryEvent = { type: 'ATTEMPT_COMPLETED', attempt: params.attempt, outcome, at: new Date(await context.actorNow()).toISOString() };
    await reportToSelf(context, report);
  }

  async function reportScheduleSpent(params: EffectParams<typeof deliveryMachine, 'reportScheduleSpent'>, context: EffectContext): Promise<void> {
    const answered = await deps.system
      .views(deliveryKind)
      .findOne({ 'view.webhookId': params.webhookId, 'view.deliveredAt': { $gte: params.failingSince } }, { projection: { _id: 1 } });
    if (answered) return;
    await context.ask(
      webhookKind,
      params.webhookId,
      {
        type: 'DISABLE',
        code: 'FAILING',
        message: `No delivery has been answered with a 2xx since ${params.failingSince}; delivery ${params.deliveryId} spent its retry schedule`,
        at: params.at,
      },
      { messageId: context.effectId },
    );
  }

  return { send, reportScheduleSpent };
}
