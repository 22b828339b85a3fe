/** Reads of the node's admin API with the admin token as a bearer, unwrapped from the envelope. */

/** The node refused the token: it is missing, wrong, or the node was restarted with another. */
export class TokenRefusedError extends Error {
  override readonly name = 'TokenRefusedError';
}

export class AdminApiError extends Error {
  override readonly name = 'AdminApiError';
}

export async function adminGet<T>(path: string, token: string): Promise<T> {
  const response = await fetch(path, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
  const body = (await response.json()) as { success: boolean; message: string; responseObject: T };
  if (response.status === 401) throw new TokenRefusedError(body.message);
  if (!body.success) throw new AdminApiError(`${path}: ${response.status} ${body.message}`);
  return body.responseObject;
}
