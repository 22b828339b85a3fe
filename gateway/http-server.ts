/**
 * The gateway's HTTP server. Node's parser refuses some requests before any
 * middleware runs: a malformed request line or header, headers over Node's 16 KB
 * limit, a request that took too long to arrive. Node alone answers those with a bare
 * status line; here they get the envelope like every other answer. The connection
 * then closes, because the parser cannot find where the next request would start.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { MALFORMED_REQUEST, type Envelope } from './envelope.js';

type Refusal = [status: number, reason: string, message: string, errorCode: string];

const REFUSALS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request header fields too large', 'HEADERS_TOO_LARGE'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'Request body too large', 'BODY_TOO_LARGE'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timeout', 'REQUEST_TIMEOUT'],
};
const MALFORMED: Refusal = [MALFORMED_REQUEST.statusCode, 'Bad Request', MALFORMED_REQUEST.message, MALFORMED_REQUEST.errorCode];

export function createGatewayServer(listener: RequestListener): Server {
  const server = createServer(listener);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // As Node's own default handler does: write only when no response is under way on this connection, else it would corrupt it.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, message, errorCode] = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({ success: false, message, responseObject: null, statusCode: status, errorCode } satisfies Envelope);
    const head = [`HTTP/1.1 ${status} ${reason}`, 'Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  });
  return server;
}
