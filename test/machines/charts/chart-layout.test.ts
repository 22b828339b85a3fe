import test from 'ava';
import { chartedMachines } from '../../../gateway/engineers/chart-registry.js';
import { chartDefinition, layoutChart, type Box, type LaidOutChart, type LaidOutState } from '../../../machines/charts/index.js';
import { LINE_HEIGHT, TITLE_HEIGHT } from '../../../machines/charts/chart-style.js';

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const contains = (outer: Box, inner: Box) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

/** What of a state no label may cover: a leaf's whole box, a compound state's name and lists. */
function solid(state: LaidOutState): Box {
  if (state.type !== 'compound' && state.type !== 'parallel') return state;
  return { x: state.x, y: state.y, width: state.width, height: TITLE_HEIGHT + state.lines.length * LINE_HEIGHT };
}

function readabilityProblems(chart: LaidOutChart): string[] {
  const problems: string[] = [];
  const byId = new Map(chart.states.map((state) => [state.id, state]));
  for (const state of chart.states) {
    const parentId = state.id.slice(0, state.id.lastIndexOf('.'));
    const parent = byId.get(parentId);
    if (state.depth > 0 && (!parent || !contains(parent, state))) problems.push(`${state.id} lies outside ${parentId}`);
    for (const other of chart.states) {
      if (other.id > state.id && other.depth === state.depth && other.id.slice(0, other.id.lastIndexOf('.')) === parentId && overlap(state, other))
        problems.push(`${state.id} overlaps ${other.id}`);
    }
  }
  for (const edge of chart.edges) {
    if (!edge.label) continue;
    for (const state of chart.states) if (overlap(edge.label, solid(state))) problems.push(`the label of ${edge.id} covers ${state.id}`);
    for (const other of chart.edges)
      if (other.id > edge.id && other.label && overlap(edge.label, other.label)) problems.push(`the labels of ${edge.id} and ${other.id} overlap`);
  }
  return problems;
}

test('every machine’s layout keeps states apart, inside their parents, and labels off them and off each other', async (t) => {
  for (const { name, machine } of await chartedMachines()) {
    const chart = await layoutChart(chartDefinition(machine));
    t.true(
      chart.edges.every((edge) => edge.points.length >= 2),
      `${name}: every edge is routed`,
    );
    t.deepEqual(readabilityProblems(chart), [], name);
  }
});

test('the same machine is laid out the same, to the coordinate', async (t) => {
  const payment = (await chartedMachines()).find((entry) => entry.name === 'payment')!;
  t.deepEqual(await layoutChart(chartDefinition(payment.machine)), await layoutChart(chartDefinition(payment.machine)));
});
