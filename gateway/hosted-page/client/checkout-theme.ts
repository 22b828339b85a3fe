/**
 * The merchant's checkout theme on the page (docs/branding.md): the accent colour as the
 * `--accent` custom property the stylesheets already read, its text colour picked for
 * contrast, and the mode as `data-theme` on the root, which checkout.css styles. Set
 * through the CSSOM, which the page's Content-Security-Policy (style-src 'self', no
 * inline styles) allows; the colour is checked again here, so nothing but #RRGGBB reaches it.
 */
import type { CheckoutTheme } from './api.js';

const COLOUR = /^#[0-9A-Fa-f]{6}$/;

/** Relative luminance (WCAG 2) of #RRGGBB. */
function luminance(colour: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(colour.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Applies `theme`, or takes back one applied before when it is null (the merchant cleared it). */
export function applyTheme(root: HTMLElement, theme: CheckoutTheme | null): void {
  if (!theme || !COLOUR.test(theme.accentColor)) {
    root.style.removeProperty('--accent');
    root.style.removeProperty('--accent-ink');
    root.removeAttribute('data-theme');
    return;
  }
  root.style.setProperty('--accent', theme.accentColor);
  // White text on dark accents, near-black on light ones: whichever contrasts more.
  root.style.setProperty('--accent-ink', luminance(theme.accentColor) > 0.179 ? '#14161a' : '#ffffff');
  root.setAttribute('data-theme', theme.mode);
}
