/** The `{NAME}` placeholders of a request template: which params it names, and the text with them filled in. */
import type { RequestTemplate } from './definition.js';

const PLACEHOLDER = /\{([A-Z][A-Z0-9_]*)\}/g;

/** Every param a request names, in its path or its form body, once each. */
export function placeholdersOf(request: RequestTemplate): string[] {
  const texts = [request.path, ...(request.body && 'form' in request.body ? Object.values(request.body.form) : [])];
  return [...new Set(texts.flatMap((text) => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!)))];
}

/** `text` with each placeholder replaced by `encode` of its value; a placeholder without a value throws, as a schema should have refused the params. */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>, encode: (value: string) => string = (value) => value): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}}`);
    return encode(value);
  });
}
