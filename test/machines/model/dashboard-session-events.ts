/** The dashboard session model's inputs: one sign-in, being seen, the environment switched, and the ends (twice, as a sign-out racing a revoke). */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { dashboardSessionKind } from '../../../actors/kinds/index.js';
import type { DashboardSessionEvent } from '../../../machines/dashboard-session/index.js';
import type { Variant } from '../../support/model-paths.js';

export const DASHBOARD_SESSION_KIND = dashboardSessionKind;

export const DASHBOARD_SESSION_VARIANTS: Variant[] = [
  {
    name: 'signed in',
    id: 'dss_model0000000000000000001',
    create: {
      type: 'SIGN_IN',
      tokenHash: 'd'.repeat(64),
      merchantId: 'mer_model',
      userId: 'usr_model',
      email: 'owner@model.example',
      environment: 'LIVE',
      at: '2026-11-23T12:00:00.000Z',
    },
  },
];

const SAMPLES: DashboardSessionEvent[] = [
  { type: 'TOUCH', at: '2026-11-23T12:10:00.000Z' },
  { type: 'SWITCH_ENVIRONMENT', environment: 'SANDBOX', at: '2026-11-23T12:11:00.000Z' },
  { type: 'END', reason: 'SIGNED_OUT', at: '2026-11-23T12:20:00.000Z' },
  { type: 'END', reason: 'REVOKED', at: '2026-11-23T12:21:00.000Z' },
];

export const dashboardSessionEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => SAMPLES;

export const dashboardSessionAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
