/**
 * Draws a laid-out chart as one standalone SVG string: styled with presentation attributes
 * only (no <style>, no script), so that it reads the same as a file, in an <img>, or put in
 * a page whose Content-Security-Policy forbids inline styles. Every piece of text from the
 * machine is escaped. States named in `active` carry the class `active` and are drawn
 * highlighted: how an inspector shows where an actor stands.
 */
import { round, type LaidOutChart, type LaidOutEdge, type LaidOutState, type Point } from './chart-layout.js';
import type { LineKind } from './chart-labels.js';
import { FONT_FAMILY, FONT_SIZE, LINE_HEIGHT, PAD_X, TITLE_HEIGHT } from './chart-style.js';

export interface ChartSvgOptions {
  /** Ids of the states to highlight (an actor's current state and its ancestors). */
  active?: Iterable<string>;
}

const INK = '#0f172a';
const EDGE = '#64748b';
const LINE_COLOURS: Record<LineKind, string> = { trigger: '#334155', guard: '#92400e', action: '#1d4ed8' };

export function chartSvg(chart: LaidOutChart, options: ChartSvgOptions = {}): string {
  const active = new Set(options.active ?? []);
  const ids = { title: `chart-${chart.name}-title`, arrow: `chart-${chart.name}-arrow` };
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="state-chart" width="${chart.width}" height="${chart.height}" viewBox="0 0 ${chart.width} ${chart.height}" font-family="${escapeXml(FONT_FAMILY)}" font-size="${FONT_SIZE}" role="img" aria-labelledby="${escapeXml(ids.title)}">`,
    `<title id="${escapeXml(ids.title)}">${escapeXml(chart.name)} state chart</title>`,
    `<defs><marker id="${escapeXml(ids.arrow)}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="${EDGE}"/></marker></defs>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...chart.states.map((state) => stateSvg(state, active.has(state.id))),
    ...chart.initials.map(
      (marker) =>
        `<circle class="initial" cx="${n(marker.x + marker.width / 2)}" cy="${n(marker.y + marker.height / 2)}" r="${n(marker.width / 2)}" fill="${INK}"/>`,
    ),
    ...chart.edges.map((edge) => edgeSvg(edge, ids.arrow)),
    ...chart.edges.map(labelSvg),
    '</svg>',
    '',
  ].join('\n');
}

function stateSvg(state: LaidOutState, active: boolean): string {
  const classes = ['state', `state-${state.type}`, ...(active ? ['active'] : [])].join(' ');
  const compound = state.type === 'compound' || state.type === 'parallel';
  // An active compound state (an ancestor of the actor's state) is outlined only, so that the fill marks the one state it is in.
  const fill = compound ? (state.depth % 2 === 0 ? '#f8fafc' : '#eef2f7') : active ? '#fef3c7' : '#ffffff';
  const stroke = active ? '#d97706' : state.type === 'final' ? INK : '#64748b';
  const parts = [
    `<g class="${classes}" data-state-id="${escapeXml(state.id)}">`,
    `<rect x="${state.x}" y="${state.y}" width="${state.width}" height="${state.height}" rx="6" fill="${fill}" stroke="${stroke}" stroke-width="${active ? 3 : 1.2}"${state.type === 'parallel' ? ' stroke-dasharray="6 3"' : ''}/>`,
  ];
  // A final state is drawn with a double border, as in UML and xstate's own diagrams.
  if (state.type === 'final')
    parts.push(
      `<rect x="${n(state.x + 3)}" y="${n(state.y + 3)}" width="${n(state.width - 6)}" height="${n(state.height - 6)}" rx="4" fill="none" stroke="${stroke}"/>`,
    );
  parts.push(`<text x="${n(state.x + PAD_X)}" y="${n(state.y + 16)}" font-weight="bold" fill="${INK}">${escapeXml(state.key)}</text>`);
  state.lines.forEach((line, index) => {
    parts.push(
      `<text class="line line-${line.kind}" x="${n(state.x + PAD_X)}" y="${n(state.y + TITLE_HEIGHT + 10 + index * LINE_HEIGHT)}" fill="${LINE_COLOURS[line.kind]}" xml:space="preserve">${escapeXml(line.text)}</text>`,
    );
  });
  if (compound && state.lines.length > 0) {
    const below = n(state.y + TITLE_HEIGHT + state.lines.length * LINE_HEIGHT + 6);
    parts.push(`<line x1="${state.x}" y1="${below}" x2="${n(state.x + state.width)}" y2="${below}" stroke="${stroke}" stroke-width="0.6"/>`);
  }
  parts.push('</g>');
  return parts.join('');
}

function edgeSvg(edge: LaidOutEdge, arrow: string): string {
  const classes = edge.initial ? 'transition initial-transition' : 'transition';
  return `<path class="${classes}" data-source="${escapeXml(edge.source)}" data-target="${escapeXml(edge.target)}" d="${pathOf(edge.points)}" fill="none" stroke="${edge.initial ? INK : EDGE}" stroke-width="1.2" marker-end="url(#${escapeXml(arrow)})"/>`;
}

function labelSvg(edge: LaidOutEdge): string {
  const label = edge.label;
  if (!label) return '';
  const lines = label.lines.map(
    (line, index) =>
      `<text class="line line-${line.kind}" x="${n(label.x + 3)}" y="${n(label.y + 12 + index * LINE_HEIGHT)}" fill="${LINE_COLOURS[line.kind]}" xml:space="preserve">${escapeXml(line.text)}</text>`,
  );
  return `<g class="transition-label"><rect x="${label.x}" y="${label.y}" width="${label.width}" height="${label.height}" rx="3" fill="#ffffff" fill-opacity="0.9"/>${lines.join('')}</g>`;
}

/** Sums of rounded coordinates, rounded again: 383.6 + 3 must not print as 386.59999999999997. */
function n(value: number): string {
  return String(round(value));
}

function pathOf(points: Point[]): string {
  return points.map((at, index) => `${index === 0 ? 'M' : 'L'}${at.x},${at.y}`).join('');
}

/** Text and attribute values alike: the five characters XML gives meaning to. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
