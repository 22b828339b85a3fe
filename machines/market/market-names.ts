/**
 * The chain names a payment platform and a fiat currency only by keccak256 of their ids
 * (`venmo`, `USD`). The orderbook answers with the names, so it hashes every name it can
 * give once and reads deposits' hashes back through these tables. A platform the
 * attestation service cannot verify has no name here: nobody could take such an offer.
 */
import { idHash } from '../id-hash.js';
import { PLATFORMS as PLATFORM_DEFINITIONS } from '../platforms/index.js';

/** Every platform a payment can be proven on (machines/platforms: the attestation service's own list). */
export const ORDERBOOK_PLATFORMS: readonly string[] = PLATFORM_DEFINITIONS.filter((platform) => platform.payment).map((platform) => platform.id);

const byHash = (names: readonly string[]) => new Map<string, string>(names.map((name) => [idHash(name), name]));

const PLATFORMS = byHash(ORDERBOOK_PLATFORMS);
/** Every ISO 4217 code the runtime knows, so a deposit in any currency is named. */
const CURRENCIES = byHash(Intl.supportedValuesOf('currency'));

export function platformOfHash(paymentMethod: string): string | null {
  return PLATFORMS.get(paymentMethod.toLowerCase()) ?? null;
}

export function currencyOfHash(currency: string): string | null {
  return CURRENCIES.get(currency.toLowerCase()) ?? null;
}
