/**
 * A client of GET /api/v1/events/stream: reads the Server-Sent Events of one connection
 * and hands each event to a callback, one at a time (the next is not read until the
 * callback is done, so events are handled in order). The parsing is the WHATWG
 * event-stream format, reduced to what the node sends: `id`, `event`, `data`, comments
 * and `retry`.
 */
export interface StreamedEvent {
  id: string;
  type: string;
  /** The webhook body, as the node sent it: the exact bytes to sign and forward. */
  data: string;
}

export interface ReadStreamOptions {
  url: string;
  apiKey: string;
  /** Resume after this event. */
  lastEventId?: string;
  /** Only these types. */
  types?: readonly string[];
  signal?: AbortSignal;
  /** Called once the node accepted the stream: every event recorded from then on is sent. */
  onOpen?: () => void;
}

/** The node refused the stream (a wrong key, an unknown Last-Event-ID): its status and envelope. */
export class StreamRefusedError extends Error {
  override readonly name = 'StreamRefusedError';
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Resolves when the node ends the stream; rejects when it refuses it, or the connection fails or is aborted. */
export async function readEventStream(options: ReadStreamOptions, onEvent: (event: StreamedEvent) => Promise<void>): Promise<void> {
  const url = new URL('/api/v1/events/stream', options.url);
  for (const type of options.types ?? []) url.searchParams.append('type', type);
  const headers: Record<string, string> = { 'x-api-key': options.apiKey, accept: 'text/event-stream' };
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(url, { headers, signal: options.signal });
  if (response.status !== 200 || !response.body) {
    const envelope = (await response.json().catch(() => ({}))) as {
      message?: string;
      errorCode?: string;
      responseObject?: { fieldErrors?: Record<string, string[]> } | null;
    };
    const fields = Object.entries(envelope.responseObject?.fieldErrors ?? {}).map(([field, messages]) => `${field}: ${messages.join(', ')}`);
    const message = [envelope.message ?? `the node answered ${response.status}`, ...fields].join('; ');
    throw new StreamRefusedError(response.status, envelope.errorCode, message);
  }
  options.onOpen?.();
  const parser = new EventStreamParser();
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    for (const event of parser.push(decoder.decode(chunk as Uint8Array, { stream: true }))) await onEvent(event);
  }
}

/** Splits text into events: a blank line ends one; lines starting with `:` are comments. */
export class EventStreamParser {
  #buffer = '';
  #id = '';
  #type = '';
  #data: string[] = [];

  push(text: string): StreamedEvent[] {
    this.#buffer += text;
    const events: StreamedEvent[] = [];
    // A CR at the very end may be the first half of a CRLF split between chunks: kept until the next one.
    const held = this.#buffer.endsWith('\r') ? '\r' : '';
    const lines = this.#buffer.slice(0, this.#buffer.length - held.length).split(/\r\n|\r|\n/);
    // The last piece is a line not ended yet (or empty after a final line break).
    this.#buffer = (lines.pop() ?? '') + held;
    for (const line of lines) {
      if (line === '') {
        if (this.#data.length > 0) events.push({ id: this.#id, type: this.#type || 'message', data: this.#data.join('\n') });
        this.#type = '';
        this.#data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') this.#id = value;
      else if (field === 'event') this.#type = value;
      else if (field === 'data') this.#data.push(value);
    }
    return events;
  }
}
