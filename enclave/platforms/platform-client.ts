/**
 * Asks a payment platform over HTTPS with the buyer's session, from inside the enclave.
 * Redirects are refused (they would carry the buyer's cookie to another host), every
 * call has a deadline, and failures are told apart without quoting what was sent.
 */
import { PLATFORMS } from '../../machines/platforms/index.js';
import { AttestationError } from '../errors.js';
import type { PlatformRequest } from './platform.js';

/** Where each platform's web API answers in production (its definition's apiBaseUrl). The embedded default and the tests point every platform at the simulator instead. */
export const PLATFORM_HOSTS: Readonly<Record<string, string>> = Object.fromEntries(PLATFORMS.map((platform) => [platform.id, platform.apiBaseUrl]));

export interface PlatformClientOptions {
  /** The base URL of a platform's API; default PLATFORM_HOSTS. */
  baseUrl?: (platform: string) => string;
  timeoutMs?: number;
}

export type PlatformClient = (platform: string, request: PlatformRequest) => Promise<unknown>;

export function platformClient(options: PlatformClientOptions = {}): PlatformClient {
  const baseUrl = options.baseUrl ?? ((platform) => PLATFORM_HOSTS[platform]!);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (platform, request) => {
    let response: Response;
    try {
      response = await fetch(`${baseUrl(platform)}${request.path}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new AttestationError('PLATFORM_UNAVAILABLE', 502, `${platform} did not answer within ${timeoutMs} ms`);
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new AttestationError('SESSION_REJECTED', 422, `${platform} refused the session material (HTTP ${response.status}); it may have expired`);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new AttestationError('PAYMENT_NOT_FOUND', 422, `${platform} has no such record for this session`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new AttestationError('PLATFORM_UNAVAILABLE', 502, `${platform} answered HTTP ${response.status}`);
    }
    try {
      return await response.json();
    } catch {
      throw new AttestationError('PLATFORM_RESPONSE_INVALID', 502, `${platform} answered with something other than JSON`);
    }
  };
}
