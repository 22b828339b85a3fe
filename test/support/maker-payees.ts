/**
 * Each platform's payee as a maker types it into depositData (v2 field names), in a spelling
 * that normalises to test/support/enclave.ts PLATFORM_FIXTURES' payee id.
 */
export const PAYEE_SPELLINGS: Readonly<Record<string, Record<string, string>>> = {
  venmo: { userId: '3141592653' },
  cashapp: { cashtag: '$MakerMary' },
  monzo: { sortCode: '04-00-04', accountNumber: '12345678' },
  wise: { profileId: '55501234' },
  revolut: { revtag: 'MakerMary' },
  chime: { chimeSign: '$Maker-Mary' },
  'zelle-chase': { email: 'Mary@Example.com' },
  'zelle-bofa': { phone: '+1 (415) 555-0100' },
  'zelle-citi': { email: 'mary@example.com' },
  paypal: { email: 'Mary@Example.com' },
  'paypal-business': { email: 'payouts@maker.example' },
};
