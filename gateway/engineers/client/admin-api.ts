/** Calls of the node's admin API with the admin token as a bearer, unwrapped from the envelope; a failure's message is the envelope's. */

/** The node refused the token: it is missing, wrong, or the node was restarted with another. */
export class TokenRefusedError extends Error {
  override readonly name = 'TokenRefusedError';
}

export class AdminApiError extends Error {
  override readonly name = 'AdminApiError';
}

export async function adminGet<T>(path: string, token: string): Promise<T> {
  return unwrapped<T>(path, await fetch(path, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' }));
}

export async function adminPost<T>(path: string, body: unknown, token: string): Promise<T> {
  return unwrapped<T>(
    path,
    await fetch(path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  );
}

async function unwrapped<T>(path: string, response: Response): Promise<T> {
  const body = (await response.json()) as { success: boolean; message: string; responseObject: T };
  if (response.status === 401) throw new TokenRefusedError(body.message);
  if (!body.success) throw new AdminApiError(`${response.status} ${body.message}`);
  return body.responseObject;
}
