/**
 * Two amount saves of an open-amount order at the same amountVersion, at once
 * (docs/resize.md, Amount conflicts): the order actor decides, so exactly one wins, the
 * other is answered 409 AMOUNT_CONFLICT with the version it lost to, and the version moves
 * by one with one ORDER_AMOUNT_SET.
 */
import test from 'ava';
import { EmbeddedStore } from '../../actors/index.js';
import { startTestGateway } from '../support/gateway.js';
import { slowStore } from '../support/slow-store.js';
import { hostedRead, placeOrder, recordEvents } from '../support/checkout.js';

const OPEN = { openAmount: { currency: 'EUR', minAmount: '5', maxAmount: '100' } };

test('two concurrent saves at the same amountVersion: one wins, the other is AMOUNT_CONFLICT', async (t) => {
  // Writes take wall time, as a networked store's do: each request reads the order before another's save lands.
  const gateway = await startTestGateway({}, { store: slowStore(new EmbeddedStore(), 30) });
  t.teardown(() => gateway.stop());
  const { sandboxKey } = await gateway.createMerchant();
  const order = await placeOrder(gateway, sandboxKey, OPEN);
  const recorder = await recordEvents(gateway);

  const amounts = ['10', '20', '30', '40'];
  const answers = await Promise.all(amounts.map((amount) => order.customer('POST', '/amount', { amount, amountVersion: 0 })));

  const won = answers.filter((answer) => answer.status === 200);
  const lost = answers.filter((answer) => answer.status !== 200);
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409, 409, 409]);
  t.is(won.length, 1);
  t.is(lost.length, amounts.length - 1);
  for (const answer of lost) {
    t.is(answer.status, 409);
    t.is(answer.body.errorCode, 'AMOUNT_CONFLICT');
    t.deepEqual(answer.body.responseObject, { amountVersion: 1 });
  }
  const hosted = await hostedRead(gateway, order.id);
  t.is(hosted.order.amountVersion, 1);
  t.is(hosted.order.requestedUsdcAmount, won[0]!.body.responseObject.order.requestedUsdcAmount);
  t.deepEqual(await recorder.typesOf(order.id), ['ORDER_CREATED', 'ORDER_AMOUNT_SET']);
});
