/**
 * The attestation service over HTTP ({attestation_url}): document 1's envelope on every
 * answer but its OpenAPI description (openapi.ts), JSON bodies only, and one log line
 * per request that names the route and the outcome, never a body: bodies carry session
 * material, sealed or not.
 */
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AttestationService } from '../attestation-service.js';
import { AttestationError } from '../errors.js';
import { attestationOpenApi } from './openapi.js';

/** Room for the largest session material the schemas accept, sealed and base64url-encoded. */
const JSON_LIMIT = 512 * 1024;

function respond(ctx: Context, statusCode: number, message: string, responseObject: unknown, errorCode?: string): void {
  ctx.status = statusCode;
  ctx.body = { success: statusCode < 300, message, responseObject, statusCode, ...(errorCode ? { errorCode } : {}) };
}

export interface AttestationAppOptions {
  service: AttestationService;
  logger: Logger;
}

export function createAttestationApp(options: AttestationAppOptions): Koa {
  const { service, logger } = options;
  const app = new Koa();
  const router = new Router();
  const openApiDocument = attestationOpenApi(packageVersion());

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 405) respond(ctx, 405, `${ctx.path} does not take ${ctx.method}`, null, 'METHOD_NOT_ALLOWED');
      else if (ctx.body === undefined) respond(ctx, 404, `no route ${ctx.method} ${ctx.path}`, null, 'NOT_FOUND');
    } catch (error) {
      if (error instanceof AttestationError) respond(ctx, error.status, error.message, null, error.code);
      else if (isHttpError(error) && error.status === 413) respond(ctx, 413, 'the body is larger than the service accepts', null, 'PAYLOAD_TOO_LARGE');
      else if (isHttpError(error) && error.status === 415) respond(ctx, 415, 'send the body as application/json', null, 'UNSUPPORTED_MEDIA_TYPE');
      else if (isHttpError(error) && error.status === 400) respond(ctx, 400, 'the body is not valid JSON', null, 'INVALID_JSON');
      else {
        // Only the error's class and stack: a message from deep inside may quote what it was given.
        logger.error(
          { requestId, errorName: (error as Error)?.name, stack: (error as Error)?.stack?.split('\n').slice(1).join('\n') },
          'attestation request failed',
        );
        respond(ctx, 500, 'internal error', null, 'INTERNAL_ERROR');
      }
    }
    const body = ctx.body as { errorCode?: string };
    logger.info(
      {
        requestId,
        method: ctx.method,
        route: ctx._matchedRoute ?? null,
        status: ctx.status,
        errorCode: body?.errorCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'attestation request',
    );
  });
  // A payout customer's page registers their account from its own origin (docs/payout-checkout.md,
  // "Connecting an account"): /identity answers browsers, their preflight included. Nothing it
  // answers is secret: the session arrives sealed and the attestation is the caller's to hand on.
  app.use(async (ctx, next) => {
    if (ctx.path !== '/identity') return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method !== 'OPTIONS') return next();
    ctx.set('Access-Control-Allow-Methods', 'POST');
    ctx.set('Access-Control-Allow-Headers', 'content-type');
    ctx.status = 204;
    ctx.body = null;
  });
  app.use(async (ctx, next) => {
    if (ctx.method === 'POST' && !ctx.is('application/json')) throw Object.assign(new Error('unsupported media type'), { status: 415, expose: true });
    await next();
  });
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: JSON_LIMIT, encoding: 'utf-8' }));

  // The one answer outside the envelope: OpenAPI tools read the document as it is.
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument;
  });
  // With ?nonce=0x…, the document is signed for that request: a client that checks its nonce knows the answer is fresh.
  router.get('/attestation', async (ctx) => {
    // Public by design, and what a buyer's checkout page fetches from its own origin before it seals anything.
    ctx.set('Access-Control-Allow-Origin', '*');
    respond(
      ctx,
      200,
      'Attestation document',
      ctx.query.nonce === undefined ? service.attestationDocument() : await service.attestationDocumentFor(ctx.query.nonce),
    );
  });
  router.post('/buyer/verify/:platform/:actionType', async (ctx) => {
    respond(ctx, 200, 'Payment verified', await service.verifyBuyerPayment(ctx.params.platform!, ctx.params.actionType!, ctx.request.body));
  });
  router.post('/verify/:platform/:actionType', async (ctx) => {
    respond(ctx, 200, 'Payment verified', await service.verifyBuyerProof(ctx.params.platform!, ctx.params.actionType!, ctx.request.body));
  });
  router.get('/seller/supported', (ctx) => respond(ctx, 200, 'Seller platforms', { platforms: service.sellerPlatforms() }));
  router.post('/seller/credentials/:platform', async (ctx) => {
    respond(ctx, 201, 'Seller credential kept', await service.uploadSellerCredential(ctx.params.platform!, ctx.request.body));
  });
  router.get('/seller/credentials/:platform/:payeeDetails', async (ctx) => {
    respond(ctx, 200, 'Seller credential', await service.sellerCredential(ctx.params.platform!, ctx.params.payeeDetails!));
  });
  router.post('/seller/credentials/:platform/:payeeDetails/revoke', async (ctx) => {
    respond(ctx, 200, 'Seller credential revoked', await service.revokeSellerCredential(ctx.params.platform!, ctx.params.payeeDetails!, ctx.request.body));
  });
  router.post('/seller/verify/:platform/:actionType', async (ctx) => {
    respond(ctx, 200, 'Payment verified', await service.resolveSellerPayment(ctx.params.platform!, ctx.params.actionType!, ctx.request.body));
  });
  router.post('/identity', async (ctx) => respond(ctx, 200, 'Identity verified', await service.registerIdentity(ctx.request.body)));
  router.get('/dispute/supported', (ctx) => respond(ctx, 200, 'Dispute verifiers', { verifiers: service.disputeVerifiers() }));
  router.post('/dispute/verify/:platform/:actionType', async (ctx) => {
    respond(ctx, 200, 'Dispute verified', await service.verifyDispute(ctx.params.platform!, ctx.params.actionType!, ctx.request.body));
  });
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}

/** The package's version, as the gateway's document states it; the measurement, not this, names the code that runs. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function isHttpError(error: unknown): error is { status: number } {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}
