import { readFileSync } from 'node:fs';

const PALETTE = readFileSync(new URL('./palette.css', import.meta.url), 'utf8');

/** A hosted page's stylesheet: the colours and font the hosted pages share (palette.css), then the page's own `files` in order. */
export function pageStyle(...files: string[]): string {
  return PALETTE + files.map((file) => readFileSync(new URL(file, import.meta.url), 'utf8')).join('');
}
