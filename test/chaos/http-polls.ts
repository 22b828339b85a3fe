/**
 * What the kill tests that drive a node process over HTTP share: a JSON call in the envelope,
 * and bounded waits that name what they waited for and the last value seen.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads until `done`, every 25 ms, for at most `timeoutMs`; the timeout names what was awaited and the last value. */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
  explain: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (done(last)) return last;
    await sleep(25);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${JSON.stringify(last)}${explain()}`);
}

export function within<T>(what: string, promise: Promise<T>, timeoutMs: number, explain: () => string = () => ''): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${explain()}`)), timeoutMs)),
    ),
  ]);
}

export interface Answer {
  status: number;
  body: { success: boolean; responseObject: any; errorCode?: string };
}

export async function call(url: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const response = await fetch(url + path, {
    method,
    headers: { ...options.headers, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** The answer's responseObject when it has `status`; otherwise a failure naming what was asked and what came back. */
export function ok(answer: Answer, status: number, what: string): any {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject;
}
