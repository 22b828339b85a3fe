/**
 * The error tables, row by row (as stripe-node's Error.spec.ts): each runtime error
 * through the real error middleware, wire codec, ask() and outbox runner; each errorCode
 * through the middleware; and the tables against the documents and the source tree.
 */
import { StoreConnectionLostError, StoreUnavailableError } from '../../../actors/store/socket/index.js';
import { StoreTimeoutError } from '../../../gateway/limits/cluster-budget.js';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Router from '@koa/router';
import test from 'ava';
import Koa from 'koa';
import {
  AskTimeoutError,
  CommandRejectedError,
  ConfigError,
  ConflictError,
  DuplicateKeyError,
  EmbeddedTransport,
  PermanentEffectError,
  ShardNotServedError,
  ShuttingDownError,
  TransportUnavailableError,
  UnknownActorError,
  UnknownKindError,
  createLogger,
  type RetryPolicy,
} from '../../../actors/index.js';
import { IndexerUnavailableError } from '../../../actors/chain/wallet-transfers.js';
import { ERROR_CODES, type ErrorCode, statusOfCode } from '../../../actors/errors/error-codes.js';
import { RUNTIME_ERRORS, type RuntimeErrorRowName } from '../../../actors/errors/error-table.js';
import { PlatformError } from '../../../actors/errors/platform-error.js';
import { ConversionRefused } from '../../../actors/adapters/conversion/conversion-provider.js';
import { BridgeRefused } from '../../../actors/bridges/index.js';
import { FundingProviderUnavailable } from '../../../actors/adapters/conversion/funding-provider.js';
import { PayoutBridgeUnavailable } from '../../../actors/adapters/conversion/payout-bridge.js';
import { CustomerWalletUnavailable } from '../../../actors/adapters/wallet-provider/customer-wallets.js';
import { PayoutPolicyRefused, PayoutSignerNotAttached, PayoutWalletNotHeld } from '../../../actors/adapters/wallet-provider/payout-signers.js';
import { ListingStillPending } from '../../../actors/payouts/payout-listing.js';
import { ChargebackRefusedError } from '../../../actors/chain/stake-compensation.js';
import { MailUnavailable } from '../../../actors/adapters/mail/mailer.js';
import { RateUnavailableError } from '../../../actors/adapters/rates/rate-source.js';
import { FolderLockedError } from '../../../actors/store/disk/folder-lock.js';
import { RemoteError } from '../../../actors/transport/transport.js';
import { decodeReply, encodeFailure } from '../../../actors/transport/wire.js';
import { ForbiddenDestinationError } from '../../../actors/webhooks/destination-guard.js';
import { InvalidCidrError } from '../../../gateway/auth/cidr.js';
import { ApiError } from '../../../gateway/envelope.js';
import { errorEnvelope } from '../../../gateway/middleware/errors.js';
import { type RequestState, requestContext } from '../../../gateway/middleware/request-context.js';
import { counterKind } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

/** A class its module keeps to itself: the tables know it by name, as they know every error. */
const privateError = (name: string, code: string) =>
  new (class extends PlatformError {
    override readonly name = name;
    readonly code = code;
  })(`a ${name}`);

/** One instance of each runtime error the table has a row for; a row without one here does not compile. */
const EXAMPLES: Record<RuntimeErrorRowName, () => Error> = {
  CommandRejectedError: () => new CommandRejectedError('AMOUNT_LOCKED', 'the amount is locked', { amountLock: 'PAYMENT' }),
  UnknownActorError: () => new UnknownActorError('order', 'ord_1'),
  AskTimeoutError: () => new AskTimeoutError('order', 'ord_1', 10_000),
  ShuttingDownError: () => new ShuttingDownError(),
  ShardNotServedError: () => new ShardNotServedError(7),
  TransportUnavailableError: () => new TransportUnavailableError('no node answered'),
  UnknownKindError: () => new UnknownKindError('nothing'),
  ConflictError: () => new ConflictError('order', 'ord_1', 5),
  DuplicateKeyError: () => new DuplicateKeyError('actor_order', 'ord_1'),
  RemoteError: () => new RemoteError('remote RangeError: out of range'),
  StoreConnectionLostError: () => new StoreConnectionLostError('find: the connection to the store was lost'),
  StoreUnavailableError: () => new StoreUnavailableError('could not connect to the store at 127.0.0.1:7001'),
  StoreTimeoutError: () => new StoreTimeoutError('the store did not count within 1000 ms'),
  PermanentEffectError: () => new PermanentEffectError('never', { code: 'NO_CHAIN' }),
  RateUnavailableError: () => new RateUnavailableError('stale'),
  IndexerUnavailableError: () => new IndexerUnavailableError('down'),
  BridgeRefused: () => new BridgeRefused('the conversion provider refused the bridge'),
  ConversionRefused: () => new ConversionRefused('UNSUPPORTED_TOKEN', 'no such token'),
  CustomerWalletUnavailable: () => new CustomerWalletUnavailable('the wallet provider did not answer'),
  ChargebackRefusedError: () => new ChargebackRefusedError('the escrow did not record the chargeback: FAILED (StakeExhausted)'),
  FundingProviderUnavailable: () => new FundingProviderUnavailable('the conversion provider did not answer POST /funding within 5000 ms'),
  PayoutBridgeUnavailable: () => new PayoutBridgeUnavailable('the conversion provider did not answer POST /payout-bridge/quotes within 5000 ms'),
  ListingStillPending: () => new ListingStillPending('the listing is still pending'),
  PayoutSignerNotAttached: () => new PayoutSignerNotAttached('0x1111111111111111111111111111111111111111'),
  PayoutPolicyRefused: () =>
    new PayoutPolicyRefused('0x1111111111111111111111111111111111111111', { index: 0, code: 'TRANSFER_ABOVE_CAP', reason: 'above the cap' }),
  PayoutWalletNotHeld: () => new PayoutWalletNotHeld('0x1111111111111111111111111111111111111111'),
  MailUnavailable: () => new MailUnavailable('the SMTP server at smtp.example:465 did not take the message (ECONNECTION)'),
  ForbiddenDestinationError: () => new ForbiddenDestinationError('localhost', '127.0.0.1', 'loopback'),
  AttemptTimeout: () => privateError('AttemptTimeout', 'ATTEMPT_TIMEOUT'),
  CursorMovedError: () => privateError('CursorMovedError', 'CURSOR_MOVED'),
  IntentReadError: () => privateError('IntentReadError', 'INTENT_READ_FAILED'),
  DepositReadError: () => privateError('DepositReadError', 'DEPOSIT_READ_FAILED'),
  FolderLockedError: () => new FolderLockedError('held by another process'),
  ConfigError: () => new ConfigError('invalid configuration'),
  InvalidCidrError: () => new InvalidCidrError(['not-an-ip']),
  ApiError: () => new ApiError(409, 'taken', 'REFERRAL_CODE_TAKEN'),
};
const rows = Object.entries(RUNTIME_ERRORS) as Array<[RuntimeErrorRowName, (typeof RUNTIME_ERRORS)[RuntimeErrorRowName]]>;

/** A gateway with only the error middleware, answering GET /throw/<row> by throwing that row's example. */
async function serve(thrown: (name: string) => Error): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Koa<RequestState>();
  app.silent = true;
  app.use(requestContext(createLogger({ level: 'silent' })));
  app.use(errorEnvelope());
  const router = new Router<RequestState>();
  router.get('/throw/:name', (ctx) => {
    throw thrown(ctx.params.name!);
  });
  app.use(router.routes());
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('each runtime error is answered through the error middleware as its row says', async (t) => {
  const { url, close } = await serve((name) => EXAMPLES[name as RuntimeErrorRowName]());
  t.teardown(close);
  for (const [name, row] of rows) {
    const response = await fetch(`${url}/throw/${name}`);
    const body = await response.json();
    if (name === 'ApiError') {
      t.like(body, { statusCode: 409, message: 'taken', errorCode: 'REFERRAL_CODE_TAKEN' }, name);
    } else if (row.answer === null) {
      t.deepEqual(body, { success: false, message: 'Internal server error', responseObject: null, statusCode: 500, errorCode: 'INTERNAL_ERROR' }, name);
    } else if (row.answer === 'own') {
      t.deepEqual(body, {
        success: false,
        message: 'the amount is locked',
        responseObject: { amountLock: 'PAYMENT' },
        statusCode: 409,
        errorCode: 'AMOUNT_LOCKED',
      });
    } else {
      const status = ERROR_CODES[row.answer].status;
      t.is(response.status, status, name);
      t.deepEqual(body, { success: false, message: row.message, responseObject: null, statusCode: status, errorCode: row.answer }, name);
    }
    const retryAfter = 'retryAfterSeconds' in row ? String(row.retryAfterSeconds) : null;
    t.is(response.headers.get('retry-after'), retryAfter, `${name} Retry-After`);
  }
  // What the middleware answered for each before the table, kept exactly.
  t.like(RUNTIME_ERRORS, {
    UnknownActorError: { answer: 'NOT_FOUND', message: 'Not found' },
    AskTimeoutError: { answer: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable', retryAfterSeconds: 1 },
    ShuttingDownError: { answer: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable', retryAfterSeconds: 1 },
    RateUnavailableError: { answer: 'RATE_UNAVAILABLE', message: 'Exchange rates are unavailable right now; retry shortly' },
    IndexerUnavailableError: { answer: 'INDEXER_UNAVAILABLE', message: 'The chain indexer is not answering; retry shortly', retryAfterSeconds: 1 },
  });
});

test('each runtime error crosses the wire as its row says: as itself, as a retryable unavailability, or by name as a RemoteError', (t) => {
  for (const [name, row] of rows) {
    const original = EXAMPLES[name]();
    const error = t.throws(() => decodeReply(encodeFailure(original)), undefined, name);
    const wire = 'wire' in row ? row.wire : undefined;
    if (!wire) {
      t.true(error instanceof RemoteError, `${name} arrives as RemoteError`);
      t.like(error?.cause, { name, message: original.message }, name);
    } else if ('unavailable' in wire) {
      t.true(error instanceof TransportUnavailableError, `${name} arrives as TransportUnavailableError`);
      t.is(error?.message, original.message);
      t.like(error?.cause, { name }, name);
    } else {
      t.is(error?.constructor, original.constructor, name);
      t.deepEqual({ ...error, message: error?.message }, { ...original, message: original.message }, name);
    }
  }
});

test('ask() retries an attempt exactly when the row says so, and answers the rest at once', async (t) => {
  const transport = new EmbeddedTransport();
  const { system } = await startTestSystem({ kinds: [counterKind()], transport });
  const send = transport.send.bind(transport);
  await system.askAt({ kind: 'counter', id: 'c' }, { type: 'OPEN' });
  for (const [name, row] of rows) {
    let failures = 1;
    transport.send = async (...args) => {
      if (failures-- > 0) throw EXAMPLES[name]();
      return send(...args);
    };
    const asked = system.askAt({ kind: 'counter', id: 'c' }, { type: 'ADD', n: 1 }, { timeoutMs: 5_000 });
    if (row.askRetries) await t.notThrowsAsync(asked, name);
    else await t.throwsAsync(asked, { name }, name);
  }
});

const POLICY: RetryPolicy = { baseMs: 1_000, maxBackoffMs: 4_000, maxAttempts: 10, maxAgeMs: 60 * 60 * 1000 };

test('an effect that throws each runtime error is retried, or set aside at once when its row says it failed for good', async (t) => {
  let current: RuntimeErrorRowName = 'ConflictError';
  const { system } = await startTestSystem({
    kinds: [
      counterKind(async () => {
        throw EXAMPLES[current]();
      }),
    ],
    retryPolicy: POLICY,
  });
  for (const [name, row] of rows) {
    current = name;
    const id = `effect-${name}`;
    await system.askAt({ kind: 'counter', id }, { type: 'OPEN' });
    await system.askAt({ kind: 'counter', id }, { type: 'PROBE', label: name });
    await system.effectsIdle();
    const doc = await system.documents('counter').findOne({ _id: id });
    const letters = (await system.deadLetters.list({ source: 'effect', limit: 100 })).letters.filter((letter) => letter.actor?.id === id);
    if (row.outbox === 'permanent') {
      t.deepEqual(doc!.outbox, [], name);
      t.like(letters[0], { attempts: 1, error: { name } }, name);
    } else {
      t.like(doc!.outbox[0], { attempts: 1, lastError: EXAMPLES[name]().message }, `${name} waits for its retry`);
      t.is(letters.length, 0, name);
    }
  }
});

test('each errorCode with a status is answered with it, and a refusal code outside the table is a 422', async (t) => {
  const { url, close } = await serve((code) => new CommandRejectedError(code, `refused ${code}`));
  t.teardown(close);
  const answered = Object.entries(ERROR_CODES).filter(([, row]) => row.status !== null);
  for (const [code, row] of answered) {
    const response = await fetch(`${url}/throw/${code}`);
    t.deepEqual(await response.json(), { success: false, message: `refused ${code}`, responseObject: null, statusCode: row.status, errorCode: code }, code);
  }
  t.is(statusOfCode('NOT_IN_THE_TABLE'), 422);
  const fallback = await fetch(`${url}/throw/NOT_IN_THE_TABLE`);
  t.is(fallback.status, 422);
});

/** The codes a document names in its Errors section: the errorCode or code column of its tables, and its lists of codes. */
function documentedCodes(markdown: string): Map<string, number | null> {
  const section = markdown.slice(markdown.indexOf('\n## Errors'), markdown.indexOf('\n## ', markdown.indexOf('\n## Errors') + 1));
  const codes = new Map<string, number | null>();
  let columns: string[] = [];
  for (const line of section.split('\n')) {
    if (line.startsWith('|')) {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      if (cells.every((cell) => /^-+$/.test(cell))) continue;
      if (cells.some((cell) => /^(errorCode|code|Code)$/.test(cell))) {
        columns = cells;
        continue;
      }
      const column = columns.findIndex((cell) => /^(errorCode|code|Code)$/.test(cell));
      const statusColumn = columns.indexOf('Status');
      if (column < 0) continue;
      for (const code of cells[column]!.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []) {
        codes.set(code, statusColumn < 0 ? null : Number(cells[statusColumn]));
      }
    } else {
      columns = [];
      const listed = /codes?:? (.*)$/i.exec(line)?.[1] ?? '';
      if (/^Create-order codes/.test(line))
        for (const code of listed.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []) if (!codes.has(code)) codes.set(code, null);
    }
  }
  const statusOf = /\b(\d{3}) ([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;
  for (const [, status, code] of section.matchAll(statusOf)) if (codes.has(code!) && codes.get(code!) === null) codes.set(code!, Number(status));
  return codes;
}

const SPECS = ['1-checkout-api.md', '2-payout-api.md', '3-market-deposit-attestation-api.md'];

test('every code a document names has a row, with the status the document gives it', (t) => {
  let named = 0;
  for (const spec of SPECS) {
    const codes = documentedCodes(readFileSync(join('/work/shared/spec', spec), 'utf8'));
    named += codes.size;
    for (const [code, status] of codes) {
      t.true(code in ERROR_CODES, `${spec} names ${code}, which has no row`);
      if (status !== null && code in ERROR_CODES) t.is(ERROR_CODES[code as ErrorCode].status as number | null, status, `${spec}: ${code}`);
    }
  }
  t.true(named > 90, `the documents name ${named} codes`);
});

/** Error classes that stay outside the base, and why. */
const OUTSIDE_THE_BASE: Record<string, string> = {
  MoneyFormatError: 'machines/ imports nothing of ours',
  CheckoutError: 'the hosted page’s browser client',
  CashoutError: 'the payout checkout page’s browser client',
  DashboardError: 'the merchant dashboard page’s browser client',
  TokenRefusedError: 'the engineers’ page’s browser client',
  AdminApiError: 'the engineers’ page’s browser client',
  StreamRefusedError: 'deploy/event-stream-reader.ts is a self-contained client of the event stream',
  SimulatorError: 'the conversion provider’s local stand-in, a service of its own',
};
const SEPARATE_SERVICES = ['indexer/', 'enclave/'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry === 'gen') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

test('every error class of the node extends the base and has a row; the separate services and browser clients are named', (t) => {
  const found: string[] = [];
  for (const root of ['actors', 'gateway', 'deploy', 'machines', 'indexer', 'enclave']) {
    for (const file of sourceFiles(root)) {
      for (const [, name, base] of readFileSync(file, 'utf8').matchAll(/class (\w+) extends (\w+)/g)) {
        if (!/Error$/.test(base!)) continue;
        if (SEPARATE_SERVICES.some((service) => file.startsWith(service))) continue;
        found.push(name!);
        if (name === 'RuntimeError' || name === 'PlatformError') continue;
        if (name! in OUTSIDE_THE_BASE) continue;
        t.not(base, 'Error', `${file}: ${name} extends Error, not PlatformError`);
        t.true(name! in RUNTIME_ERRORS, `${file}: ${name} has no row in RUNTIME_ERRORS`);
      }
    }
  }
  t.true(found.length > 25, `${found.length} error classes`);
  for (const name of Object.keys(RUNTIME_ERRORS)) t.true(found.includes(name), `the row ${name} names a class that exists`);
});

test('every ApiError the gateway throws with a literal status and code uses a status the code’s row gives it', (t) => {
  let checked = 0;
  for (const file of sourceFiles('gateway')) {
    const source = readFileSync(file, 'utf8');
    for (const [, status, code] of source.matchAll(/new ApiError\(\s*(\d{3}),[^;]*?'([A-Z][A-Z0-9_]+)'\s*[,)]/g)) {
      checked++;
      const row = ERROR_CODES[code as ErrorCode] as { status: number | null; alsoStatus?: readonly number[] } | undefined;
      t.truthy(row, `${file}: ${code} has no row`);
      if (row)
        t.true(
          row.status === Number(status) || (row.alsoStatus ?? []).includes(Number(status)),
          `${file}: ${code} thrown with ${status}, its row says ${row.status}`,
        );
    }
  }
  t.true(checked > 40, `${checked} throws checked`);
});
