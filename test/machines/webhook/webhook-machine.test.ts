import test from 'ava';
import { initialTransition, transition } from 'xstate';
import { SECRET_OVERLAP_MS, signingSecrets, webhookMachine, type WebhookEvent } from '../../../machines/webhook/index.js';

const AT = '2026-11-23T12:00:00.000Z';
const ms = (iso: string, offset = 0) => Date.parse(iso) + offset;

function created() {
  const [snapshot] = initialTransition(webhookMachine, {
    id: 'whk_1',
    merchantId: 'mer_1',
    environment: 'LIVE',
    url: 'https://hooks.example/a',
    events: [],
    customHeaders: [],
    secret: 'whsec_first',
    at: AT,
  });
  return snapshot;
}

const send = (snapshot: ReturnType<typeof created>, event: WebhookEvent) => transition(webhookMachine, snapshot, event)[0];

test('a rotation keeps the secret in use signing for 24 hours beside the new one, then only the new one', (t) => {
  const rotated = send(created(), { type: 'ROTATE_SECRET', secret: 'whsec_second', at: AT });
  t.deepEqual(signingSecrets(rotated.context, ms(AT)), ['whsec_second', 'whsec_first']);
  t.deepEqual(signingSecrets(rotated.context, ms(AT, SECRET_OVERLAP_MS - 1)), ['whsec_second', 'whsec_first']);
  t.deepEqual(signingSecrets(rotated.context, ms(AT, SECRET_OVERLAP_MS)), ['whsec_second']);
});

test('a second rotation inside the overlap stops the first secret at once: never more than two sign', (t) => {
  const once = send(created(), { type: 'ROTATE_SECRET', secret: 'whsec_second', at: AT });
  const later = new Date(ms(AT, 60_000)).toISOString();
  const twice = send(once, { type: 'ROTATE_SECRET', secret: 'whsec_third', at: later });
  t.deepEqual(signingSecrets(twice.context, ms(later)), ['whsec_third', 'whsec_second']);
});

test('the first reason an endpoint went off stands; switching it on clears it; a deleted endpoint takes no change but acknowledges a late report', (t) => {
  const gone = send(created(), { type: 'DISABLE', code: 'GONE', message: '410', at: AT });
  t.is(gone.value, 'DISABLED');
  const again = send(gone, { type: 'DISABLE', code: 'FAILING', message: 'spent', at: AT });
  t.is(again.context.disabled?.code, 'GONE');
  const on = send(again, { type: 'UPDATE', changes: { active: true }, at: AT });
  t.is(on.value, 'ACTIVE');
  t.is(on.context.disabled, null);
  const deleted = send(on, { type: 'DELETE', at: AT });
  t.is(deleted.value, 'DELETED');
  t.false(deleted.can({ type: 'UPDATE', changes: { active: true }, at: AT }));
  t.false(deleted.can({ type: 'ROTATE_SECRET', secret: 'whsec_x', at: AT }));
  t.true(deleted.can({ type: 'DISABLE', code: 'GONE', message: '410', at: AT }));
});
