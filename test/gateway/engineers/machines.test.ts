import test from 'ava';
import { chartDefinition, chartStates } from '../../../machines/charts/index.js';
import { paymentMachine } from '../../../machines/payment/index.js';
import { transactionMachine } from '../../../machines/transaction/index.js';
import { startTestGateway, invalidToken, missingToken, type TestGateway } from '../../support/gateway.js';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(() => gateway.stop());

test('the list names every machine of the running code, with the kind running it, its version and its states', async (t) => {
  const answer = await gateway.admin('GET', '/internal/v1/machines');
  t.is(answer.status, 200);
  const machines = answer.body.responseObject as Array<{ name: string; kind?: string; machineVersion?: number; states: number }>;
  const names = machines.map((machine) => machine.name);
  t.deepEqual(names, [...names].sort(), 'by name');
  for (const name of ['order', 'payment', 'delivery', 'webhook', 'merchant', 'maker', 'maker-session', 'referral-code', 'wallet-transfer'])
    t.true(names.includes(name), name);
  t.deepEqual(
    machines.find((machine) => machine.name === 'payment'),
    { name: 'payment', kind: 'payment', machineVersion: 5, states: chartStates(chartDefinition(paymentMachine)).length },
  );
  t.like(
    machines.find((machine) => machine.name === 'order'),
    { kind: 'order', machineVersion: 6 },
  );
  t.like(
    machines.find((machine) => machine.name === 'maker'),
    { kind: 'maker-record', machineVersion: 1 },
  );
  // This node sends no transactions (no chain): the machine is charted, no kind runs it here.
  t.deepEqual(
    machines.find((machine) => machine.name === 'transaction'),
    { name: 'transaction', states: chartStates(chartDefinition(transactionMachine)).length },
  );
});

test('a machine’s chart is its definition as JSON, nested states, guards and delays included', async (t) => {
  const answer = await gateway.admin('GET', '/internal/v1/machines/payment');
  t.is(answer.status, 200);
  t.deepEqual(answer.body.responseObject, JSON.parse(JSON.stringify(chartDefinition(paymentMachine))));
  const created = answer.body.responseObject.root.states.find((state: { key: string }) => state.key === 'CREATED');
  t.is(created.type, 'compound');
  t.true(created.states.some((state: { id: string }) => state.id === 'payment.CREATED.AWAITING_PAYMENT'));
  t.like(
    created.transitions.find((transition: { delay?: unknown }) => transition.delay),
    { event: null, delay: { label: 'window', name: 'window' }, targets: ['payment.EXPIRED'] },
  );
});

test('an unknown machine is a 404, a name no machine could have a 400', async (t) => {
  const unknown = await gateway.admin('GET', '/internal/v1/machines/no-such-machine');
  t.deepEqual(unknown.body, { success: false, message: 'Machine not found', responseObject: null, statusCode: 404, errorCode: 'MACHINE_NOT_FOUND' });
  const malformed = await gateway.admin('GET', '/internal/v1/machines/Payment');
  t.is(malformed.status, 400);
  t.truthy(malformed.body.responseObject.fieldErrors.name);
});

test('without the admin token, or with a wrong one, the machines are a 401', async (t) => {
  for (const path of ['/internal/v1/machines', '/internal/v1/machines/payment', '/internal/v1/machines/no-such-machine']) {
    t.deepEqual((await gateway.request('GET', path)).body, missingToken, path);
    t.deepEqual((await gateway.request('GET', path, { headers: { authorization: 'Bearer wrong' } })).body, invalidToken, path);
  }
});
