/**
 * A QR code drawn in the page (an SVG as a data: image, which the page's CSP allows), so
 * nothing is fetched from another origin to show it.
 */
import QRCode from 'qrcode';
import { h } from './dom.js';

/** `label` is the image's text alternative: what scanning it gives. */
export function qrCode(text: string, label: string): HTMLImageElement {
  const image = h('img', { class: 'qr', alt: label, width: '160', height: '160' });
  void QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => (image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`));
  return image;
}
