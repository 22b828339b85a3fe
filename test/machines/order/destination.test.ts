import test from 'ava';
import { resolveDestination, type OrderAccount } from '../../../machines/order/index.js';

const EVM_WALLET = '0x1111111111111111111111111111111111111111';
const SOLANA_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const SOLANA_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const account = (overrides: Partial<OrderAccount> = {}): OrderAccount => ({
  environment: 'LIVE',
  tier: 'BASE',
  dynamicOrdersEnabled: true,
  enabledRails: ['venmo'],
  liveBridges: true,
  evmWalletAddress: EVM_WALLET,
  solanaWalletAddress: SOLANA_WALLET,
  ...overrides,
});

test('nothing sent: USDC on Base to the merchant’s EVM wallet', (t) => {
  t.deepEqual(resolveDestination({}, account()), {
    ok: true,
    destinationAddress: EVM_WALLET,
    destinationToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    destinationChainId: '8453',
  });
});

test('Solana: the merchant’s Solana wallet by default, or the address sent as written, and the USDC mint', (t) => {
  t.deepEqual(resolveDestination({ destinationChainId: 792703809 }, account()), {
    ok: true,
    destinationAddress: SOLANA_WALLET,
    destinationToken: SOLANA_USDC,
    destinationChainId: '792703809',
  });
  const other = 'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx';
  t.like(resolveDestination({ destinationChainId: 792703809, destinationAddress: other, destinationToken: SOLANA_USDC }, account()), {
    ok: true,
    destinationAddress: other,
    destinationToken: SOLANA_USDC,
  });
});

test('a chain outside the catalog is refused naming destinationChainId, and the message lists the supported ones', (t) => {
  const refused = resolveDestination({ destinationChainId: 999, destinationAddress: EVM_WALLET }, account());
  t.like(refused, { ok: false, code: 'FIELD_REFUSED', field: 'destinationChainId' });
  t.regex(refused.ok ? '' : refused.message, /chain 999 is not supported.*8453 \(Base\).*792703809 \(Solana\)/);
});

test('a token outside the catalog for the chain is refused naming destinationToken', (t) => {
  for (const destinationToken of ['0x4200000000000000000000000000000000000006', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'DOGE']) {
    t.like(resolveDestination({ destinationToken }, account()), { ok: false, code: 'FIELD_REFUSED', field: 'destinationToken' }, destinationToken);
  }
  t.like(resolveDestination({ destinationChainId: 792703809, destinationToken: SOLANA_USDC.toLowerCase() }, account()), {
    ok: false,
    field: 'destinationToken',
  });
  t.like(resolveDestination({ destinationToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' }, account()), {
    ok: true,
    destinationToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  });
});

test('an address of the other kind of chain is refused naming destinationAddress', (t) => {
  t.like(resolveDestination({ destinationChainId: 792703809, destinationAddress: EVM_WALLET }, account()), {
    ok: false,
    code: 'FIELD_REFUSED',
    field: 'destinationAddress',
    message: 'must be a Solana address (base58, 32 bytes) on chain 792703809 (Solana)',
  });
  t.like(resolveDestination({ destinationChainId: 8453, destinationAddress: SOLANA_WALLET }, account()), {
    ok: false,
    field: 'destinationAddress',
    message: 'must be an EVM address (0x and 40 hex digits) on chain 8453 (Base)',
  });
});

test('no address sent and no wallet of the chain’s kind on file is DESTINATION_REQUIRED', (t) => {
  t.like(resolveDestination({ destinationChainId: 792703809 }, account({ solanaWalletAddress: null })), { ok: false, code: 'DESTINATION_REQUIRED' });
  t.like(resolveDestination({}, account({ evmWalletAddress: null })), { ok: false, code: 'DESTINATION_REQUIRED' });
  t.like(resolveDestination({ destinationAddress: EVM_WALLET }, account({ evmWalletAddress: null })), { ok: true });
});

test('a bridged chain needs a node that bridges live payments, for a live order, and the merchant’s EVM wallet on Base for refunds', (t) => {
  const arbitrum = { destinationChainId: 42161, destinationAddress: EVM_WALLET };
  t.like(resolveDestination(arbitrum, account({ liveBridges: false })), { ok: false, field: 'destinationChainId' });
  const refused = resolveDestination(arbitrum, account({ liveBridges: false }));
  t.regex(refused.ok ? '' : refused.message, /which this node runs for sandbox orders only/);
  t.true(resolveDestination(arbitrum, account({ environment: 'SANDBOX', liveBridges: false })).ok);
  t.true(resolveDestination({ destinationChainId: 8453 }, account({ liveBridges: false })).ok);
  const walletless = resolveDestination({ destinationChainId: 792703809, destinationAddress: SOLANA_WALLET }, account({ evmWalletAddress: null }));
  t.like(walletless, { ok: false, field: 'destinationChainId' });
  t.regex(walletless.ok ? '' : walletless.message, /set evmWalletAddress first/);
});
