/**
 * Zoom and fit for a drawn chart: the drawing keeps its viewBox and is resized through
 * its width and height, so text stays sharp at every scale. Fit scales it to the frame's
 * width (never above its natural size times two), which shows a large machine whole.
 */
import { button, element } from './dom.js';

const STEP = 1.25;
const MIN = 0.2;
const MAX = 4;

export function zoomControls(frame: HTMLElement, drawing: HTMLElement): HTMLElement {
  const svg = drawing.querySelector('svg');
  if (!svg) return element('div');
  const width = Number(svg.getAttribute('width'));
  const height = Number(svg.getAttribute('height'));
  let scale = 1;
  const shown = element('span', 'zoom-level', '100%');
  const apply = (next: number) => {
    scale = Math.min(MAX, Math.max(MIN, next));
    svg.setAttribute('width', String(Math.round(width * scale)));
    svg.setAttribute('height', String(Math.round(height * scale)));
    shown.textContent = `${Math.round(scale * 100)}%`;
  };
  const fit = () => apply(Math.min(2, Math.max(MIN, (frame.clientWidth - 24) / width)));
  const controls = element(
    'div',
    'zoom',
    button('−', () => apply(scale / STEP)),
    button('+', () => apply(scale * STEP)),
    button('Fit', fit),
    button('Actual size', () => apply(1)),
    shown,
  );
  controls.setAttribute('role', 'group');
  controls.setAttribute('aria-label', 'Zoom');
  for (const [label, control] of [
    ['Zoom out', controls.children[0]],
    ['Zoom in', controls.children[1]],
  ] as const)
    control?.setAttribute('aria-label', label);
  return controls;
}
