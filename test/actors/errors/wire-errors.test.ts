import test from 'ava';
import { DuplicateKeyError, ShuttingDownError, TransportUnavailableError } from '../../../actors/index.js';
import { decodeReply, encodeFailure } from '../../../actors/transport/wire.js';

test('a DuplicateKeyError crosses the wire as itself, with its collection and key', (t) => {
  const error = t.throws(() => decodeReply(encodeFailure(new DuplicateKeyError('actor_order', 'idem_1'))));
  t.true(error instanceof DuplicateKeyError, `rethrown as ${error?.name}`);
  t.like(error, { collection: 'actor_order', key: 'idem_1', message: 'duplicate key in actor_order: idem_1' });
});

test('an error the wire has no class for is rethrown with the remote error as its cause', (t) => {
  const remote = new RangeError('index 9 is out of range');
  const error = t.throws(() => decodeReply(encodeFailure(remote)));
  t.is(error?.message, 'remote RangeError: index 9 is out of range');
  t.like(error?.cause, { name: 'RangeError', message: 'index 9 is out of range' });
});

test('a draining node’s refusal arrives as TransportUnavailableError caused by the ShuttingDownError', (t) => {
  const error = t.throws(() => decodeReply(encodeFailure(new ShuttingDownError())), { instanceOf: TransportUnavailableError });
  t.true(error?.cause instanceof ShuttingDownError);
});
