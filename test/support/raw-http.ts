/**
 * HTTP requests with the request target sent exactly as written. `fetch` normalises
 * paths (`..`, case of percent-escapes), which would hide what a hostile client can
 * send; node:http writes the path as given.
 */
import { connect } from 'node:net';
import { type Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: any;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: Agent;
}

export function rawRequest(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers, agent: options.agent },
      (res) => {
        const chunks: Buffer[] = [];
        const answer = () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
        };
        // An event stream never ends by itself: its first message (up to a blank line) is the answer, and the connection is dropped.
        const stream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (stream && Buffer.concat(chunks).includes('\n\n')) {
            answer();
            res.destroy();
          }
        });
        res.on('end', answer);
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Writes bytes to a server's port as they are, and reads until the server closes the connection. */
export function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.end(bytes);
  });
}
