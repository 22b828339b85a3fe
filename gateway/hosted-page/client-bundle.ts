/**
 * The hosted pages' scripts, from client/: the checkout page's with the parts of jose and viem
 * it seals and checks with, the payout checkout page’s, and the merchant dashboard’s.
 */
import { fileURLToPath } from 'node:url';
import { browserBundle } from '../browser-bundle.js';

export const checkoutScript = browserBundle(fileURLToPath(new URL('./client/checkout-app.ts', import.meta.url)));
export const cashoutScript = browserBundle(fileURLToPath(new URL('./client/cashout-app.ts', import.meta.url)));
export const dashboardScript = browserBundle(fileURLToPath(new URL('./client/dashboard-app.ts', import.meta.url)));
