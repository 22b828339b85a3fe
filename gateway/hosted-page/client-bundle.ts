/**
 * The checkout page's script, from client/, with the parts of jose and viem the page seals
 * and checks with.
 */
import { fileURLToPath } from 'node:url';
import { browserBundle } from '../browser-bundle.js';

export const checkoutScript = browserBundle(fileURLToPath(new URL('./client/checkout-app.ts', import.meta.url)));
