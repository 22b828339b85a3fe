/**
 * Document 3's two sets of provider files. Both describe the same session material,
 * params and request, made from one definition per platform, so the attestation service
 * takes what either set's client captured; they differ only in how a client signs in
 * and captures it (docs/providers.md).
 */
export const PROVIDER_SETS = ['stable', 'mobile'] as const;
export type ProviderSet = (typeof PROVIDER_SETS)[number];

/** How a client of the set opens the platform's sign-in page and watches its requests. */
export type CaptureMethod = 'browser-extension' | 'webview';

export interface ProviderSetRules {
  /** Where the set's files are served. */
  basePath: string;
  capture: CaptureMethod;
  /** The user agent the client's page must send; null for the browser's own. */
  userAgent: string | null;
}

/**
 * A phone's Safari: an in-app webview that says so gets the platforms' mobile web pages,
 * which call the same web API the enclave replays, rather than a prompt to open the app.
 */
export const MOBILE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export const PROVIDER_SET_RULES: Readonly<Record<ProviderSet, ProviderSetRules>> = {
  stable: { basePath: '/providers', capture: 'browser-extension', userAgent: null },
  mobile: { basePath: '/providers/mobile', capture: 'webview', userAgent: MOBILE_USER_AGENT },
};

/** Bumped when a file's shape changes in a way an older client would misread. */
export const PROVIDER_FILES_VERSION = '1.0.0';
