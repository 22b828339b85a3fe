/**
 * The engineers' page script, from client/: the page, the chart layout and drawing of
 * machines/charts/ and ELK with them.
 */
import { fileURLToPath } from 'node:url';
import { browserBundle } from '../browser-bundle.js';

export const engineersScript = browserBundle(fileURLToPath(new URL('./client/engineers-app.ts', import.meta.url)));
