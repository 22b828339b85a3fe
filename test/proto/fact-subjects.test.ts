import test from 'ava';
import { subjectsOf } from '../../proto/fact-subjects.js';
import type { ChainFact } from '../../proto/gen/peer/indexer/v1/indexer.js';

const fact = (event: ChainFact['event']) => ({ event }) as ChainFact;
const INTENT = `0x${'ab'.repeat(32)}`;
const METHOD = `0x${'01'.repeat(32)}`;
const CURRENCY = `0x${'02'.repeat(32)}`;

test('a deposit’s settings reach the deposit’s subscribers, the fees an intent paid reach the intent’s', (t) => {
  t.deepEqual(
    subjectsOf(fact({ $case: 'depositCurrencyAdded', value: { depositId: '7', paymentMethod: METHOD, currency: CURRENCY, minConversionRate: '1' } })),
    [{ depositId: '7' }],
  );
  t.deepEqual(subjectsOf(fact({ $case: 'depositRateManagerSet', value: { depositId: '7', rateManager: '0x0000000000000000000000000000000000000001' } })), [
    { depositId: '7' },
  ]);
  t.deepEqual(subjectsOf(fact({ $case: 'depositPrivacyUpdated', value: { depositId: '7', isPrivate: true } })), [{ depositId: '7' }]);
  t.deepEqual(
    subjectsOf(fact({ $case: 'protocolFeePaid', value: { intentHash: INTENT, recipient: '0x0000000000000000000000000000000000000002', amount: '5' } })),
    [{ intentHash: INTENT }],
  );
  t.deepEqual(
    subjectsOf(fact({ $case: 'referrerFeePaid', value: { intentHash: INTENT, referrer: '0x0000000000000000000000000000000000000003', amount: '5' } })),
    [{ intentHash: INTENT }],
  );
  t.deepEqual(subjectsOf(fact(undefined)), []);
});
