/**
 * The hosted pages' scripts, from client/: the checkout page's with the parts of jose and viem
 * it seals and checks with, and the payout checkout page's.
 */
import { fileURLToPath } from 'node:url';
import { browserBundle } from '../browser-bundle.js';

export const checkoutScript = browserBundle(fileURLToPath(new URL('./client/checkout-app.ts', import.meta.url)));
export const cashoutScript = browserBundle(fileURLToPath(new URL('./client/cashout-app.ts', import.meta.url)));
