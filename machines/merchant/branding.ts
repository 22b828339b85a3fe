/**
 * How a merchant's hosted checkout looks (docs/branding.md): Peer's branding shown or
 * hidden, and a theme of one accent colour and a colour mode. Kept in the merchant's
 * settings; accounts written before it existed have neither key and read as the defaults.
 */
export type CheckoutThemeMode = 'light' | 'dark' | 'auto';

export interface CheckoutTheme {
  /** `#RRGGBB`, upper-case: the page's buttons, links and focus rings. */
  accentColor: string;
  /** `auto` follows the customer's system setting. */
  mode: CheckoutThemeMode;
}

export interface Branding {
  disableBranding: boolean;
  checkoutTheme: CheckoutTheme | null;
}

export const ACCENT_COLOR = /^#[0-9A-Fa-f]{6}$/;
export const THEME_MODES = ['light', 'dark', 'auto'] as const;

export function brandingOf(settings: { disableBranding?: boolean; checkoutTheme?: CheckoutTheme | null }): Branding {
  return { disableBranding: settings.disableBranding ?? false, checkoutTheme: settings.checkoutTheme ?? null };
}
