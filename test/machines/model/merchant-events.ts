/**
 * The merchant model's inputs: a live account, and the changes an administrator and the
 * gateway make to it (settings, a new API key, the key noted as used).
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { merchantKind } from '../../../actors/kinds/index.js';
import type { MerchantEvent, MerchantInput } from '../../../machines/merchant/index.js';
import type { Variant } from '../../support/model-paths.js';

export const MERCHANT_KIND = merchantKind;

const AT = '2026-11-23T12:30:00.000Z';

const account: MerchantInput = {
  id: 'mer_model',
  name: 'Model Shop',
  environment: 'LIVE',
  twinId: 'mer_model_sandbox',
  settings: {
    tier: 'BASE',
    evmWalletAddress: '0x1111111111111111111111111111111111111111',
    solanaWalletAddress: null,
    defaultPaymentCurrency: 'USD',
    enabledRails: ['venmo', 'zelle'],
    dynamicOrdersEnabled: false,
    completionDustThresholdUsdc: 500_000n,
    feePayer: 'MERCHANT',
    apiKeyIpAllowlist: [],
    inPersonCheckoutEnabled: false,
    payouts: null,
  },
  apiKeyHash: 'a'.repeat(64),
  apiKeyHint: 'pk_live_…a1b2',
  at: '2026-11-23T12:00:00.000Z',
};

export const MERCHANT_VARIANTS: Variant[] = [{ name: 'live account', id: account.id, create: { type: 'CREATE', ...account } }];

const SAMPLES: MerchantEvent[] = [
  { type: 'UPDATE_SETTINGS', changes: { feePayer: 'PAYEE', enabledRails: ['venmo'] }, at: AT },
  { type: 'UPDATE_SETTINGS', changes: { payouts: { methods: ['venmo', 'routea_8453'], merchantFeeBps: 100 } }, at: AT },
  { type: 'ROTATE_API_KEY', apiKeyHash: 'b'.repeat(64), apiKeyHint: 'pk_live_…c3d4', at: AT },
  { type: 'NOTE_KEY_USED', at: '2026-11-23T12:00:00.000Z' },
];

export const merchantEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => SAMPLES;

export const merchantAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
