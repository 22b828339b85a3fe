/**
 * GET /docs: an HTML shell in which Redoc renders the OpenAPI document in the browser.
 * The bundle auto-starts on the `<redoc spec-url>` element, so the page has no inline
 * script, and everything it loads comes from the node itself.
 */

/**
 * Only what Redoc needs, and only from this origin: its bundle, the document it
 * fetches, inline styles (styled-components writes `<style>` elements at run time),
 * data: images (icons in its CSS) and a blob: worker (its search index).
 */
export const REFERENCE_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function referencePage(options: { title: string; specUrl: string; bundleUrl: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0}</style>
</head><body>
<redoc spec-url="${escapeHtml(options.specUrl)}"></redoc>
<script src="${escapeHtml(options.bundleUrl)}"></script>
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
