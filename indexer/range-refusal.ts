/**
 * Whether a provider refused a log query for its size: too many blocks, too many results,
 * or an answer too large. Providers say so in their own words (Alchemy, Infura, QuickNode
 * and public nodes differ) and mostly with JSON-RPC's "limit exceeded" (-32005) or
 * "invalid params" (-32602); a smaller range of the same query may pass. Anything else (a
 * timeout, a refused connection) is not answered by shrinking the range.
 */
import { BaseError, HttpRequestError, RpcError } from 'viem';

const LIMIT_EXCEEDED = -32005;
const SIZE_WORDS =
  /block range|range (is )?too (large|wide|big)|too many (results|logs|blocks)|more than \d+ (results|logs|blocks)|limit exceeded|response (size|is too)|exceeds? (the )?(max|limit)|log response size/i;

export function isRangeRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(
    error.walk((cause) => {
      if (cause instanceof RpcError && cause.code === LIMIT_EXCEEDED) return true;
      if (cause instanceof HttpRequestError && cause.status === 413) return true;
      const text = cause instanceof BaseError ? `${cause.details ?? ''} ${cause.shortMessage}` : cause instanceof Error ? cause.message : '';
      return SIZE_WORDS.test(text);
    }),
  );
}
