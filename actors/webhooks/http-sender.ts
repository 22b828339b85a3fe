/**
 * One webhook delivery attempt: a single POST, reported as data, never thrown.
 *
 * node:http rather than fetch, because the destination guard has to sit in the
 * socket's `lookup`. Redirects are not followed: a 3xx is the merchant's answer,
 * and following it would let them steer us past the guard.
 */
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { checkWebhookUrl, guardedLookup } from './destination-guard.js';
import { PlatformError } from '../errors/platform-error.js';

export const RESPONSE_EXCERPT_BYTES = 1024;

export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  requireHttps: boolean;
}

export type AttemptErrorCode = 'TIMEOUT' | 'DESTINATION_FORBIDDEN' | 'CONNECTION_FAILED' | 'INVALID_URL' | 'TLS_ERROR';

export interface AttemptResult {
  /** null when no HTTP answer arrived. */
  status: number | null;
  responseExcerpt: string;
  durationMs: number;
  error: string | null;
  errorCode: AttemptErrorCode | null;
}

// Keep-alive pools are keyed by host and port only, so a socket opened under one
// policy must never serve the other: one pool per scheme and policy, each with the
// guard built in. The guard runs for every new socket; a pooled socket stays
// connected to the address that was checked when it was opened.
const agents = {
  http: { guarded: keepAliveAgent(http, false), open: keepAliveAgent(http, true) },
  https: { guarded: keepAliveAgent(https, false), open: keepAliveAgent(https, true) },
};

function keepAliveAgent(transport: typeof http | typeof https, allowPrivate: boolean): http.Agent {
  return new transport.Agent({ keepAlive: true, lookup: guardedLookup(allowPrivate) });
}

class AttemptTimeout extends PlatformError {
  override readonly name = 'AttemptTimeout';
  readonly code = 'ATTEMPT_TIMEOUT';
}

export async function sendAttempt(request: AttemptRequest): Promise<AttemptResult> {
  const started = performance.now();
  const finish = (outcome: Partial<AttemptResult>): AttemptResult => ({
    status: null,
    responseExcerpt: '',
    error: null,
    errorCode: null,
    ...outcome,
    durationMs: performance.now() - started,
  });

  const policy = { requireHttps: request.requireHttps, allowPrivate: request.allowPrivate };
  const check = checkWebhookUrl(request.url, policy);
  if (!check.ok) {
    // The only refusals that private access would lift are about the destination.
    const forbidden = !request.allowPrivate && checkWebhookUrl(request.url, { ...policy, allowPrivate: true }).ok;
    return finish({ error: check.reason, errorCode: forbidden ? 'DESTINATION_FORBIDDEN' : 'INVALID_URL' });
  }

  try {
    const { status, excerpt } = await post(check.url, request);
    return finish({ status, responseExcerpt: excerpt });
  } catch (error) {
    return finish(describeFailure(error));
  }
}

/**
 * Resolves with the status and excerpt. The deadline covers connect, headers and
 * excerpt; once the status is in, a body that stalls past it only shortens the
 * excerpt, since the status already is the merchant's answer.
 */
function post(url: URL, request: AttemptRequest): Promise<{ status: number; excerpt: string }> {
  const body = Buffer.from(request.body, 'utf8');
  const secure = url.protocol === 'https:';
  const pool = secure ? agents.https : agents.http;
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: request.allowPrivate ? pool.open : pool.guarded,
      lookup: guardedLookup(request.allowPrivate),
      headers: {
        ...request.headers,
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': 'Peer-Webhooks/1',
      },
    });
    const chunks: Buffer[] = [];
    let received = 0;
    let status: number | undefined;
    let settled = false;

    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      // An unfinished body is dropped with its socket rather than drained just to
      // reuse the connection; after a complete response this is a no-op.
      req.destroy();
      if (status === undefined) reject(error);
      else resolve({ status, excerpt: decodeExcerpt(chunks) });
    };
    const deadline = setTimeout(() => settle(new AttemptTimeout(`no answer within ${request.timeoutMs} ms`)), request.timeoutMs);

    req.on('error', settle);
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received >= RESPONSE_EXCERPT_BYTES) settle();
      });
      // 'close' follows 'end', an error and a reset alike; whatever arrived is the excerpt.
      res.on('error', () => settle());
      res.on('close', () => settle());
    });
    req.end(body);
  });
}

function decodeExcerpt(chunks: Buffer[]): string {
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  // Streaming mode holds back a character cut in half at the limit instead of
  // turning it into U+FFFD.
  return new TextDecoder('utf-8').decode(bytes, { stream: true });
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'HOSTNAME_MISMATCH',
  'EPROTO',
]);

function describeFailure(error: unknown): Pick<AttemptResult, 'error' | 'errorCode'> {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = messageOf(error);
  if (error instanceof AttemptTimeout) return { error: message, errorCode: 'TIMEOUT' };
  if (code === 'WEBHOOK_DESTINATION_FORBIDDEN') return { error: message, errorCode: 'DESTINATION_FORBIDDEN' };
  if (code === 'ETIMEDOUT') return { error: message, errorCode: 'TIMEOUT' };
  if (code === 'ERR_INVALID_URL') return { error: message, errorCode: 'INVALID_URL' };
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) {
    return { error: message, errorCode: 'TLS_ERROR' };
  }
  return { error: message, errorCode: 'CONNECTION_FAILED' };
}

function messageOf(error: unknown): string {
  // With several addresses Node reports an AggregateError whose own message is empty.
  if (error instanceof AggregateError && error.message === '') return error.errors.map(messageOf).join('; ');
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
