import { readFileSync } from 'node:fs';

const PALETTE = readFileSync(new URL('./palette.css', import.meta.url), 'utf8');

/** A hosted page's stylesheet: the colours and font the checkout and landing pages share (palette.css), then the page's own `file`. */
export function pageStyle(file: string): string {
  return PALETTE + readFileSync(new URL(file, import.meta.url), 'utf8');
}
