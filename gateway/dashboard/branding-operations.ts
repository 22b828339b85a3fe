/**
 * The business's checkout branding from the dashboard (docs/branding.md): read by any
 * member, changed by an Owner or a Manager (audited, CSRF as every dashboard write). The
 * change is written to the live account and its sandbox twin alike, so a sandbox checkout
 * previews what customers will see; each is its own actor, written live first.
 */
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { MerchantSettingsChanges } from '../../machines/merchant/index.js';
import { reply } from '../envelope.js';
import { brandingSettings, updateBrandingBody } from '../merchants/branding-schemas.js';
import { invalid, standardAnswers, success } from '../openapi/answers.js';
import { sessionRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { audited } from './audit-log.js';
import type { DashboardDependencies } from './dashboard-dependencies.js';

const tags = ['Dashboard'];

const readBrandingOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/branding',
  operationId: 'getCheckoutBranding',
  tags,
  summary: 'How the hosted checkout looks (dashboard session)',
  description: 'The hosted order’s merchant.disableBranding and merchant.checkoutTheme come from here. Any role may read it.',
  guard: 'session',
  answers: standardAnswers({ '200': success(200, brandingSettings, 'The branding settings'), ...sessionRefusals(false) }),
  handle: () => async (ctx) => {
    reply(ctx, 200, 'Branding', brandingSettings, ctx.state.account.branding);
  },
});

const updateBrandingOperation = defineOperation({
  method: 'patch',
  path: '/api/v1/merchants/me/branding',
  operationId: 'updateCheckoutBranding',
  tags,
  summary: 'Change how the hosted checkout looks (dashboard session, Owner or Manager)',
  description:
    'Each field sent replaces the stored one, on the live account and its sandbox twin; checkoutTheme null restores Peer’s default look. The checkout page shows the change at its next poll.',
  guard: 'session',
  roles: ['OWNER', 'MANAGER'],
  request: { body: updateBrandingBody },
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'updateCheckoutBranding')],
  answers: standardAnswers(
    {
      '200': success(200, brandingSettings, 'The branding settings as they are now'),
      '400': invalid('the body (an accent colour not #RRGGBB, an unknown mode, an unknown field, or nothing to change)'),
      ...sessionRefusals(true, [{ code: 'ROLE_NOT_ALLOWED', when: 'the signed-in member is a cashier' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { body }) => {
      const { account } = ctx.state;
      const changes: MerchantSettingsChanges = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
      const at = deps.now();
      const liveId = account.environment === 'LIVE' ? account.merchantId : account.twinId;
      const sandboxId = account.environment === 'LIVE' ? account.twinId : account.merchantId;
      for (const merchantId of [liveId, sandboxId]) await deps.system.ask(merchantKind, merchantId, { type: 'UPDATE_SETTINGS', changes, at });
      const updated = await deps.accounts.byId(account.merchantId);
      reply(ctx, 200, 'Branding updated', brandingSettings, updated!.branding);
    },
});

export function brandingOperations(): Operation<DashboardDependencies>[] {
  return [readBrandingOperation, updateBrandingOperation];
}
