/**
 * The types a kind carries, checked by tsc (this file is in the project): a command its
 * machine does not take, a view path its view lacks, or an effect handler for an action its
 * machine does not name does not compile. The tests run the same calls against a node.
 */
import test from 'ava';
import { orderKind, paymentKind, type OrderReply, type OrderView } from '../../../actors/kinds/index.js';
import { withEffects, type CommandOf, type EffectHandlers, type ReplyOf, type ViewOf } from '../../../actors/runtime/actor-kind.js';
import type { ViewFilter } from '../../../actors/runtime/view-collection.js';
import type { paymentMachine } from '../../../machines/index.js';
import { fixedOrderInput } from '../../support/order-input.js';
import { startTestSystem } from '../../support/test-node.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const sameType = <A, B>(same: Equal<A, B>) => same;

test('an order is created and read through its kind: the reply and the view are the kind’s types', async (t) => {
  const { system } = await startTestSystem({ kinds: [orderKind] });
  const input = fixedOrderInput();
  const reply = await system.ask(orderKind, input.id, { type: 'CREATE', ...input });
  sameType<typeof reply, OrderReply>(true);
  sameType<ReplyOf<typeof orderKind>, { order: OrderView['order']; orderTokenHash: string }>(true);
  t.is(reply.order.id, input.id);
  t.is(reply.orderTokenHash, input.orderTokenHash);

  const doc = await system.views(orderKind).findOne({ _id: input.id, 'view.status': 'CREATED' }, { projection: { view: 1 } });
  sameType<NonNullable<typeof doc>['view'], ViewOf<typeof orderKind>>(true);
  t.deepEqual(doc?.view.order, reply.order);

  // @ts-expect-error: the order's machine takes no SHIP command.
  await t.throwsAsync(system.ask(orderKind, input.id, { type: 'SHIP', at: '2026-11-23T13:00:00.000Z' }));
  // @ts-expect-error: an order's view has no `view.amount`; a query naming it is a mistake.
  t.is(await system.views(orderKind).count({ 'view.amount': '1' }), 0);
});

test('a command missing what its machine needs does not compile', (t) => {
  // @ts-expect-error: CANCEL carries `at`.
  const cancel: CommandOf<typeof orderKind> = { type: 'CANCEL' };
  // @ts-expect-error: `view.payment.state` is not a path of a payment's view (it is `view.payment.status`).
  const filter: ViewFilter<ViewOf<typeof paymentKind>> = { 'view.payment.state': 'SETTLED' };
  t.truthy(cancel && filter);
});

test('effect handlers are keyed by the machine’s actions: a handler for an action it does not name does not compile', (t) => {
  const noop = async () => {};
  const handlers: EffectHandlers<typeof paymentMachine> = {
    cancelIntent: async (params) => {
      // The params are the ones the machine passes.
      sameType<typeof params.intentHash, string | null>(true);
    },
    // @ts-expect-error: the payment machine has no action `signIntent` (it is `signalIntent`).
    signIntent: noop,
  };
  const kind = withEffects(paymentKind, { cancelIntent: noop });
  t.is(kind.name, paymentKind.name);
  t.deepEqual(Object.keys(kind.effects ?? {}), ['cancelIntent']);
  t.is(paymentKind.effects, undefined);
  t.truthy(handlers.cancelIntent);
});
