/**
 * What `npm start` prints on a terminal once the node has started: where everything
 * runs, the demo merchant's keys and the admin token when this start made them, and one
 * command that creates an order and prints its checkout link. It goes to the terminal
 * only, never through the log stream: keys and the token must not reach log storage.
 */
import { DEMO_OWNER_EMAIL, demoKeysText, existingMerchantsText, type DemoMerchantKeys } from './demo-merchant.js';
import { ENGINEERS_PATH } from '../gateway/engineers/engineers-page.js';
import type { NodeWelcome, PlatformNode } from './node.js';
import { localDemoMerchantAccount } from '../indexer/chain/dev-accounts.js';

export interface StartFacts {
  environment: string;
  /** The gateway's base URL. */
  url: string;
  /**
   * The admin token: `shown` when this start made it, `kept` (its file) when an earlier
   * one did, `environment` when PEER_ADMIN_TOKEN set it, null when the admin API is off.
   */
  adminToken: { shown: string; file: string } | { kept: string } | 'environment' | null;
  /** The local chain the node started; null on another chain or none. */
  localChain: { rpcUrl: string; chainId: number; usdc: string } | null;
  /** The attestation service's HTTP address; null without one. */
  attestationUrl: string | null;
  /** Whether the node catches its mail on this machine (no SMTP_URL): a development node shows it at GET /dev/mail. */
  caughtMail: boolean;
  /** The demo merchant's keys when this start opened it; `earlier` when the data folder held merchants already; null beside a store where none is opened (MongoDB). */
  demoMerchant: DemoMerchantKeys | 'earlier' | null;
  /** The demo merchant's wallet on the local chain. */
  demoWallet: string;
}

/** The sample order: the one the landing page's button makes too. */
const ORDER_BODY = '{"requestedFiatAmount":"25.00","requestedFiatCurrency":"USD"}';

export function startBanner(facts: StartFacts): string {
  const { url } = facts;
  const row = (name: string, value: string) => `  ${name.padEnd(17)}${value}`;
  const lines = [
    '',
    `Peer platform is running (${facts.environment})`,
    '',
    row('Gateway', url),
    row('API reference', `${url}/docs`),
    row('Engineers’ page', facts.adminToken ? `${url}${ENGINEERS_PATH}` : 'off: set PEER_ADMIN_TOKEN to serve it and the admin API'),
  ];
  if (facts.environment === 'development') lines.push(row('Landing page', `${url}/  (press "Try a checkout")`));
  if (facts.environment === 'development' && facts.caughtMail) lines.push(row('Caught mail', `${url}/dev/mail  (what the node mails, such as sign-in codes)`));
  if (facts.localChain) lines.push(row('Local chain', `${facts.localChain.rpcUrl}  chain id ${facts.localChain.chainId}, USDC ${facts.localChain.usdc}`));
  if (facts.attestationUrl) lines.push(row('Attestation', facts.attestationUrl));

  const demo = facts.demoMerchant;
  if (demo !== null) {
    lines.push('');
    if (demo === 'earlier') lines.push('Demo merchant: its API keys were shown when this data folder was new; rotate one with the admin API for a new one.');
    else
      lines.push(
        'Demo merchant (its API keys are shown only now):',
        row('live', `${demo.liveId}  X-API-Key: ${demo.liveApiKey}`),
        row('sandbox', `${demo.sandboxId}  X-API-Key: ${demo.sandboxApiKey}`),
      );
    if (facts.localChain) lines.push(row('wallet', `${facts.demoWallet}  (its live orders’ USDC arrives here)`));
    if (facts.environment === 'development') lines.push(row('dashboard', `${url}/dashboard  as ${DEMO_OWNER_EMAIL} (the code arrives at /dev/mail)`));
  }

  const admin = facts.adminToken;
  if (admin !== null && admin !== 'environment') {
    lines.push('');
    if ('shown' in admin) lines.push(`Admin token (made for this data folder, shown only now, kept in ${admin.file}):`, `  ${admin.shown}`);
    else lines.push(`Admin token: the one kept in ${admin.kept}`);
  }

  lines.push('', 'Create an order and print its checkout link:');
  if (typeof demo === 'object' && demo !== null) lines.push(`  ${orderCommand(url, demo.liveApiKey)}`);
  else
    lines.push(`  ${orderCommand(url, '$LIVE_KEY')}`, `  (with LIVE_KEY set to ${demo === 'earlier' ? 'the demo merchant’s' : 'a merchant’s'} live API key)`);
  lines.push('');
  return lines.join('\n');
}

/** A curl that creates an order and prints its checkout link (or the refusal), needing nothing but Node, which `npm start` runs on. */
export function orderCommand(url: string, liveKey: string): string {
  const keyHeader = liveKey.startsWith('$') ? `"x-api-key: ${liveKey}"` : `'x-api-key: ${liveKey}'`;
  const print = `const a = JSON.parse(require("fs").readFileSync(0, "utf8")); a.success ? "${url}/?order=" + a.responseObject.order.id + "&token=" + a.responseObject.orderToken : a.message`;
  return `curl -s ${url}/api/v1/orders -H ${keyHeader} -H 'content-type: application/json' -d '${ORDER_BODY}' | node -p '${print}'`;
}

/** The facts of a started node; the admin token only when `welcome` holds it (never from the configuration). */
export function startFactsOf(node: PlatformNode): StartFacts {
  const kept = node.welcome?.adminToken ?? null;
  const local = node.chain?.localChain ?? null;
  return {
    environment: node.config.NODE_ENV,
    url: node.url,
    adminToken: kept ? (kept.created ? { shown: kept.token, file: kept.file } : { kept: kept.file }) : node.config.PEER_ADMIN_TOKEN ? 'environment' : null,
    localChain: local ? { rpcUrl: local.rpcUrl, chainId: local.chainId, usdc: local.usdc } : null,
    attestationUrl: node.config.ENCLAVE_PUBLIC_URL ?? node.enclave?.server.httpUrl ?? null,
    caughtMail: node.mail.inbox !== null,
    demoMerchant: node.welcome ? (node.welcome.demoMerchant ?? 'earlier') : null,
    demoWallet: localDemoMerchantAccount().address,
  };
}

/** Where no terminal shows the banner: the demo merchant's keys and a new admin token as plain lines, for stderr. */
export function plainWelcome(welcome: NodeWelcome, dataDir: string): string {
  const lines = [welcome.demoMerchant ? demoKeysText(welcome.demoMerchant) : existingMerchantsText(dataDir)];
  const admin = welcome.adminToken;
  if (admin?.created) lines.push(`An admin token was made for this data folder; it is shown only now and kept in ${admin.file}:`, `  ${admin.token}`, '');
  else if (admin) lines.push(`The admin token is the one kept in ${admin.file}.`, '');
  return lines.join('\n');
}
