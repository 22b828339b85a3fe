/**
 * docs/operations.md is where every alert's `runbook` annotation sends the person paged,
 * so each alert of deploy/observability/alerts.yml must have its heading there, under the
 * anchor the annotation names; and the guide's own links and the files it names must
 * exist, or it sends an operator nowhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const markdown = readFileSync(`${ROOT}docs/operations.md`, 'utf8').replace(/\r\n/g, '\n');
/** The text outside fenced code blocks: a `#` line inside a shell block is no heading. */
const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '');

interface Rule {
  alert?: string;
  annotations?: { runbook?: string };
}
const alerts = (parse(readFileSync(`${ROOT}deploy/observability/alerts.yml`, 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups
  .flatMap((group) => group.rules)
  .filter((rule): rule is Rule & { alert: string } => typeof rule.alert === 'string');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const headings = [...prose.matchAll(/^(#{1,6}) (.+)$/gm)].map(([, hashes, text]) => ({ level: hashes!.length, text: text!.trim() }));
const anchors = new Set(headings.map((heading) => anchorOf(heading.text)));

test('every alert has a level-3 heading named as the alert, at the anchor its runbook names', (t) => {
  t.true(alerts.length >= 17, `only ${alerts.length} alerts read from alerts.yml`);
  for (const { alert, annotations } of alerts) {
    t.is(annotations?.runbook, `docs/operations.md#${alert.toLowerCase()}`, alert);
    t.true(
      headings.some((heading) => heading.level === 3 && heading.text === alert),
      `no "### ${alert}" heading`,
    );
    t.true(anchors.has(alert.toLowerCase()), `no heading has the anchor #${alert.toLowerCase()}`);
  }
});

test('headings have distinct anchors, so no alert anchor lands on another heading', (t) => {
  const seen = headings.map((heading) => anchorOf(heading.text));
  t.deepEqual(
    seen.filter((anchor, index) => seen.indexOf(anchor) !== index),
    [],
  );
});

test('every link inside the guide reaches one of its headings', (t) => {
  const links = [...prose.matchAll(/\]\(#([^)]+)\)/g)].map(([, anchor]) => anchor!);
  t.true(links.length > 0);
  for (const anchor of links) t.true(anchors.has(anchor), `#${anchor}`);
});

test('every repository path the guide names exists', (t) => {
  const paths = [...prose.matchAll(/`((?:actors|deploy|docs|gateway|indexer|enclave|machines|test)\/[A-Za-z0-9_./-]*)`/g)].map(([, path]) => path!);
  t.true(paths.length > 10);
  for (const path of new Set(paths)) t.true(existsSync(`${ROOT}${path}`), path);
});
