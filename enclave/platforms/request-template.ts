/**
 * The request a definition's template describes, made with session material and params
 * the adapter's schemas have already checked: the enclave asks the platform exactly
 * what the provider template shows a client.
 */
import { fillPlaceholders, type RequestTemplate } from '../../machines/platforms/index.js';
import type { PlatformRequest } from './platform.js';

export function platformRequest(template: RequestTemplate, session: object, params: Readonly<Record<string, string>>): PlatformRequest {
  const field = (name: string) => (session as Record<string, unknown>)[name];
  const headers: Record<string, string> = { ...((template.headersFrom ? field(template.headersFrom) : undefined) as Record<string, string> | undefined) };
  for (const header of template.headers) headers[header.name] = 'session' in header ? String(field(header.session)) : header.value;
  const request: PlatformRequest = { method: template.method, path: fillPlaceholders(template.path, params, encodeURIComponent), headers };
  if (template.body && 'form' in template.body) {
    const form = Object.entries(template.body.form).map(([name, value]): [string, string] => [name, fillPlaceholders(value, params)]);
    request.body = new URLSearchParams(form).toString();
  } else if (template.body) {
    request.body = JSON.stringify(field(template.body.json));
  }
  return request;
}

/** An adapter's `paymentRequest` (or identity `request`) from its template. */
export function requestFrom<S extends object>(template: RequestTemplate): (session: S, params: Readonly<Record<string, string>>) => PlatformRequest {
  return (session, params) => platformRequest(template, session, params);
}
