/**
 * A QR code drawn in the page (an SVG as a data: image, which the page's CSP allows), so
 * nothing is fetched from another origin to show it.
 */
import QRCode from 'qrcode';
import { h } from './dom.js';

/** Each text is encoded once: the page redraws its screen on every poll and click. */
const drawn = new Map<string, Promise<string>>();

/** `label` is the image's text alternative: what scanning it gives. */
export function qrCode(text: string, label: string): HTMLImageElement {
  const image = h('img', { class: 'qr', alt: label, width: '160', height: '160' });
  let source = drawn.get(text);
  if (!source) {
    source = QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then(
      (svg) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`,
    );
    drawn.set(text, source);
  }
  void source.then((url) => (image.src = url));
  return image;
}
