import { randomUUID } from 'node:crypto';
import test from 'ava';
import { atomicCreate, atomicCreateStatus } from '../../support/atomic-create.js';
import { withGateway } from '../../support/gateway.js';
import { signIn } from '../../support/maker-sign-in.js';

const body = { requestId: randomUUID(), calls: { createDeposit: '0x12345678' } };

test('a node without a chain answers atomic-create 503 with Retry-After, and cannot follow one', async (t) => {
  await withGateway(async (gateway) => {
    const maker = await signIn(gateway);
    const answer = await atomicCreate(gateway, maker.headers, body);
    t.is(answer.status, 503);
    t.is(answer.body.errorCode, 'TEMPORARILY_UNAVAILABLE');
    t.is(answer.headers.get('retry-after'), '2');
    const status = await atomicCreateStatus(gateway, maker.headers, body.requestId);
    t.is(status.status, 503, 'nor can it say where a request stands');
    t.is(status.body.errorCode, 'TEMPORARILY_UNAVAILABLE');
    t.is(status.headers.get('retry-after'), '2');
  });
});
