/**
 * `npm run admin -- <command>`: a small client of the admin API.
 *
 *   create --name NAME [--tier BASE|PRO|CONCIERGE] [--wallet 0x…]
 *   update MERCHANT_ID [--tier T|none] [--wallet 0x…|none] [--currency EUR|none] [--rails venmo,zelle]
 *          [--dynamic-orders true|false] [--dust 0.5] [--fee-payer MERCHANT|PAYEE|SPLIT]
 *          [--allowlist 10.0.0.0/8,2001:db8::/32|none] [--in-person true|false]
 *          [--actions true|false] [--extensions true|false]
 *   rotate MERCHANT_ID
 *   actions [--status PENDING_APPROVAL|QUEUED|RUNNING|SUCCEEDED|BLOCKED|FAILED]
 *   approve|reject|cancel ACTION_ID --by NAME
 *   add-owner MERCHANT_ID --email owner@example.com   (the live account; docs/dashboard-auth.md)
 *   chargeback PAYMENT_ID --dispute DISPUTE_ID --amount USDC   (the maker's stake compensates; docs/chargebacks.md)
 *
 * ADMIN_URL (default http://127.0.0.1:3000) and PEER_ADMIN_TOKEN come from the environment.
 */
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    tier: { type: 'string' },
    wallet: { type: 'string' },
    currency: { type: 'string' },
    rails: { type: 'string' },
    'dynamic-orders': { type: 'string' },
    dust: { type: 'string' },
    'fee-payer': { type: 'string' },
    allowlist: { type: 'string' },
    'in-person': { type: 'string' },
    actions: { type: 'string' },
    extensions: { type: 'string' },
    status: { type: 'string' },
    by: { type: 'string' },
    email: { type: 'string' },
    dispute: { type: 'string' },
    amount: { type: 'string' },
  },
});

const baseUrl = process.env.ADMIN_URL ?? 'http://127.0.0.1:3000';
const token = process.env.PEER_ADMIN_TOKEN;
if (!token) fail('PEER_ADMIN_TOKEN is not set');

const [command, merchantId] = positionals;
const nullable = (value: string | undefined) => (value === undefined ? undefined : value === 'none' ? null : value);
const boolean = (name: string, value: string | undefined) => {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') fail(`--${name} takes true or false`);
  return value === 'true';
};
const list = (value: string | undefined) => (value === undefined ? undefined : value === 'none' ? [] : value.split(',').map((item) => item.trim()));

switch (command) {
  case 'create':
    if (!values.name) fail('create needs --name');
    await call('POST', '/internal/v1/merchants', { name: values.name, tier: values.tier, evmWalletAddress: values.wallet });
    break;
  case 'update':
    if (!merchantId) fail('update needs a merchant id');
    await call('PATCH', `/internal/v1/merchants/${encodeURIComponent(merchantId)}`, {
      tier: nullable(values.tier),
      evmWalletAddress: nullable(values.wallet),
      defaultPaymentCurrency: nullable(values.currency),
      enabledRails: list(values.rails),
      dynamicOrdersEnabled: boolean('dynamic-orders', values['dynamic-orders']),
      completionDustThresholdUsdc: values.dust,
      feePayer: values['fee-payer'],
      apiKeyIpAllowlist: list(values.allowlist),
      inPersonCheckoutEnabled: boolean('in-person', values['in-person']),
      remediationActionsEnabled: boolean('actions', values.actions),
      remediationExtensionsEnabled: boolean('extensions', values.extensions),
    });
    break;
  case 'rotate':
    if (!merchantId) fail('rotate needs a merchant id');
    await call('POST', `/internal/v1/merchants/${encodeURIComponent(merchantId)}/api-keys/rotate`);
    break;
  case 'actions':
    await call('GET', `/internal/v1/actions${values.status ? `?status=${encodeURIComponent(values.status)}` : ''}`);
    break;
  case 'approve':
  case 'reject':
  case 'cancel':
    // The positional is the action's id here: staff decide one waiting action, and say who they are.
    if (!merchantId) fail(`${command} needs an action id`);
    if (!values.by) fail(`${command} needs --by NAME: who decided, for the action's record`);
    await call('POST', `/internal/v1/actions/${encodeURIComponent(merchantId)}/${command}`, { by: values.by });
    break;
  case 'add-owner':
    if (!merchantId || !values.email) fail('add-owner needs a merchant id and --email');
    await call('POST', `/internal/v1/merchants/${encodeURIComponent(merchantId)}/owners`, { email: values.email });
    break;
  case 'chargeback':
    // The positional is the payment's id here.
    if (!merchantId || !values.dispute || !values.amount) fail('chargeback needs a payment id, --dispute and --amount');
    await call('POST', `/internal/v1/payments/${encodeURIComponent(merchantId)}/chargebacks`, { disputeId: values.dispute, amountUsdc: values.amount });
    break;
  default:
    fail('usage: npm run admin -- create|update|rotate|add-owner|actions|approve|reject|cancel|chargeback … (see deploy/admin-cli.ts)');
}

async function call(method: string, path: string, body?: Record<string, unknown>): Promise<void> {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  process.stdout.write(`${text}\n`);
  if (!response.ok) process.exit(1);
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
