/**
 * The metric names a PromQL expression reads, for tests that hold dashboards and alert
 * rules to what a node exports. Enough of PromQL for our own expressions: strings, label
 * matchers, ranges and grouping clauses are dropped, then every identifier left that is
 * not a function, an aggregation, a keyword or a number is a metric name.
 */

const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'inf', 'nan', 'atan2']);

export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/(?<![\w$.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    const [, name, call] = match as unknown as [string, string, string | undefined];
    if (call || KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names];
}

/** The `expr:` of every rule in a Prometheus rule file, inline or as a folded block (`>-`). */
export function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const exprs: string[] = [];
  for (const [index, line] of lines.entries()) {
    const match = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, indent, rest] = match as unknown as [string, string, string];
    if (!/^[>|]/.test(rest)) {
      exprs.push(rest);
      continue;
    }
    const block: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.search(/\S/) <= indent.length) break;
      block.push(next.trim());
    }
    exprs.push(block.join(' ').trim());
  }
  return exprs;
}
