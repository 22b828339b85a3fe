/**
 * A readable reference page rendered from the OpenAPI document on the server: plain
 * HTML and CSS, no scripts and nothing fetched from elsewhere, so it works offline
 * and cannot drift from /api/v1/openapi.json.
 */
type Json = Record<string, unknown>;

export function renderReference(document: Json): string {
  const info = document.info as { title: string; version: string; description?: string };
  const paths = document.paths as Record<string, Record<string, Json>>;
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => renderOperation(method, path, operation)),
  );
  const components = Object.entries(schemas).map(
    ([name, schema]) => `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3><pre>${escape(JSON.stringify(schema, null, 2))}</pre></section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)} ${escape(info.version)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:2rem;color:#1d2330}
h1{margin-bottom:.2rem}h2{margin-top:2.5rem;border-bottom:1px solid #d8dce4;padding-bottom:.3rem}
.op{border:1px solid #d8dce4;border-radius:8px;margin:1.2rem 0;padding:1rem 1.2rem}
.method{display:inline-block;min-width:4.2rem;font-weight:700;text-transform:uppercase}
.get{color:#0b7a3e}.post{color:#1357c5}.patch{color:#9a5b00}.delete{color:#b3261e}
code,pre{font:13px/1.45 ui-monospace,monospace;background:#f4f6f9;border-radius:4px}
pre{padding:.8rem;overflow-x:auto}table{border-collapse:collapse}td,th{padding:.2rem .8rem .2rem 0;text-align:left;vertical-align:top}
</style></head><body>
<h1>${escape(info.title)}</h1><p>Version ${escape(info.version)}. ${escape(info.description ?? '')}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).</p>
<h2>Endpoints</h2>${operations.join('\n')}
<h2>Schemas</h2>${components.join('\n')}
</body></html>`;
}

function renderOperation(method: string, path: string, operation: Json): string {
  const parameters = (operation.parameters ?? []) as Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
  const body = ((operation.requestBody as Json | undefined)?.content as Record<string, { schema: unknown }> | undefined)?.['application/json']?.schema;
  const responses = Object.entries((operation.responses ?? {}) as Record<string, { description: string }>);
  const security = (operation.security as unknown[] | undefined)?.length ? '<p>Needs authentication.</p>' : '<p>No authentication.</p>';
  return `<div class="op"><div><span class="method ${escape(method)}">${escape(method)}</span><code>${escape(path)}</code></div>
<p><strong>${escape(String(operation.summary ?? ''))}</strong> ${escape(String(operation.description ?? ''))}</p>${security}
${parameters.length ? `<table><tr><th>parameter</th><th>in</th><th>required</th></tr>${parameters.map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td></tr>`).join('')}</table>` : ''}
${body ? `<p>Request body:</p><pre>${escape(JSON.stringify(body, null, 2))}</pre>` : ''}
<table><tr><th>status</th><th>meaning</th></tr>${responses.map(([status, response]) => `<tr><td>${escape(status)}</td><td>${escape(response.description)}</td></tr>`).join('')}</table></div>`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
