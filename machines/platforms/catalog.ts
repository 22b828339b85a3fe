/**
 * Every platform the attestation service reads, with its payment and identity actions.
 * The request paths are our model of each platform's web API (docs/enclave.md,
 * Platforms): each must be checked against the live platform before real money.
 * Currencies of a checkout rail's platform are the rail's (machines/rails.ts), so a
 * template never offers a currency a quote would not price.
 */
import { RAIL_CURRENCIES } from '../rails.js';
import type { PlatformDefinition, SessionField } from './definition.js';
import { BEARER, BEARER_HEADER, COOKIE, COOKIE_HEADER, PAYMENT_ID } from './fields.js';

const CASHAPP_SESSION = [
  {
    name: 'sessionCookie',
    format: 'header',
    capture: { from: 'request-header', header: 'Cookie' },
    description: 'The Cookie header of the activity page’s request',
  },
  {
    name: 'requestPayload',
    format: 'cashapp-activity-request',
    capture: { from: 'request-body' },
    description: 'The body of the activity page’s request, as text',
  },
  {
    name: 'requestHeaders',
    format: 'replayable-headers',
    optional: true,
    capture: { from: 'request-headers' },
    description: 'The x-*, accept-language and user-agent headers of that request, to replay as the page sent them',
  },
] as const satisfies readonly SessionField[];

const CASHAPP_ACTIVITY = {
  method: 'POST',
  path: '/cash-app/activity/v1.0/page',
  headersFrom: 'requestHeaders',
  headers: [
    { name: 'Cookie', session: 'sessionCookie' },
    { name: 'Content-Type', value: 'application/json' },
  ],
  body: { json: 'requestPayload' },
} as const;

const X_ACCESS_TOKEN = {
  name: 'X-Access-Token',
  format: 'header',
  capture: { from: 'request-header', header: 'X-Access-Token' },
  description: 'The X-Access-Token header of the signed-in page’s request to Wise',
} as const satisfies SessionField;

const WISE_HEADERS = [COOKIE_HEADER, { name: 'X-Access-Token', session: 'X-Access-Token' }] as const;

const WISE_PROFILE_ID = { name: 'PROFILE_ID', source: 'account', description: 'The Wise profile id of the signed-in account' } as const;

export const VENMO = {
  id: 'venmo',
  displayName: 'Venmo',
  currencies: RAIL_CURRENCIES.venmo,
  apiBaseUrl: 'https://account.venmo.com',
  loginUrl: 'https://id.venmo.com/signin',
  payment: {
    type: 'transfer_venmo',
    session: [COOKIE],
    params: [PAYMENT_ID],
    request: { method: 'GET', path: '/api/stories/{PAYMENT_ID}', headers: [COOKIE_HEADER] },
    accountRequest: { method: 'GET', path: '/api/v5/account', headers: [COOKIE_HEADER] },
  },
  identity: {
    type: 'register_venmo',
    session: [COOKIE],
    params: [{ name: 'SENDER_ID', source: 'account', description: 'The Venmo user id being registered: the signed-in account’s own' }],
    // Derived from SENDER_ID: clients send no captured URL, so they cannot point the enclave elsewhere.
    request: { method: 'GET', path: '/api/stories/target-or-actor/{SENDER_ID}', headers: [COOKIE_HEADER] },
  },
} as const satisfies PlatformDefinition;

export const CASHAPP = {
  id: 'cashapp',
  displayName: 'Cash App',
  currencies: RAIL_CURRENCIES.cashapp,
  apiBaseUrl: 'https://cash.app',
  loginUrl: 'https://cash.app/login',
  payment: {
    type: 'transfer_cashapp',
    session: CASHAPP_SESSION,
    params: [PAYMENT_ID],
    request: CASHAPP_ACTIVITY,
    // The activity page names its customer: the seller path reads whose session it keeps from it.
    accountRequest: CASHAPP_ACTIVITY,
  },
  identity: { type: 'register_cashapp', session: CASHAPP_SESSION, params: [], request: CASHAPP_ACTIVITY },
} as const satisfies PlatformDefinition;

export const MONZO = {
  id: 'monzo',
  displayName: 'Monzo',
  currencies: RAIL_CURRENCIES.monzo,
  apiBaseUrl: 'https://api.monzo.com',
  loginUrl: 'https://web.monzo.com/',
  payment: {
    type: 'transfer_monzo',
    session: [BEARER],
    params: [PAYMENT_ID],
    request: { method: 'GET', path: '/transactions/{PAYMENT_ID}?expand[]=counterparty', headers: [BEARER_HEADER] },
  },
} as const satisfies PlatformDefinition;

export const WISE = {
  id: 'wise',
  displayName: 'Wise',
  currencies: RAIL_CURRENCIES.wise,
  apiBaseUrl: 'https://wise.com',
  loginUrl: 'https://wise.com/login',
  payment: {
    type: 'transfer_wise',
    session: [COOKIE, X_ACCESS_TOKEN],
    params: [PAYMENT_ID, WISE_PROFILE_ID],
    request: { method: 'GET', path: '/gateway/v3/profiles/{PROFILE_ID}/transfers/{PAYMENT_ID}', headers: WISE_HEADERS },
    // The session's profiles: the seller path reads the kept session's own profile here, and names it as PROFILE_ID.
    accountRequest: { method: 'GET', path: '/gateway/v2/profiles', headers: WISE_HEADERS },
  },
  identity: {
    type: 'register_wise',
    session: [COOKIE, X_ACCESS_TOKEN],
    params: [WISE_PROFILE_ID],
    request: { method: 'GET', path: '/gateway/v1/profiles/{PROFILE_ID}', headers: WISE_HEADERS },
  },
} as const satisfies PlatformDefinition;

export const REVOLUT = {
  id: 'revolut',
  displayName: 'Revolut',
  currencies: RAIL_CURRENCIES.revolut,
  apiBaseUrl: 'https://app.revolut.com',
  loginUrl: 'https://app.revolut.com/start',
  payment: {
    type: 'transfer_revolut',
    session: [
      COOKIE,
      {
        name: 'x-device-id',
        format: 'header',
        capture: { from: 'request-header', header: 'x-device-id' },
        description: 'The x-device-id header of the signed-in page’s request to Revolut',
      },
    ],
    params: [PAYMENT_ID],
    request: { method: 'GET', path: '/api/retail/transaction/{PAYMENT_ID}', headers: [COOKIE_HEADER, { name: 'x-device-id', session: 'x-device-id' }] },
  },
} as const satisfies PlatformDefinition;

export const CHIME = {
  id: 'chime',
  displayName: 'Chime',
  currencies: RAIL_CURRENCIES.chime,
  apiBaseUrl: 'https://app.chime.com',
  loginUrl: 'https://app.chime.com/login',
  payment: {
    type: 'transfer_chime',
    session: [COOKIE],
    params: [PAYMENT_ID],
    request: { method: 'GET', path: '/api/v1/transactions/{PAYMENT_ID}', headers: [COOKIE_HEADER] },
  },
} as const satisfies PlatformDefinition;

export const ZELLE_CHASE = {
  id: 'zelle-chase',
  displayName: 'Zelle (Chase)',
  currencies: RAIL_CURRENCIES.zelle,
  apiBaseUrl: 'https://secure.chase.com',
  loginUrl: 'https://secure.chase.com/web/auth/dashboard',
  payment: {
    type: 'transfer_zelle_chase',
    session: [COOKIE],
    params: [PAYMENT_ID],
    request: {
      method: 'POST',
      path: '/svc/rr/payments/v1/quickpay/payment/activity/detail/list',
      headers: [COOKIE_HEADER, { name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
      body: { form: { paymentId: '{PAYMENT_ID}' } },
    },
  },
} as const satisfies PlatformDefinition;

export const ZELLE_BOFA = {
  id: 'zelle-bofa',
  displayName: 'Zelle (Bank of America)',
  currencies: RAIL_CURRENCIES.zelle,
  apiBaseUrl: 'https://secure.bankofamerica.com',
  loginUrl: 'https://secure.bankofamerica.com/login/sign-in/signOnV2Screen.go',
  payment: {
    type: 'transfer_zelle_bofa',
    session: [COOKIE],
    params: [PAYMENT_ID],
    request: { method: 'GET', path: '/ogateway/zelle/v1/activity/{PAYMENT_ID}', headers: [COOKIE_HEADER] },
  },
} as const satisfies PlatformDefinition;

export const ZELLE_CITI = {
  id: 'zelle-citi',
  displayName: 'Zelle (Citi)',
  currencies: RAIL_CURRENCIES.zelle,
  apiBaseUrl: 'https://online.citi.com',
  loginUrl: 'https://online.citi.com/US/login.do',
  payment: {
    type: 'transfer_zelle_citi',
    session: [COOKIE],
    params: [PAYMENT_ID],
    request: { method: 'GET', path: '/gcgapi/prod/public/v1/p2ppayments/pastActivityTransactions/{PAYMENT_ID}', headers: [COOKIE_HEADER] },
  },
} as const satisfies PlatformDefinition;

export const PAYPAL = {
  id: 'paypal',
  displayName: 'PayPal',
  currencies: RAIL_CURRENCIES.paypal,
  apiBaseUrl: 'https://www.paypal.com',
  loginUrl: 'https://www.paypal.com/signin',
  payment: {
    type: 'transfer_paypal',
    session: [COOKIE],
    params: [PAYMENT_ID],
    request: { method: 'GET', path: '/myaccount/activities/details/inline/{PAYMENT_ID}', headers: [COOKIE_HEADER] },
  },
  identity: {
    type: 'register_paypal',
    session: [COOKIE],
    params: [],
    request: { method: 'GET', path: '/myaccount/profile/api/user', headers: [COOKIE_HEADER] },
  },
} as const satisfies PlatformDefinition;

export const PAYPAL_BUSINESS = {
  id: 'paypal-business',
  displayName: 'PayPal Business',
  // A business account sends what a personal one does.
  currencies: RAIL_CURRENCIES.paypal,
  apiBaseUrl: 'https://api-m.paypal.com',
  loginUrl: 'https://www.paypal.com/signin',
  payment: {
    type: 'transfer_paypal_business',
    session: [BEARER],
    params: [PAYMENT_ID],
    request: { method: 'GET', path: '/v1/reporting/transactions?transaction_id={PAYMENT_ID}&fields=transaction_info%2Cpayee_info', headers: [BEARER_HEADER] },
  },
} as const satisfies PlatformDefinition;

/** Identity only: no checkout rail pays over Alipay. */
export const ALIPAY = {
  id: 'alipay',
  displayName: 'Alipay',
  currencies: ['CNY'],
  apiBaseUrl: 'https://render.alipay.com',
  loginUrl: 'https://auth.alipay.com/login/index.htm',
  identity: {
    type: 'register_alipay',
    session: [COOKIE],
    params: [],
    request: { method: 'GET', path: '/alipay/user/profile.json', headers: [COOKIE_HEADER] },
  },
} as const satisfies PlatformDefinition;

/** In the order provider manifests list them. */
export const PLATFORMS: readonly PlatformDefinition[] = [
  VENMO,
  CASHAPP,
  MONZO,
  WISE,
  REVOLUT,
  CHIME,
  ZELLE_CHASE,
  ZELLE_BOFA,
  ZELLE_CITI,
  PAYPAL,
  PAYPAL_BUSINESS,
  ALIPAY,
];
