/**
 * Draws a machine's chart graph into a container, laid out here in the browser by the same
 * code that draws docs/charts/. `active` names the states to highlight: an inspector
 * passes an actor's current state and its ancestors. A definition is laid out once: moving
 * through an actor's history only changes the highlight, so it is drawn again from the
 * layout kept for it. Its heading carries the zoom and fit controls (chart-zoom.ts).
 */
import type { ChartDefinition } from '../../../machines/charts/chart-graph.js';
import { layoutChart, type LaidOutChart } from '../../../machines/charts/chart-layout.js';
import { chartSvg } from '../../../machines/charts/chart-svg.js';
import { zoomControls } from './chart-zoom.js';
import { element } from './dom.js';

/** Each definition's layout, for as long as the definition is held (the page keeps one per machine). */
const layouts = new WeakMap<ChartDefinition, Promise<LaidOutChart>>();

export async function showChart(container: HTMLElement, definition: ChartDefinition, active: Iterable<string> = []): Promise<void> {
  const svg = chartSvg(await layoutOf(definition), { active });
  const heading = document.createElement('h2');
  heading.textContent = definition.name;
  // The drawing escapes every text it takes from the definition (machines/charts/chart-svg.ts).
  const drawing = document.createElement('div');
  drawing.className = 'drawing';
  drawing.innerHTML = svg;
  container.replaceChildren(element('div', 'chart-head', heading, zoomControls(container, drawing)), drawing);
}

function layoutOf(definition: ChartDefinition): Promise<LaidOutChart> {
  let layout = layouts.get(definition);
  if (!layout) {
    layout = layoutChart(definition);
    // A layout that failed is tried again next time rather than kept.
    layout.catch(() => layouts.delete(definition));
    layouts.set(definition, layout);
  }
  return layout;
}
