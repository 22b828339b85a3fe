/**
 * The hosted checkout's branding settings as the API takes and shows them (docs/branding.md):
 * the admin merchant update, the dashboard's branding form and the hosted order's merchant
 * all use these schemas, so what one accepts the others show.
 */
import { z } from 'zod';
import { ACCENT_COLOR, THEME_MODES } from '../../machines/merchant/index.js';

const themeMode = z.enum(THEME_MODES).meta({ description: 'light, dark, or auto to follow the customer’s system setting' });

/** As answers show it: stored upper-case. */
export const checkoutTheme = z
  .strictObject({
    accentColor: z
      .string()
      .regex(/^#[0-9A-F]{6}$/)
      .meta({ description: 'The accent of the checkout page (buttons, links, focus rings), #RRGGBB upper-case', example: '#0A7CFF' }),
    mode: themeMode,
  })
  .meta({ id: 'CheckoutTheme', description: 'How the hosted checkout page looks', example: { accentColor: '#0A7CFF', mode: 'auto' } });

/** As requests send it: either letter case, stored upper-case. */
export const checkoutThemeInput = z
  .strictObject({
    accentColor: z
      .string()
      .regex(ACCENT_COLOR, 'must be a colour as #RRGGBB')
      .transform((colour) => colour.toUpperCase())
      .meta({ description: 'The accent of the checkout page (buttons, links, focus rings), #RRGGBB; stored upper-case', example: '#0A7CFF' }),
    mode: themeMode,
  })
  .meta({ description: 'How the hosted checkout page looks', example: { accentColor: '#0a7cff', mode: 'auto' } });

export const disableBranding = z.boolean().meta({ description: 'Hide Peer’s branding (the “Payments by Peer” footer) on the checkout page' });

export const brandingSettings = z
  .object({
    disableBranding,
    checkoutTheme: checkoutTheme.nullable().meta({ description: 'The checkout page theme; null for Peer’s default look' }),
  })
  .meta({ id: 'BrandingSettings', description: 'How the business’s hosted checkout looks, on its live and sandbox accounts alike' });

export const updateBrandingBody = z
  .strictObject({
    disableBranding: disableBranding.optional(),
    checkoutTheme: checkoutThemeInput.nullable().optional().meta({ description: 'The checkout page theme; null for Peer’s default look' }),
  })
  .refine((body) => Object.keys(body).length > 0, 'send disableBranding, checkoutTheme or both')
  .meta({ id: 'UpdateBrandingRequest', example: { disableBranding: true, checkoutTheme: { accentColor: '#0A7CFF', mode: 'dark' } } });
