import test from 'ava';
import { makerActorId, payeeHash, sameDetails, toMakerRecord, type MakerDetails } from '../../../machines/maker/index.js';

const details = (change: Partial<MakerDetails> = {}): MakerDetails => ({ telegramUsername: 'MakerMary', isBusiness: false, metadataJson: null, ...change });

test('two creates agree when the Telegram username differs only in case, and not when anything else differs', (t) => {
  t.true(sameDetails(details(), details({ telegramUsername: 'makermary' })));
  t.true(sameDetails(details({ telegramUsername: null }), details({ telegramUsername: null })));
  t.false(sameDetails(details(), details({ telegramUsername: null })));
  t.false(sameDetails(details(), details({ isBusiness: true })));
  t.false(sameDetails(details(), details({ metadataJson: '{}' })));
});

test('the actor id of a payee is its processor and hash, the hash lower-cased', (t) => {
  const hash = payeeHash('makermary');
  t.regex(hash, /^0x[0-9a-f]{64}$/);
  t.is(makerActorId('cashapp', hash.toUpperCase().replace('0X', '0x')), `cashapp-${hash.slice(2)}`);
  t.regex(makerActorId('zelle-chase', hash), /^[A-Za-z0-9_-]{1,128}$/);
});

test('a stored record reads back with its metadata object', (t) => {
  const stored = {
    id: 7,
    processorName: 'venmo',
    offchainId: '1',
    telegramUsername: null,
    hashedOnchainId: payeeHash('1'),
    isBusiness: false,
    revoked: false,
    createdAt: '2026-11-23T12:00:00.000Z',
  };
  t.deepEqual(toMakerRecord({ ...stored, metadataJson: '{"a":{"__bigint":"1"}}' }).metadata, { a: { __bigint: '1' } });
  t.is(toMakerRecord({ ...stored, metadataJson: null }).metadata, null);
});
