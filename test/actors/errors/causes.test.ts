import test from 'ava';
import { AskTimeoutError, CommandRejectedError, DuplicateKeyError, EmbeddedTransport, TransportUnavailableError } from '../../../actors/index.js';
import { MoneyFormatError, parseUsdc } from '../../../machines/money.js';
import { ApiError } from '../../../gateway/envelope.js';
import { positiveMoneyField } from '../../../gateway/validation.js';
import { counterKind } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });

test('an ask that times out keeps the last attempt’s failure as its cause', async (t) => {
  const transport = new EmbeddedTransport();
  const { system } = await startTestSystem({ kinds: [counterKind()], transport });
  transport.send = async () => {
    throw new TransportUnavailableError('no node answered');
  };
  const error = await t.throwsAsync(system.askAt(counter('c1'), { type: 'OPEN' }, { timeoutMs: 60 }), { instanceOf: AskTimeoutError });
  t.true(error?.cause instanceof TransportUnavailableError);
  t.like(error?.cause, { message: 'no node answered' });
});

test('a DUPLICATE refusal keeps the DuplicateKeyError of the clashing insert as its cause', async (t) => {
  const base = counterKind();
  const kind = {
    ...base,
    viewIndexes: [...(base.viewIndexes ?? []), { key: { 'view.status': 1 as const, 'view.rings': 1 as const }, name: 'one_open_counter', unique: true }],
  };
  const { system } = await startTestSystem({ kinds: [kind] });
  await system.askAt(counter('first'), { type: 'OPEN' });
  const error = await t.throwsAsync(system.askAt(counter('second'), { type: 'OPEN' }), { instanceOf: CommandRejectedError });
  t.is(error?.code, 'DUPLICATE');
  t.true(error?.cause instanceof DuplicateKeyError);
});

test('a malformed money field is a validation 400 that keeps the MoneyFormatError as its cause', (t) => {
  const error = t.throws(() => positiveMoneyField('requestedUsdcAmount', () => parseUsdc('1.2.3')), { instanceOf: ApiError });
  t.is(error?.statusCode, 400);
  t.true(error?.cause instanceof MoneyFormatError);
});
