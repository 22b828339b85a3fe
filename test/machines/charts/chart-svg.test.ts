import test from 'ava';
import { escapeXml, renderChart, type ChartDefinition, type ChartState } from '../../../machines/charts/index.js';

const state = (id: string, key: string, extra: Partial<ChartState> = {}): ChartState => ({
  id,
  key,
  type: 'atomic',
  entry: [],
  exit: [],
  transitions: [],
  states: [],
  ...extra,
});

/** Names a machine could carry that mean something in XML. */
const hostile: ChartDefinition = {
  name: 'hostile',
  root: state('m', 'm', {
    type: 'compound',
    initial: 'm.a',
    states: [
      state('m.a', '<script>alert(1)</script>', {
        entry: [{ type: 'tell', kind: 'effect', params: { to: '"x" & \'y\'' } }],
        transitions: [{ event: 'A&B</text>', guard: 'x < y && y > z', actions: [], targets: ['m.b'] }],
      }),
      state('m.b', 'B"onload="alert(2)', { type: 'final' }),
    ],
  }),
};

test('escapeXml escapes the five characters XML gives meaning to, and nothing else', (t) => {
  t.is(escapeXml(`<a href="x">&'</a>`), '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
  t.is(escapeXml('PAYMENT_SETTLED [fulfilled] / emit announce(SETTLED)'), 'PAYMENT_SETTLED [fulfilled] / emit announce(SETTLED)');
});

test('text from the machine is escaped wherever it is drawn: names, events, guards, params, ids', async (t) => {
  const svg = await renderChart(hostile);
  t.false(svg.includes('<script'), 'no element made from a state name');
  t.false(svg.includes('A&B'));
  t.false(svg.includes('"onload'), 'no attribute made from a state name');
  for (const escaped of [
    '&lt;script&gt;alert(1)&lt;/script&gt;',
    'A&amp;B&lt;/text&gt;',
    '[x &lt; y &amp;&amp; y &gt; z]',
    'entry / tell(&quot;x&quot; &amp; &apos;y&apos;)',
    'B&quot;onload=&quot;alert(2)',
  ]) {
    t.true(svg.includes(escaped), escaped);
  }
  // Every element opened is one the drawing writes.
  const drawn = new Set(['circle', 'defs', 'g', 'line', 'marker', 'path', 'rect', 'svg', 'text', 'title']);
  for (const [, element] of svg.matchAll(/<([^\s>/!?]+)/g)) t.true(drawn.has(element!), element);
});

test('states named active carry the class active and a highlight; no other does', async (t) => {
  const plain = await renderChart(hostile);
  t.false(plain.includes('active'));
  const svg = await renderChart(hostile, { active: ['m', 'm.a'] });
  const active = [...svg.matchAll(/<g class="([^"]*)" data-state-id="([^"]+)">/g)]
    .filter((match) => match[1]!.split(' ').includes('active'))
    .map((match) => match[2]);
  t.deepEqual(active, ['m', 'm.a']);
  t.regex(svg, /data-state-id="m\.a"><rect [^>]*stroke="#d97706" stroke-width="3"/);
  t.regex(svg, /data-state-id="m\.b"><rect [^>]*stroke-width="1\.2"/);
});
