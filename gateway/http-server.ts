/**
 * The gateway's HTTP server. Node's parser refuses some requests before any
 * middleware runs: a malformed request line or header, headers over Node's 16 KB
 * limit, a request that took too long to arrive. Node alone answers those with a bare
 * status line; here they get the envelope like every other answer. The connection
 * then closes, because the parser cannot find where the next request would start.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { JSON_CONTENT_TYPE, MALFORMED_REQUEST, PAYLOAD_TOO_LARGE, type Envelope } from './envelope.js';

type Refusal = [status: number, reason: string, message: string, errorCode: string];

const REFUSALS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request header fields too large', 'HEADERS_TOO_LARGE'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [PAYLOAD_TOO_LARGE.statusCode, 'Payload Too Large', PAYLOAD_TOO_LARGE.message, PAYLOAD_TOO_LARGE.errorCode],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timeout', 'REQUEST_TIMEOUT'],
};
const MALFORMED: Refusal = [MALFORMED_REQUEST.statusCode, 'Bad Request', MALFORMED_REQUEST.message, MALFORMED_REQUEST.errorCode];

export function createGatewayServer(listener: RequestListener): Server {
  const server = createServer(listener);
  // A keep-alive connection is closed by its client, never under a request the client has just
  // sent: idle connections outlive the client's own keep-alive (undici's 4 s, a load balancer's
  // 60 s), since a server closing first races the client's next request into an ECONNRESET
  // (seen in CI under load). Headers must outlast it (Node's rule).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // As Node's own default handler does: write only when no response is under way on this connection, else it would corrupt it.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, message, errorCode] = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({ success: false, message, responseObject: null, statusCode: status, errorCode } satisfies Envelope);
    const head = [`HTTP/1.1 ${status} ${reason}`, `Content-Type: ${JSON_CONTENT_TYPE}`, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
    // An answer to HEAD has no body (RFC 9110 §9.3.2): a client reading one takes the bytes after the head for garbage.
    const answer = isHead(error) ? '' : body;
    socket.end(`${head.join('\r\n')}\r\n\r\n${answer}`, () => socket.destroy());
  });
  return server;
}

/**
 * Whether the refused request was a HEAD, as far as the bytes the parser refused show:
 * the packet it failed in holds the request line whenever the line itself overflowed.
 */
function isHead(error: NodeJS.ErrnoException): boolean {
  const packet = (error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket;
  return packet !== undefined && packet.subarray(0, 5).toString('latin1') === 'HEAD ';
}

/** Starts `server` listening and resolves with its URL (an IPv6 host in brackets); a failure to bind rejects. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port: bound } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${bound}`;
}
