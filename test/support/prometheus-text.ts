/**
 * A strict reader of Prometheus' text exposition format 0.0.4, for tests: every sample
 * must belong to a family announced before it with both `# HELP` and `# TYPE`, label
 * values are unescaped, and a histogram's buckets must be cumulative and end in `+Inf`
 * equal to its `_count`. It throws, naming the line, on anything else.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

export function parseExposition(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the text does not end with a line feed');
  const families = new Map<string, Family>();
  const pending = new Map<string, Partial<Family>>();
  for (const [index, line] of text.slice(0, -1).split('\n').entries()) {
    const where = `line ${index + 1}: ${line}`;
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment) {
      const [, keyword, name, rest] = comment as unknown as [string, 'HELP' | 'TYPE', string, string];
      if (families.has(name)) throw new Error(`${where}: ${keyword} after the family's samples or a second time`);
      const family = pending.get(name) ?? { name, samples: [] };
      if (keyword === 'HELP') {
        if (family.help !== undefined) throw new Error(`${where}: a second HELP`);
        family.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      } else {
        if (family.type !== undefined || !TYPES.has(rest)) throw new Error(`${where}: a second or unknown TYPE`);
        family.type = rest as Family['type'];
      }
      pending.set(name, family);
      if (family.help !== undefined && family.type !== undefined) {
        families.set(name, family as Family);
        pending.delete(name);
      }
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`${where}: not a sample`);
    const [, name, labelText = '', valueText] = match as unknown as [string, string, string | undefined, string];
    const family = familyOf(families, name);
    if (!family) throw new Error(`${where}: no family with HELP and TYPE announced for ${name}`);
    family.samples.push({ name, labels: parseLabels(labelText, where), value: parseValue(valueText, where) });
  }
  if (pending.size > 0) throw new Error(`families without both HELP and TYPE: ${[...pending.keys()].join(', ')}`);
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The one sample of `name` whose labels include `labels`; throws when there is none or more than one. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = familyOf(families, name);
  const found = (family?.samples ?? []).filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}

function familyOf(families: Map<string, Family>, name: string): Family | undefined {
  const exact = families.get(name);
  if (exact) return exact;
  for (const [type, suffixes] of Object.entries(SUFFIXES)) {
    for (const suffix of suffixes) {
      if (!name.endsWith(suffix)) continue;
      const family = families.get(name.slice(0, -suffix.length));
      if (family?.type === type) return family;
    }
  }
  return undefined;
}

function parseLabels(text: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const match = LABEL.exec(rest);
    if (!match) throw new Error(`${where}: bad labels at ${rest}`);
    const [whole, key, escaped] = match as unknown as [string, string, string];
    if (key in labels) throw new Error(`${where}: label ${key} twice`);
    labels[key] = escaped.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));
    rest = rest.slice(whole.length);
  }
  return labels;
}

function parseValue(text: string, where: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  // prom-client writes NaN as `Nan`; Prometheus reads it with Go's ParseFloat, which takes any letter case.
  if (/^nan$/i.test(text)) return Number.NaN;
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`${where}: value ${text} is not a number`);
  return value;
}

/** Per label set (without `le`): buckets never decrease, the last is +Inf, and it equals `_count`. */
function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    if (sample.name.endsWith('_bucket')) entry.buckets.push([parseValue(le ?? '', `${family.name} le`), sample.value]);
    if (sample.name.endsWith('_count')) entry.count = sample.value;
    series.set(key, entry);
  }
  for (const [key, { buckets, count }] of series) {
    const sorted = [...buckets].sort(([a], [b]) => a - b);
    if (sorted.at(-1)?.[0] !== Number.POSITIVE_INFINITY) throw new Error(`${family.name} ${key}: no +Inf bucket`);
    sorted.forEach(([, value], i) => {
      if (i > 0 && value < sorted[i - 1]![1]) throw new Error(`${family.name} ${key}: buckets not cumulative`);
    });
    if (sorted.at(-1)![1] !== count) throw new Error(`${family.name} ${key}: +Inf bucket ${sorted.at(-1)![1]} is not _count ${String(count)}`);
  }
}
