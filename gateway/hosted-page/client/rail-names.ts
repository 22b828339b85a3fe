/** The rails as a customer knows them: the app's name, or the chain a crypto rail sends on. */
const RAIL_NAMES: Record<string, string> = {
  venmo: 'Venmo',
  cashapp: 'Cash App',
  zelle: 'Zelle',
  paypal: 'PayPal',
  wise: 'Wise',
  revolut: 'Revolut',
  monzo: 'Monzo',
  chime: 'Chime',
};
const CHAIN_NAMES: Record<string, string> = { '1': 'Ethereum', '10': 'Optimism', '56': 'BNB Chain', '137': 'Polygon', '8453': 'Base', '42161': 'Arbitrum' };

export const ZELLE_BANKS: Record<string, string> = { 'zelle-chase': 'Chase', 'zelle-bofa': 'Bank of America', 'zelle-citi': 'Citi' };

export const isCrypto = (rail: string) => rail.startsWith('relay_');

export function chainName(rail: string): string {
  const chainId = rail.slice('relay_'.length);
  return CHAIN_NAMES[chainId] ?? `chain ${chainId}`;
}

export function railName(rail: string): string {
  return isCrypto(rail) ? `Crypto on ${chainName(rail)}` : (RAIL_NAMES[rail] ?? rail);
}
