/**
 * The answers no operation owns, because they come before (or instead of) routing:
 * one list, rendered into the document's description and read by the test suite's
 * response validator, so the two cannot disagree.
 */
import type { ErrorCode } from '../../actors/errors/error-codes.js';

export interface UnroutedAnswer {
  status: number;
  /** Absent: the answer carries no errorCode. */
  code?: ErrorCode;
  when: string;
}

export const UNROUTED_ANSWERS: readonly UnroutedAnswer[] = [
  {
    status: 404,
    code: 'NOT_FOUND',
    when: 'no operation has this path; paths match exactly (letter case, trailing slashes and empty segments make another path)',
  },
  { status: 405, code: 'METHOD_NOT_ALLOWED', when: 'the path exists but not with this method; the `Allow` header lists its methods' },
  { status: 200, when: '`OPTIONS` on a known path: `responseObject.methods` and `Allow` list its methods. No CORS access is granted' },
  { status: 501, code: 'NOT_IMPLEMENTED', when: 'a method outside GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' },
  { status: 400, code: 'MALFORMED_REQUEST', when: 'HTTP itself could not read the request; the connection closes' },
  { status: 431, code: 'HEADERS_TOO_LARGE', when: 'headers over 16 KB; the connection closes' },
  { status: 413, code: 'PAYLOAD_TOO_LARGE', when: 'a chunked body whose chunk extensions run over 16 KB; the connection closes' },
  { status: 408, code: 'REQUEST_TIMEOUT', when: 'the request took too long to arrive; the connection closes' },
  { status: 401, when: 'any path under `/internal` without the admin token, whether or not an operation is there' },
  { status: 429, when: 'too many requests from this client address' },
];

/** The list as the markdown table of the document's description. */
export function unroutedTable(): string {
  const rows = UNROUTED_ANSWERS.map((answer) => `| ${answer.status} | ${answer.code ? `\`${answer.code}\`` : 'none'} | ${answer.when} |`);
  return ['| status | errorCode | when |', '|---|---|---|', ...rows].join('\n');
}
