/**
 * deploy/: entry points. `main.ts` is `npm start` (one node, configured by the
 * environment); `node.ts` builds a node for it and for tests that run several.
 */
export { startNode, type NodeOptions, type PlatformNode } from './node.js';
