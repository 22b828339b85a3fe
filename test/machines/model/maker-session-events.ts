/** The maker session model's inputs: one sign-in, and the sign-outs that end it (twice, as two logouts racing). */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { makerSessionKind } from '../../../actors/makers/index.js';
import type { MakerSessionEvent } from '../../../machines/maker-session/index.js';
import type { Variant } from '../../support/model-paths.js';

export const MAKER_SESSION_KIND = makerSessionKind;

export const MAKER_SESSION_VARIANTS: Variant[] = [
  {
    name: 'signed in',
    id: 'nonce_model_0001',
    create: {
      type: 'SIGN_IN',
      address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
      chainId: 8453,
      tokenHash: 'c'.repeat(64),
      at: '2026-11-23T12:00:00.000Z',
      expiresAt: '2026-11-24T12:00:00.000Z',
    },
  },
];

const SIGN_OUT: MakerSessionEvent = { type: 'SIGN_OUT', at: '2026-11-23T13:00:00.000Z' };

export const makerSessionEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => [SIGN_OUT];

export const makerSessionAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
