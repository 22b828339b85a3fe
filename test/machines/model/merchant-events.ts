/**
 * The merchant model's inputs: a live account, and the changes an administrator and the
 * gateway make to it (settings, a new API key, the key noted as used, its dashboard team).
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { merchantKind } from '../../../actors/kinds/index.js';
import type { MerchantContext, MerchantEvent, MerchantInput } from '../../../machines/merchant/index.js';
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
  // The dashboard team (docs/dashboard-auth.md): an Owner and a manager, the last Owner kept.
  { type: 'ADD_MEMBER', userId: 'usr_model_owner', email: 'owner@model.example', role: 'OWNER', at: AT },
  { type: 'ADD_MEMBER', userId: 'usr_model_manager', email: 'manager@model.example', role: 'MANAGER', at: AT },
  { type: 'CHANGE_ROLE', userId: 'usr_model_manager', role: 'OWNER', at: AT },
  { type: 'REMOVE_MEMBER', userId: 'usr_model_owner', at: AT },
  { type: 'MEMBER_SIGNED_IN', userId: 'usr_model_manager', at: AT },
  // A member's passkey (docs/dashboard-auth.md): registered, used once (its counter moves), removed.
  {
    type: 'ADD_PASSKEY',
    userId: 'usr_model_manager',
    passkey: { credentialId: 'cred_model_manager', publicKey: 'pQECAyYgASFYIA', counter: 0, transports: ['internal'], name: 'laptop' },
    at: AT,
  },
  { type: 'USE_PASSKEY', userId: 'usr_model_manager', credentialId: 'cred_model_manager', counter: 1, at: AT },
  { type: 'REMOVE_PASSKEY', userId: 'usr_model_manager', credentialId: 'cred_model_manager', at: AT },
];

export const merchantEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => SAMPLES;

/** The state and the team: one state, so the team (passkeys and their counters included) is what tells the paths apart. */
export const merchantAbstraction = (snapshot: AnyMachineSnapshot): unknown => [
  snapshot.value,
  ((snapshot.context as MerchantContext).users ?? []).map(
    (user) => `${user.userId}:${user.role}:${user.status}:${(user.passkeys ?? []).map((passkey) => `${passkey.credentialId}@${passkey.counter}`).join('+')}`,
  ),
];
