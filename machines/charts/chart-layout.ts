/**
 * Lays a chart graph out with ELK's layered algorithm: every state a box (a compound or
 * parallel state a box around its children, with its own name and lists in a header), an
 * initial marker in each compound state, and one edge per transition target, labelled.
 * Edges are routed orthogonally across the hierarchy, and ELK places each label as a
 * node of its own, so no label lies over a state. The result is in absolute coordinates,
 * rounded, and depends on nothing but the chart graph: the same machine gives the same
 * layout in Node and in a browser.
 */
import ElkModule from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkLabel, ElkNode } from 'elkjs/lib/elk-api.js';
import type { ChartDefinition, ChartState, ChartStateType } from './chart-graph.js';
import { stateLines, transitionLines, type LabelLine } from './chart-labels.js';
import { CHAR_WIDTH, INITIAL_SIZE, LINE_HEIGHT, MARGIN, PAD_X, PAD_Y, TITLE_HEIGHT, textWidth } from './chart-style.js';

export interface Point {
  x: number;
  y: number;
}

export interface Box extends Point {
  width: number;
  height: number;
}

export interface LaidOutState extends Box {
  id: string;
  key: string;
  type: ChartStateType;
  /** 0 for the machine itself. */
  depth: number;
  /** Entry and exit actions and the events taken without leaving, listed under the name. */
  lines: LabelLine[];
}

export interface LaidOutEdge {
  id: string;
  source: string;
  target: string;
  /** The route from the source's border to the target's, through its bends. */
  points: Point[];
  label: (Box & { lines: LabelLine[] }) | null;
  /** The edge from a compound state's initial marker to the child entered first. */
  initial: boolean;
}

export interface LaidOutChart {
  name: string;
  width: number;
  height: number;
  /** Parents before their children: the order they are drawn in. */
  states: LaidOutState[];
  initials: Box[];
  edges: LaidOutEdge[];
}

// The bundled build runs ELK in the calling thread: no worker file to serve, in Node or a browser.
// It is CommonJS whose constructor is also its own `default`, which is how every loader sees it.
const Elk = ElkModule.default;

const GRAPH = '#chart';
const INITIAL = '#initial';

const LAYOUT: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.spacing.nodeNodeBetweenLayers': '36',
  'elk.layered.spacing.edgeNodeBetweenLayers': '16',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '10',
  'elk.spacing.nodeNode': '28',
  'elk.spacing.edgeNode': '14',
  'elk.spacing.edgeEdge': '10',
  'elk.spacing.edgeLabel': '4',
  'elk.spacing.labelNode': '6',
  // Absolute coordinates for every shape and edge, whatever holds them.
  'elk.json.shapeCoords': 'ROOT',
  'elk.json.edgeCoords': 'ROOT',
};

/** A label sits on its edge, the line passing under it, so that no label can be read as another edge's. */
const LABEL: Record<string, string> = { 'elk.edgeLabels.placement': 'CENTER', 'elk.edgeLabels.inline': 'true' };

export async function layoutChart(definition: ChartDefinition): Promise<LaidOutChart> {
  const { graph, labels, lines } = elkGraph(definition);
  const laid = await new Elk().layout(graph);
  return readLayout(definition, laid, labels, lines);
}

/**
 * The chart graph as ELK's input: nodes sized from their text, and one edge per pair of
 * states a transition joins (several transitions between the same two states share an
 * edge, their labels one under the other), held by the lowest state holding both ends.
 * `labels` are each edge's lines by edge id, `lines` each state's by state id: the text
 * the boxes were sized for is the text drawn in them.
 */
function elkGraph(definition: ChartDefinition): { graph: ElkNode; labels: Map<string, LabelLine[]>; lines: Map<string, LabelLine[]> } {
  const parents = new Map<string, string>();
  const nodes = new Map<string, ElkNode>();
  const graph: ElkNode = {
    id: GRAPH,
    layoutOptions: { ...LAYOUT, 'elk.padding': `[top=${MARGIN},left=${MARGIN},bottom=${MARGIN},right=${MARGIN}]` },
    children: [],
    edges: [],
  };
  nodes.set(GRAPH, graph);
  const lines = new Map<string, LabelLine[]>();
  const add = (state: ChartState, parent: ElkNode) => {
    const text = stateLines(state);
    lines.set(state.id, text);
    const node = stateNode(state, text);
    parent.children!.push(node);
    parents.set(state.id, parent.id);
    nodes.set(state.id, node);
    if (state.initial) {
      node.children!.push({ id: state.id + INITIAL, width: INITIAL_SIZE, height: INITIAL_SIZE });
      parents.set(state.id + INITIAL, state.id);
      node.edges!.push({ id: `${state.id + INITIAL}->${state.initial}`, sources: [state.id + INITIAL], targets: [state.initial] });
    }
    for (const child of state.states) add(child, node);
  };
  add(definition.root, graph);

  const labels = new Map<string, LabelLine[]>();
  const ends = new Map<string, [source: string, target: string]>();
  const join = (state: ChartState) => {
    for (const transition of state.transitions) {
      for (const target of transition.targets) {
        const id = `${state.id}->${target}`;
        labels.set(id, [...(labels.get(id) ?? []), ...transitionLines(transition)]);
        ends.set(id, [state.id, target]);
      }
    }
    state.states.forEach(join);
  };
  join(definition.root);
  for (const [id, [source, target]] of ends) {
    nodes.get(commonHolder(source, target, parents))!.edges!.push({ id, sources: [source], targets: [target], labels: [edgeLabel(labels.get(id)!)] });
  }
  return { graph, labels, lines };
}

function stateNode(state: ChartState, lines: LabelLine[]): ElkNode {
  const width = Math.ceil(Math.max(80, textWidth(state.key) + 2 * PAD_X, ...lines.map((line) => textWidth(line.text) + 2 * PAD_X)));
  const header = TITLE_HEIGHT + (lines.length > 0 ? lines.length * LINE_HEIGHT + PAD_Y : 0);
  if (state.states.length === 0) return { id: state.id, width, height: Math.max(36, header) };
  return {
    id: state.id,
    children: [],
    edges: [],
    layoutOptions: {
      'elk.padding': `[top=${header + 10},left=16,bottom=16,right=16]`,
      // The header is drawn, not laid out: the box must be at least as wide as its text.
      'elk.nodeSize.constraints': 'MINIMUM_SIZE',
      'elk.nodeSize.minimum': `(${width}, ${header + 30})`,
    },
  };
}

function edgeLabel(lines: LabelLine[]): ElkLabel {
  const width = Math.ceil(Math.max(...lines.map((line) => line.text.length)) * CHAR_WIDTH + 6);
  return { text: lines.map((line) => line.text).join('\n'), width, height: lines.length * LINE_HEIGHT + 2, layoutOptions: LABEL };
}

/** The deepest node that holds both ends without being either: ELK routes an edge inside the node that holds it. */
function commonHolder(source: string, target: string, parents: Map<string, string>): string {
  const ancestors = (id: string) => {
    const chain: string[] = [];
    for (let at = parents.get(id); at !== undefined; at = parents.get(at)) chain.push(at);
    return chain;
  };
  const targetAncestors = new Set(ancestors(target));
  return ancestors(source).find((id) => targetAncestors.has(id) && id !== source && id !== target) ?? GRAPH;
}

function readLayout(definition: ChartDefinition, laid: ElkNode, labels: Map<string, LabelLine[]>, lines: Map<string, LabelLine[]>): LaidOutChart {
  const definitions = new Map<string, { state: ChartState; depth: number }>();
  const index = (state: ChartState, depth: number) => {
    definitions.set(state.id, { state, depth });
    state.states.forEach((child) => index(child, depth + 1));
  };
  index(definition.root, 0);

  const states: LaidOutState[] = [];
  const initials: Box[] = [];
  const edges: LaidOutEdge[] = [];
  const visit = (node: ElkNode) => {
    const known = definitions.get(node.id);
    if (known) states.push({ id: known.state.id, key: known.state.key, type: known.state.type, depth: known.depth, lines: lines.get(node.id)!, ...box(node) });
    else if (node.id.endsWith(INITIAL)) initials.push(box(node));
    for (const edge of node.edges ?? []) edges.push(edgeOf(edge, labels));
    for (const child of node.children ?? []) visit(child);
  };
  visit(laid);
  return { name: definition.name, width: round(laid.width ?? 0), height: round(laid.height ?? 0), states, initials, edges };
}

function edgeOf(edge: ElkExtendedEdge, labels: Map<string, LabelLine[]>): LaidOutEdge {
  const points = (edge.sections ?? []).flatMap((section) => [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]).map(point);
  const label = edge.labels?.[0];
  const lines = labels.get(edge.id);
  return {
    id: edge.id,
    source: edge.sources[0]!,
    target: edge.targets[0]!,
    points,
    label: label && lines ? { ...box(label), lines } : null,
    initial: edge.sources[0]!.endsWith(INITIAL),
  };
}

function box(shape: { x?: number; y?: number; width?: number; height?: number }): Box {
  return { x: round(shape.x ?? 0), y: round(shape.y ?? 0), width: round(shape.width ?? 0), height: round(shape.height ?? 0) };
}

function point(at: Point): Point {
  return { x: round(at.x), y: round(at.y) };
}

/** To a tenth; exported so that the drawing rounds its sums of coordinates the same way. */
export function round(value: number): number {
  return Math.round(value * 10) / 10;
}
