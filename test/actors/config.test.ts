import test from 'ava';
import { destinationPolicy } from '../../deploy/webhooks.js';
import { ConfigError, loadConfig } from '../../actors/config.js';
import { payoutServiceFeeWallet } from '../../deploy/payout-service-fee.js';
import { BTC_TOKEN_ADDRESS } from '../../machines/payout/funding-catalog.js';
import { PAYOUT_RAILS } from '../../machines/payout/payout-rails.js';
import { localPayoutServiceFeeAccount } from '../../indexer/chain/dev-accounts.js';

/** Production needs them while payouts are on, so every production configuration here names them. */
const PAYOUT_SERVICE_FEE_WALLET = `0x${'9'.repeat(40)}`;
const SMTP_URL = 'smtps://payouts:mail-password@smtp.example:465';

test('the defaults run everything embedded on 127.0.0.1:3000', (t) => {
  const config = loadConfig({});
  t.like(config, { HOST: '127.0.0.1', PORT: 3000, NODE_ENV: 'development', NATS_NAMESPACE: 'peer', SHARD_COUNT: 64 });
  t.is(config.NATS_URL, undefined);
  t.is(config.MONGODB_URI, undefined);
});

test('ORDER_MAX_USDC is USDC base units, 100000 USDC unless set', (t) => {
  t.is(loadConfig({}).ORDER_MAX_USDC, 100_000_000_000n);
  t.is(loadConfig({ ORDER_MAX_USDC: '2500.5' }).ORDER_MAX_USDC, 2_500_500_000n);
});

test('numbers are parsed from the environment and empty values count as unset', (t) => {
  const config = loadConfig({ PORT: '8080', SHARD_COUNT: '', LEASE_TTL_MS: '5000' });
  t.is(config.PORT, 8080);
  t.is(config.SHARD_COUNT, 64);
  t.is(config.LEASE_TTL_MS, 5000);
});

for (const [name, value] of [
  ['PORT', '70000'],
  ['PORT', '3.5'],
  ['LOG_LEVEL', 'loud'],
  ['MONGODB_URI', 'postgres://x'],
  ['NATS_URL', 'http://127.0.0.1:4222'],
  ['SHARD_COUNT', '0'],
  ['NATS_NAMESPACE', 'Bad.Name'],
  ['NODE_ENV', 'staging'],
  ['ORDER_MAX_USDC', '0'],
  ['ORDER_MAX_USDC', '1.0000001'],
  ['ORDER_MAX_USDC', '1e6'],
  // Document 3: orderbook responses may reflect data up to 60 seconds old, no older.
  ['ORDERBOOK_CACHE_MS', '60001'],
  ['PAYOUT_RAILS_OFF', 'venmo,crypto'],
  ['PAYOUT_RAILS_OFF', 'relay_42161'],
  ['PAYOUT_FUNDING_TOKENS_OFF', '8453:0x0000000000000000000000000000000000000001'],
  ['PAYOUT_FUNDING_TOKENS_OFF', '792703809:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
  ['PAYOUT_FUNDING_TOKENS_OFF', '8453'],
  ['PAYOUT_FUNDING_TOKENS_OFF', '8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913:1'],
  ['PAYOUT_SERVICE_FEE_WALLET', '0x12'],
  ['PAYOUT_FUNDING_DEADLINE_MS', '1000'],
  ['PAYOUT_FUNDING_POLL_MS', '0'],
] as const) {
  test(`${name}=${value} is refused with a message naming ${name}`, (t) => {
    const error = t.throws(() => loadConfig({ [name]: value }), { instanceOf: ConfigError });
    t.regex(error.message, new RegExp(`^  ${name}: `, 'm'));
  });
}

test('a cluster needs MONGODB_URI, ID_SECRET and a shared indexer (or none) beside NATS_URL', (t) => {
  const cluster = { NATS_URL: 'nats://127.0.0.1:4222' };
  t.throws(() => loadConfig(cluster), { message: /NATS_URL: is set but MONGODB_URI is not/ });
  t.throws(() => loadConfig({ ...cluster, MONGODB_URI: 'mongodb://127.0.0.1:27017' }), { message: /ID_SECRET: is required in a cluster/ });
  const withStore = { ...cluster, MONGODB_URI: 'mongodb://127.0.0.1:27017', ID_SECRET: 's'.repeat(32) };
  t.throws(() => loadConfig(withStore), { message: /INDEXER_URL: is required in a cluster/ });
  t.is(loadConfig({ ...withStore, INDEXER_URL: 'indexer.internal:50051' }).INDEXER_URL, 'indexer.internal:50051');
  t.false(loadConfig({ ...withStore, INDEXER_ENABLED: 'false' }).INDEXER_ENABLED);
});

test('a chain at CHAIN_RPC_URL needs the addresses of its contracts', (t) => {
  t.throws(() => loadConfig({ CHAIN_RPC_URL: 'https://base.example' }), { message: /CHAIN_USDC_ADDRESS: is required with CHAIN_RPC_URL/ });
  t.throws(() => loadConfig({ CHAIN_USDC_ADDRESS: '0x12' }), { message: /CHAIN_USDC_ADDRESS: must be a 0x-prefixed 20-byte address/ });
  t.throws(() => loadConfig({ INDEXER_ENABLED: 'yes' }), { message: /INDEXER_ENABLED: must be true or false/ });
  const address = `0x${'1'.repeat(40)}`;
  const config = loadConfig({
    CHAIN_RPC_URL: 'https://base.example',
    CHAIN_USDC_ADDRESS: address,
    CHAIN_ESCROW_ADDRESS: address,
    CHAIN_ORCHESTRATOR_ADDRESS: address,
    INDEXER_CONFIRMATIONS: '3',
  });
  t.is(config.INDEXER_CONFIRMATIONS, 3);
});

test('the enclave: a wrapped key needs its key-wrapping key, production needs live platforms, chains are JSON', (t) => {
  const kwk = Buffer.alloc(32, 7).toString('base64');
  t.throws(() => loadConfig({ ENCLAVE_WRAPPED_KEY: 'a.b.c.d.e' }), { message: /ENCLAVE_WRAPPED_KEY: needs ENCLAVE_KEY_WRAPPING_KEY/ });
  t.throws(() => loadConfig({ ENCLAVE_KEY_WRAPPING_KEY: Buffer.alloc(16).toString('base64') }), {
    message: /ENCLAVE_KEY_WRAPPING_KEY: must be base64 of 32 bytes/,
  });
  t.is(loadConfig({ ENCLAVE_KEY_WRAPPING_KEY: kwk, ENCLAVE_WRAPPED_KEY: 'a.b.c.d.e' }).ENCLAVE_WRAPPED_KEY, 'a.b.c.d.e');
  t.throws(() => loadConfig({ NODE_ENV: 'production', INDEXER_URL: 'indexer.internal:50051' }), { message: /ENCLAVE_PLATFORMS: must be live in production/ });
  t.is(
    loadConfig({
      NODE_ENV: 'production',
      INDEXER_URL: 'indexer.internal:50051',
      ENCLAVE_PLATFORMS: 'live',
      PAYOUT_SERVICE_FEE_WALLET,
      SMTP_URL,
      RATES_URL: 'https://rates.example/usd',
      MAKER_AUTH_ORIGIN: 'https://app.peer.example',
    }).ENCLAVE_PLATFORMS,
    'live',
  );
  t.throws(() => loadConfig({ NODE_ENV: 'production', INDEXER_URL: 'indexer.internal:50051', ENCLAVE_PLATFORMS: 'live', PAYOUT_SERVICE_FEE_WALLET }), {
    message: /RATES_URL: is required in production/,
  });
  const base = {
    NODE_ENV: 'production',
    INDEXER_URL: 'indexer.internal:50051',
    ENCLAVE_PLATFORMS: 'live',
    PAYOUT_SERVICE_FEE_WALLET,
    SMTP_URL,
    RATES_URL: 'https://rates.example/usd',
    MAKER_AUTH_ORIGIN: 'https://app.peer.example',
    CHAIN_RPC_URL: 'https://base.example',
    CHAIN_USDC_ADDRESS: `0x${'1'.repeat(40)}`,
    CHAIN_ESCROW_ADDRESS: `0x${'2'.repeat(40)}`,
    CHAIN_ORCHESTRATOR_ADDRESS: `0x${'3'.repeat(40)}`,
  };
  t.throws(() => loadConfig(base), { message: /INDEXER_CONFIRMATIONS: must be above 0 in production on the chain of CHAIN_RPC_URL/ });
  t.is(loadConfig({ ...base, INDEXER_CONFIRMATIONS: '3' }).INDEXER_CONFIRMATIONS, 3);
  t.is(loadConfig({ ...base, INDEXER_FINALITY: 'finalized' }).INDEXER_FINALITY, 'finalized');
  t.is(
    loadConfig({
      NODE_ENV: 'production',
      INDEXER_URL: 'indexer.internal:50051',
      ENCLAVE_PLATFORMS: 'live',
      PAYOUT_SERVICE_FEE_WALLET,
      SMTP_URL,
      RATES_URL: 'https://rates.example/usd',
      MAKER_AUTH_ORIGIN: 'https://app.peer.example',
    }).INDEXER_CONFIRMATIONS,
    0,
    'the local chain may take its head',
  );
  t.throws(() => loadConfig({ INDEXER_FINALITY: 'latest' }), { message: /INDEXER_FINALITY: must be confirmations, safe or finalized/ });
  t.throws(() => loadConfig({ RATES_URL: 'ftp://rates.example' }), { message: /RATES_URL/ });
  t.throws(() => loadConfig({ ENCLAVE_CHAINS: '{"8453":{"paymentVerifier":"0x12"}}' }), { message: /ENCLAVE_CHAINS: must be JSON/ });
  const verifier = `0x${'a'.repeat(40)}`;
  t.deepEqual(loadConfig({ ENCLAVE_CHAINS: `{"8453":{"paymentVerifier":"${verifier}"}}` }).ENCLAVE_CHAINS, { 8453: { paymentVerifier: verifier } });
  t.throws(() => loadConfig({ ENCLAVE_PROOF_ATTESTORS: `${verifier},nope` }), { message: /ENCLAVE_PROOF_ATTESTORS/ });
  t.deepEqual(loadConfig({}).ENCLAVE_GRPC_ADDR, '127.0.0.1:50052');
  t.deepEqual(loadConfig({}).ENCLAVE_HTTP_PORT, 8081);
});

test('RELAYER_PRIVATE_KEYS: a bad key is named by its place in the list, never by its text', (t) => {
  const good = `0x${'ab'.repeat(32)}`;
  const secret = `0x${'cd'.repeat(31)}zz`;
  const error = t.throws(() => loadConfig({ RELAYER_PRIVATE_KEYS: `${good},${secret}` }), { instanceOf: ConfigError });
  t.regex(error.message, /RELAYER_PRIVATE_KEYS: key 2 of 2 is not 0x followed by 64 hex digits/);
  t.false(error.message.includes('cd'.repeat(31)));
  t.false(error.message.includes('ab'.repeat(32)));
  t.throws(() => loadConfig({ RELAYER_PRIVATE_KEYS: `${good},${good.toUpperCase().replace('0X', '0x')}` }), { message: /a key is listed twice/ });
  t.is(loadConfig({ RELAYER_PRIVATE_KEYS: good }).RELAYER_PRIVATE_KEYS, good);
});

test('RELAYER_MAX_FEE_PER_GAS is wei as a bigint, 200 gwei unless set', (t) => {
  t.is(loadConfig({}).RELAYER_MAX_FEE_PER_GAS, 200_000_000_000n);
  t.is(loadConfig({ RELAYER_MAX_FEE_PER_GAS: '5000000000' }).RELAYER_MAX_FEE_PER_GAS, 5_000_000_000n);
  t.throws(() => loadConfig({ RELAYER_MAX_FEE_PER_GAS: '1.5' }), { message: /RELAYER_MAX_FEE_PER_GAS: must be a whole number of wei/ });
});

test('ENCLAVE_URL needs the measurement and the witnesses the node will trust, and the address customers reach it at', (t) => {
  t.throws(() => loadConfig({ ENCLAVE_URL: '10.0.0.5:50052', ENCLAVE_PUBLIC_URL: 'https://attest.example' }), {
    message: /ENCLAVE_URL: needs ENCLAVE_MEASUREMENT and ENCLAVE_TRUSTED_SIGNERS/,
  });
  t.throws(
    () => loadConfig({ ENCLAVE_URL: '10.0.0.5:50052', ENCLAVE_MEASUREMENT: `sha256:${'ab'.repeat(32)}`, ENCLAVE_TRUSTED_SIGNERS: `0x${'11'.repeat(20)}` }),
    { message: /ENCLAVE_PUBLIC_URL: is required with ENCLAVE_URL/ },
  );
  const config = loadConfig({
    ENCLAVE_URL: '10.0.0.5:50052',
    ENCLAVE_PUBLIC_URL: 'https://attest.example',
    ENCLAVE_MEASUREMENT: `sha256:${'ab'.repeat(32)}`,
    ENCLAVE_TRUSTED_SIGNERS: `0x${'11'.repeat(20)}`,
  });
  t.deepEqual(config.ENCLAVE_TRUSTED_SIGNERS, [`0x${'11'.repeat(20)}`]);
  const nitro = {
    ENCLAVE_URL: '10.0.0.5:50052',
    ENCLAVE_PUBLIC_URL: 'https://attest.example',
    ENCLAVE_MEASUREMENT: `pcr0:${'ab'.repeat(48)}`,
    ENCLAVE_TRUSTED_SIGNERS: `0x${'11'.repeat(20)}`,
  };
  t.throws(() => loadConfig(nitro), { message: /ENCLAVE_NITRO_ROOT: needs to name the root certificate/ });
  t.is(loadConfig({ ...nitro, ENCLAVE_NITRO_ROOT: '/etc/peer/nitro-root.pem' }).ENCLAVE_MEASUREMENT, nitro.ENCLAVE_MEASUREMENT);
  t.throws(() => loadConfig({ ...nitro, ENCLAVE_MEASUREMENT: `pcr0:${'ab'.repeat(32)}` }), {
    message: /ENCLAVE_MEASUREMENT: must be sha256: and 64 hex digits, or pcr0: and 96/,
  });
});

test('webhooks: private destinations only outside production; https for live endpoints in production only', (t) => {
  const production = {
    NODE_ENV: 'production',
    INDEXER_URL: 'indexer.internal:50051',
    ENCLAVE_PLATFORMS: 'live',
    PAYOUT_SERVICE_FEE_WALLET,
    SMTP_URL,
    RATES_URL: 'https://rates.example/usd',
    MAKER_AUTH_ORIGIN: 'https://app.peer.example',
  };
  t.throws(() => loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE: 'true' }), { message: /WEBHOOK_ALLOW_PRIVATE: must be false in production/ });
  t.false(loadConfig(production).WEBHOOK_ALLOW_PRIVATE);
  t.true(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).WEBHOOK_ALLOW_PRIVATE);
  t.throws(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' }), { message: /WEBHOOK_ALLOW_PRIVATE: must be true or false/ });

  const inProduction = destinationPolicy(loadConfig(production));
  t.deepEqual(inProduction('LIVE'), { requireHttps: true, allowPrivate: false });
  t.deepEqual(inProduction('SANDBOX'), { requireHttps: false, allowPrivate: false });
  const inDevelopment = destinationPolicy(loadConfig({}));
  t.deepEqual(inDevelopment('LIVE'), { requireHttps: false, allowPrivate: false });
});

test('makers: production needs the https origin makers sign in at', (t) => {
  const production = {
    NODE_ENV: 'production',
    INDEXER_URL: 'indexer.internal:50051',
    ENCLAVE_PLATFORMS: 'live',
    PAYOUT_SERVICE_FEE_WALLET,
    SMTP_URL,
    RATES_URL: 'https://rates.example/usd',
  };
  t.throws(() => loadConfig(production), { message: /MAKER_AUTH_ORIGIN: must be set, to an https origin, in production/ });
  t.throws(() => loadConfig({ ...production, MAKER_AUTH_ORIGIN: 'http://app.peer.example' }), {
    message: /MAKER_AUTH_ORIGIN: must be set, to an https origin/,
  });
  t.is(loadConfig({ ...production, MAKER_AUTH_ORIGIN: 'https://app.peer.example/sign-in' }).MAKER_AUTH_ORIGIN, 'https://app.peer.example');
  t.is(loadConfig({}).MAKER_AUTH_ORIGIN, undefined, 'outside production the node’s own address serves');
});

test('payout switches: rails and funding tokens off are checked against document 2’s rails and the funding catalog, and kept normalised', (t) => {
  const defaults = loadConfig({});
  t.deepEqual(defaults.PAYOUT_RAILS_OFF, []);
  t.deepEqual(defaults.PAYOUT_FUNDING_TOKENS_OFF, []);
  t.is(defaults.PAYOUT_FUNDING_DEADLINE_MS, 24 * 60 * 60 * 1000);
  t.is(defaults.PAYOUT_FUNDING_POLL_MS, 30_000);
  t.is(defaults.PAYOUT_SERVICE_FEE_WALLET, undefined);

  const config = loadConfig({
    PAYOUT_RAILS_OFF: ' routeb_133701, zelle,venmo,zelle ',
    PAYOUT_FUNDING_TOKENS_OFF: `1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48, 56:0x0000000000000000000000000000000000000000,8253038:${BTC_TOKEN_ADDRESS},1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48`,
    PAYOUT_FUNDING_DEADLINE_MS: '3600000',
    PAYOUT_FUNDING_POLL_MS: '5000',
  });
  t.deepEqual(config.PAYOUT_RAILS_OFF, ['venmo', 'zelle', 'routeb_133701'], 'in PayoutRail order, each once');
  t.deepEqual(config.PAYOUT_FUNDING_TOKENS_OFF, [
    '1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '56:0x0000000000000000000000000000000000000000',
    `8253038:${BTC_TOKEN_ADDRESS}`,
  ]);
  t.is(config.PAYOUT_FUNDING_DEADLINE_MS, 3_600_000);
  t.is(config.PAYOUT_FUNDING_POLL_MS, 5_000);

  const refused = t.throws(() => loadConfig({ PAYOUT_RAILS_OFF: 'venmo,crypto,paypal,sepa' }), { instanceOf: ConfigError });
  t.regex(refused.message, /PAYOUT_RAILS_OFF: not a payout rail: crypto, sepa /);
  t.throws(() => loadConfig({ PAYOUT_FUNDING_TOKENS_OFF: `1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48,10:${BTC_TOKEN_ADDRESS}` }), {
    message: new RegExp(`PAYOUT_FUNDING_TOKENS_OFF: not a funding token of the catalog, as <chainId>:<tokenAddress>: 10:${BTC_TOKEN_ADDRESS}$`, 'm'),
  });
});

test('the payout service fee wallet: required in production while any payout rail is on; on the local chain a dev wallet of its own by default', (t) => {
  const production = {
    NODE_ENV: 'production',
    INDEXER_URL: 'indexer.internal:50051',
    ENCLAVE_PLATFORMS: 'live',
    RATES_URL: 'https://rates.example/usd',
    MAKER_AUTH_ORIGIN: 'https://app.peer.example',
    SMTP_URL,
  };
  t.throws(() => loadConfig(production), { message: /PAYOUT_SERVICE_FEE_WALLET: is required in production while any payout rail is on/ });
  t.throws(() => loadConfig({ ...production, PAYOUT_RAILS_OFF: PAYOUT_RAILS.slice(1).join(',') }), { message: /PAYOUT_SERVICE_FEE_WALLET: is required/ });
  t.is(loadConfig({ ...production, PAYOUT_RAILS_OFF: PAYOUT_RAILS.join(',') }).PAYOUT_SERVICE_FEE_WALLET, undefined, 'with payouts off, none is needed');
  t.is(loadConfig({ ...production, PAYOUT_SERVICE_FEE_WALLET }).PAYOUT_SERVICE_FEE_WALLET, PAYOUT_SERVICE_FEE_WALLET);

  t.is<string | null, string>(payoutServiceFeeWallet(loadConfig({ PAYOUT_SERVICE_FEE_WALLET }), { localChain: true }), PAYOUT_SERVICE_FEE_WALLET);
  t.is(payoutServiceFeeWallet(loadConfig({}), { localChain: true }), localPayoutServiceFeeAccount().address);
  t.is(payoutServiceFeeWallet(loadConfig({}), { localChain: false }), null);
  t.is(payoutServiceFeeWallet(loadConfig({}), null), null);
});

test('mail: SMTP_URL is an smtp:// or smtps:// URL, refused without repeating it; MAIL_FROM an address with a display name if wanted', (t) => {
  const defaults = loadConfig({});
  t.is(defaults.SMTP_URL, undefined);
  t.is(defaults.MAIL_FROM, 'Peer payouts <payouts@localhost.invalid>');
  t.is(loadConfig({ SMTP_URL }).SMTP_URL, SMTP_URL);
  t.is(loadConfig({ SMTP_URL: 'smtp://mailpit:1025' }).SMTP_URL, 'smtp://mailpit:1025');
  for (const url of [
    'https://payouts:mail-password@smtp.example',
    'imap://payouts:mail-password@smtp.example',
    'smtp:payouts:mail-password',
    'smtp.example:465',
  ]) {
    const error = t.throws(() => loadConfig({ SMTP_URL: url }), { instanceOf: ConfigError }, url);
    t.regex(error.message, /^ {2}SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/m, url);
    t.false(error.message.includes('mail-password'), url);
  }

  for (const from of ['payouts@example.com', 'Peer payouts <payouts@example.com>', '"Peer, Inc." <payouts@example.com>', ' Peer <payouts@example.com> '])
    t.is(loadConfig({ MAIL_FROM: from }).MAIL_FROM, from.trim(), from);
  for (const from of [
    'payouts',
    'Peer payouts',
    'Peer, Inc. <payouts@example.com>',
    'a@example.com, b@example.com',
    'Peer <payouts@example.com',
    'Peer\r\nBcc: x@example.com <payouts@example.com>',
  ])
    t.throws(() => loadConfig({ MAIL_FROM: from }), { message: /MAIL_FROM: must be an address, with a display name if wanted/ }, from);
});

test('mail: production needs SMTP_URL while any payout rail is on, and not once PAYOUT_RAILS_OFF names them all', (t) => {
  const production = {
    NODE_ENV: 'production',
    INDEXER_URL: 'indexer.internal:50051',
    ENCLAVE_PLATFORMS: 'live',
    RATES_URL: 'https://rates.example/usd',
    MAKER_AUTH_ORIGIN: 'https://app.peer.example',
    PAYOUT_SERVICE_FEE_WALLET,
  };
  t.throws(() => loadConfig(production), {
    message: /^ {2}SMTP_URL: is required in production while any payout rail is on \(PAYOUT_RAILS_OFF\): a payout customer signs in with a code mailed/m,
  });
  t.throws(() => loadConfig({ ...production, PAYOUT_RAILS_OFF: PAYOUT_RAILS.slice(1).join(',') }), { message: /SMTP_URL: is required/ });
  t.is(loadConfig({ ...production, PAYOUT_RAILS_OFF: PAYOUT_RAILS.join(',') }).SMTP_URL, undefined, 'with payouts off, no mail is needed');
  t.is(loadConfig({ ...production, SMTP_URL }).SMTP_URL, SMTP_URL);
  t.is(loadConfig({ NODE_ENV: 'test' }).SMTP_URL, undefined, 'outside production the node catches its own mail');
});

test('the stand-in for MongoDB: a loopback tcp:// address, enough for a local cluster, never beside MONGODB_URI, refused in production', (t) => {
  const cluster = { NATS_URL: 'nats://127.0.0.1:4222', ID_SECRET: 'x'.repeat(32), INDEXER_ENABLED: 'false' };
  t.is(loadConfig({ ...cluster, STANDIN_STORE_URL: 'tcp://127.0.0.1:7001' }).STANDIN_STORE_URL, 'tcp://127.0.0.1:7001');
  t.throws(() => loadConfig({ STANDIN_STORE_URL: 'tcp://10.0.0.5:7001' }), { message: /STANDIN_STORE_URL: must be tcp:\/\/127\.0\.0\.1:<port>/ });
  t.throws(() => loadConfig({ STANDIN_STORE_URL: 'tcp://127.0.0.1:7001', MONGODB_URI: 'mongodb://127.0.0.1:27017' }), {
    message: /STANDIN_STORE_URL: is set beside MONGODB_URI/,
  });
  t.throws(() => loadConfig({ NODE_ENV: 'production', INDEXER_URL: 'indexer.internal:50051', STANDIN_STORE_URL: 'tcp://127.0.0.1:7001' }), {
    message: /STANDIN_STORE_URL: is refused in production/,
  });
});

test('ROTATION_LEAVE_MS: 0 unless set, and below DRAIN_TIMEOUT_MS', (t) => {
  t.is(loadConfig({}).ROTATION_LEAVE_MS, 0);
  t.is(loadConfig({ ROTATION_LEAVE_MS: '3000', DRAIN_TIMEOUT_MS: '20000' }).ROTATION_LEAVE_MS, 3000);
  t.throws(() => loadConfig({ ROTATION_LEAVE_MS: '8000' }), { message: /ROTATION_LEAVE_MS: must be below DRAIN_TIMEOUT_MS/ });
});

test('production asks each process only for what it uses: the indexer and the attestation service need no mail, rates or origins; no process starts a local chain', (t) => {
  const shared = { NODE_ENV: 'production', ENCLAVE_PLATFORMS: 'live' };
  const chain = {
    CHAIN_RPC_URL: 'https://base.example/rpc',
    CHAIN_USDC_ADDRESS: '0x0000000000000000000000000000000000000001',
    CHAIN_ESCROW_ADDRESS: '0x0000000000000000000000000000000000000002',
    CHAIN_ORCHESTRATOR_ADDRESS: '0x0000000000000000000000000000000000000003',
    INDEXER_CONFIRMATIONS: '3',
  };
  t.is(loadConfig({ ...shared, ...chain }, 'indexer').CHAIN_RPC_URL, chain.CHAIN_RPC_URL);
  t.is(loadConfig({ ...shared, INDEXER_ENABLED: 'false' }, 'enclave').NODE_ENV, 'production');
  t.throws(() => loadConfig({ ...shared, ...chain }), { message: /RATES_URL: is required in production[\s\S]*SMTP_URL/ });
  t.throws(() => loadConfig(shared, 'indexer'), {
    message: /CHAIN_RPC_URL: is required in production: without it the indexer would start a local anvil chain/,
  });
  t.throws(() => loadConfig(shared), { message: /CHAIN_RPC_URL: is required in production unless INDEXER_URL names the shared indexer/ });
  t.notThrows(() => loadConfig({ NODE_ENV: 'test' }, 'indexer'), 'outside production a local chain serves');
});
