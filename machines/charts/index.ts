/**
 * machines/charts: state charts drawn from the machines themselves, never by hand. A
 * machine becomes a plain JSON chart graph (chart-definition.ts; what the node serves at
 * /internal/v1/machines), the graph is laid out by ELK (chart-layout.ts) and drawn as SVG
 * (chart-svg.ts). `npm run charts` writes docs/charts/ from every machine the registry
 * (gateway/engineers/chart-registry.ts, which reads machines/'s folder names) finds;
 * the engineers' page runs the same layout and drawing in the browser. All pure.
 */
export { chartStates } from './chart-graph.js';
export type { ChartAction, ChartActionKind, ChartDefinition, ChartDelay, ChartState, ChartStateType, ChartTransition, JsonPrimitive } from './chart-graph.js';
export { chartDefinition, chartName } from './chart-definition.js';
export { actionLabel, stateLines, transitionLines, withParams } from './chart-labels.js';
export type { LabelLine, LineKind } from './chart-labels.js';
export { layoutChart, round } from './chart-layout.js';
export type { Box, LaidOutChart, LaidOutEdge, LaidOutState, Point } from './chart-layout.js';
export { chartSvg, escapeXml } from './chart-svg.js';
export type { ChartSvgOptions } from './chart-svg.js';
export { renderChart } from './render-chart.js';
export { chartFiles, CHARTS_INDEX } from './chart-files.js';
export type { ChartedMachine } from './chart-files.js';
