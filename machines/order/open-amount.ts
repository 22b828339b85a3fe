/**
 * Normalising an open amount as document 1 stores it: upper-case currency,
 * 2-decimal amounts, presets ascending, 1 to 6 of them, each inside the range.
 * A bad configuration is refused with OPEN_AMOUNT_INVALID and says why.
 */
import { formatFiat, parseFiat } from '../money.js';

export interface OpenAmountConfig {
  currency: string;
  minAmount: string | null;
  maxAmount: string | null;
  presets: string[];
}

export interface OpenAmountRequest {
  currency: string;
  minAmount?: string | undefined;
  maxAmount?: string | undefined;
  presets?: string[] | undefined;
}

export type OpenAmountResult = { ok: true; config: OpenAmountConfig } | { ok: false; code: 'OPEN_AMOUNT_INVALID'; message: string };

const MAX_PRESETS = 6;

export function normaliseOpenAmount(request: OpenAmountRequest): OpenAmountResult {
  const currency = request.currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return invalid('openAmount.currency must be a three-letter ISO currency code');
  const min = amount(request.minAmount, 'minAmount');
  const max = amount(request.maxAmount, 'maxAmount');
  if (typeof min === 'string') return invalid(min);
  if (typeof max === 'string') return invalid(max);
  if (min !== null && max !== null && min > max) return invalid('openAmount.minAmount must not exceed openAmount.maxAmount');

  const presets: bigint[] = [];
  if (request.presets !== undefined) {
    if (request.presets.length < 1 || request.presets.length > MAX_PRESETS) return invalid(`openAmount.presets must hold 1 to ${MAX_PRESETS} amounts`);
    for (const [index, text] of request.presets.entries()) {
      const value = amount(text, `presets[${index}]`);
      if (typeof value === 'string') return invalid(value);
      if (value === null) return invalid(`openAmount.presets[${index}] is required`);
      if ((min !== null && value < min) || (max !== null && value > max)) {
        return invalid(`openAmount.presets[${index}] is outside minAmount and maxAmount`);
      }
      presets.push(value);
    }
    if (new Set(presets).size !== presets.length) return invalid('openAmount.presets must not repeat an amount');
  }
  presets.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    ok: true,
    config: {
      currency,
      minAmount: min === null ? null : formatFiat(min),
      maxAmount: max === null ? null : formatFiat(max),
      presets: presets.map(formatFiat),
    },
  };
}

/** The amount in cents, null when absent, or the reason it is refused. */
function amount(text: string | undefined, field: string): bigint | null | string {
  if (text === undefined) return null;
  let cents: bigint;
  try {
    cents = parseFiat(text);
  } catch {
    return `openAmount.${field} must be a positive amount with at most 2 decimals`;
  }
  return cents > 0n ? cents : `openAmount.${field} must be above zero`;
}

function invalid(message: string): OpenAmountResult {
  return { ok: false, code: 'OPEN_AMOUNT_INVALID', message };
}
