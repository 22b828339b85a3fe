/**
 * The fingerprint of a create request, to tell a replay of an idempotency key (the
 * same request) from a reuse of it (another request). It is taken of the request's
 * meaning, not its bytes: amounts as the numbers they denote (`10`, `10.0` and
 * `10.000000` are one amount), currency codes in capitals, EVM addresses and token
 * symbols in lower case (Solana addresses as sent: in base58 letter case is part of
 * the address), rails as a set, and the defaults the schema fixes (token USDC on
 * Base, no fee share, no URLs, no notes) filled in, so sending a default and
 * omitting it are one request. Defaults that come from the merchant's settings are
 * not filled in: those settings can change between a request and its retry, and a
 * retry must still replay.
 */
import { createHash } from 'node:crypto';
import { formatFiat, formatUsdc, parseFiat, parseUsdc } from '../../machines/money.js';
import { BASE_CHAIN_ID, isSolanaAddress } from '../../machines/catalog/index.js';
import type { CreateOrderBody } from './order-schemas.js';
import { canonicalJson } from '../../machines/canonical-json.js';

export function requestHash(body: CreateOrderBody): string {
  return createHash('sha256')
    .update(canonicalJson(normalised(body)))
    .digest('hex');
}

function normalised(body: CreateOrderBody): Record<string, unknown> {
  const { idempotencyKey: _key, ...request } = body;
  return {
    ...request,
    requestedUsdcAmount: request.requestedUsdcAmount === undefined ? undefined : canonical(request.requestedUsdcAmount, parseUsdc, formatUsdc),
    requestedFiatAmount: request.requestedFiatAmount === undefined ? undefined : canonical(request.requestedFiatAmount, parseFiat, formatFiat),
    requestedFiatCurrency: request.requestedFiatCurrency?.toUpperCase(),
    openAmount: request.openAmount && {
      ...request.openAmount,
      currency: request.openAmount.currency.toUpperCase(),
      minAmount: request.openAmount.minAmount === undefined ? undefined : canonical(request.openAmount.minAmount, parseFiat, formatFiat),
      maxAmount: request.openAmount.maxAmount === undefined ? undefined : canonical(request.openAmount.maxAmount, parseFiat, formatFiat),
      presets: request.openAmount.presets?.map((preset) => canonical(preset, parseFiat, formatFiat)),
    },
    destinationAddress: request.destinationAddress === undefined ? undefined : caseFolded(request.destinationAddress),
    destinationToken: caseFolded(request.destinationToken ?? 'USDC'),
    destinationChainId: String(request.destinationChainId ?? BASE_CHAIN_ID),
    buyerFeeShareBps: request.buyerFeeShareBps ?? 0,
    enabledRails: request.enabledRails && [...new Set(request.enabledRails)].sort(),
    successUrl: request.successUrl ?? null,
    cancelUrl: request.cancelUrl ?? null,
    notes: request.notes ?? null,
  };
}

/** In lower case, unless it is a Solana address (an address or a mint), where `a` and `A` are different digits. */
function caseFolded(text: string): string {
  return isSolanaAddress(text) ? text : text.toLowerCase();
}

/** The amount as its canonical text; one the parser refuses is kept as sent (the create refuses it later). */
function canonical(text: string, parse: (text: string) => bigint, format: (units: bigint) => string): string {
  try {
    return format(parse(text));
  } catch {
    return text;
  }
}
