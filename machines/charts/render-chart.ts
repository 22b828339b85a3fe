/** A chart graph to its SVG in one call: the layout, then the drawing, with the states to highlight. */
import type { ChartDefinition } from './chart-graph.js';
import { layoutChart } from './chart-layout.js';
import { chartSvg, type ChartSvgOptions } from './chart-svg.js';

export async function renderChart(definition: ChartDefinition, options: ChartSvgOptions = {}): Promise<string> {
  return chartSvg(await layoutChart(definition), options);
}
