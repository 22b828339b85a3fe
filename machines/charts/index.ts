/**
 * machines/charts: state charts drawn from the machines themselves, never by hand. A
 * machine becomes a plain JSON chart graph (chart-definition.ts; what the node serves at
 * /internal/v1/machines), the graph is laid out by ELK (chart-layout.ts) and drawn as SVG
 * (chart-svg.ts). `npm run charts` writes docs/charts/ from every machine the registry
 * (gateway/engineers/chart-registry.ts, which reads machines/'s folder names) finds;
 * the engineers' page runs the same layout and drawing in the browser. All pure.
 */
export * from './chart-graph.js';
export * from './chart-definition.js';
export * from './chart-labels.js';
export * from './chart-layout.js';
export * from './chart-svg.js';
export * from './render-chart.js';
export * from './chart-files.js';
