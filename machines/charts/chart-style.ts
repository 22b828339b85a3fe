/**
 * The chart's measures, shared by the layout (which sizes boxes and labels from them) and
 * the drawing. Text is set in a monospace font so that its width can be known from its
 * length alone, the same on a build machine with no browser and in any browser: ELK is
 * given sizes, it never measures.
 */

export const FONT_FAMILY = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";
export const FONT_SIZE = 11;
/** Advance of one character at FONT_SIZE (0.6 em in the usual monospace fonts), with a little room. */
export const CHAR_WIDTH = 6.8;
export const LINE_HEIGHT = 15;
export const TITLE_HEIGHT = 24;
export const PAD_X = 10;
export const PAD_Y = 6;
export const INITIAL_SIZE = 12;
export const MARGIN = 12;

export function textWidth(text: string): number {
  return text.length * CHAR_WIDTH;
}
