/**
 * Makers for a fresh local chain, so the embedded node has liquidity to check out against from
 * its first start. Three anvil dev accounts (2, 3 and 4: the others sign for the deployer, the
 * witness, the relayer and the gating service) each fund one deposit per payment method and
 * currency, priced near parity, with distinct payees so each checkout knows whom it pays.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { PayeeDirectory } from '../actors/market/index.js';
import { keccak256, parseEventLogs, parseUnits, toBytes, zeroAddress, type Address, type Hex, type LocalAccount } from 'viem';
import { anvilTestAccount, escrowAbi, mockUSDCAbi, type LocalChain } from '../indexer/chain/index.js';

export interface SeededMaker {
  maker: Address;
  depositId: bigint;
  /** The platform id, as payment methods are named: the method's hash is keccak256 of it. */
  platform: string;
  /** The maker's normalised payee id on that platform. */
  payeeId: string;
  /** keccak256(payeeId): what the escrow holds and intents carry. */
  payeeDetails: Hex;
  /** ISO 4217 code. */
  currency: string;
  /** The deposit's floor: fiat per USDC, 18 decimals. */
  conversionRate: bigint;
}

interface Seed {
  account: number;
  platform: string;
  payeeId: string;
  currency: string;
  rate: string;
  usdc: string;
}

/** Payee ids in each platform's normalised form (test/support/enclave.ts PLATFORM_FIXTURES). */
const SEEDS: readonly Seed[] = [
  { account: 2, platform: 'venmo', payeeId: '3141592653', currency: 'USD', rate: '1.00', usdc: '5000' },
  { account: 2, platform: 'cashapp', payeeId: 'makermary', currency: 'USD', rate: '1.005', usdc: '3000' },
  { account: 3, platform: 'venmo', payeeId: '2718281828', currency: 'USD', rate: '1.01', usdc: '4000' },
  { account: 3, platform: 'revolut', payeeId: 'makerben', currency: 'EUR', rate: '0.925', usdc: '3000' },
  { account: 3, platform: 'wise', payeeId: '55501234', currency: 'GBP', rate: '0.795', usdc: '2000' },
  { account: 4, platform: 'zelle-chase', payeeId: 'carla@example.com', currency: 'USD', rate: '1.00', usdc: '4000' },
  { account: 4, platform: 'paypal', payeeId: 'carla@example.com', currency: 'USD', rate: '1.02', usdc: '3000' },
  { account: 4, platform: 'monzo', payeeId: '04000412345678', currency: 'GBP', rate: '0.80', usdc: '2000' },
];

const INTENT_RANGE = { min: parseUnits('1', 6), max: parseUnits('1000', 6) };

/**
 * The makers of a local chain kept in `keptIn` (kept-chain.ts): seeded on the chain's first
 * run and recorded beside it, read back on the runs that continue it.
 */
export async function keptMakers(local: LocalChain, keptIn: string, payees: PayeeDirectory, at: string, logger: Logger): Promise<SeededMaker[]> {
  const file = join(keptIn, 'makers.json');
  if (local.restored) {
    const saved = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    // A run killed while seeding left deposits without the record: they are on chain and quoted all the same.
    if (saved === null) return [];
    return (JSON.parse(saved) as Array<Record<keyof SeededMaker, string>>).map((maker) => ({
      ...maker,
      maker: maker.maker as Address,
      payeeDetails: maker.payeeDetails as Hex,
      depositId: BigInt(maker.depositId),
      conversionRate: BigInt(maker.conversionRate),
    }));
  }
  const seeded = await seedMakers(local, payees, at, logger);
  const temporary = `${file}.tmp`;
  await writeFile(
    temporary,
    JSON.stringify(seeded, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2),
  );
  await rename(temporary, file);
  return seeded;
}

/** Seeds the makers; refuses a chain whose escrow already holds deposits, where it would add a second set. */
export async function seedMakers(local: LocalChain, payees: PayeeDirectory, at: string, logger: Logger): Promise<SeededMaker[]> {
  const existing = await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'depositCount' });
  if (existing > 0n) throw new Error(`seedMakers wants a fresh local chain; the escrow ${local.escrow} already holds ${existing} deposits`);
  const seeded: SeededMaker[] = [];
  for (const account of [...new Set(SEEDS.map((seed) => seed.account))]) {
    const maker = anvilTestAccount(account);
    const seeds = SEEDS.filter((seed) => seed.account === account);
    const total = seeds.reduce((sum, seed) => sum + parseUnits(seed.usdc, 6), 0n);
    await local.mintUsdc(maker.address, total);
    const wallet = local.walletFor(maker);
    await local.confirm(await wallet.writeContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [local.escrow, total] }));
    for (const seed of seeds) {
      seeded.push(await depositFor(local, maker, seed));
      // What maker registration does for a real maker: the checkout can then tell customers whom to pay.
      await payees.register(seed.platform, seed.payeeId, at);
    }
  }
  logger.info(
    { makers: seeded.map(({ maker, depositId, platform, currency }) => ({ maker, depositId: depositId.toString(), platform, currency })) },
    'local makers seeded',
  );
  return seeded;
}

async function depositFor(local: LocalChain, maker: LocalAccount, seed: Seed): Promise<SeededMaker> {
  const wallet = local.walletFor(maker);
  const receipt = await local.confirm(
    await wallet.writeContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'createDeposit',
      args: [local.usdc, parseUnits(seed.usdc, 6), INTENT_RANGE, zeroAddress, zeroAddress],
    }),
  );
  const [received] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'DepositReceived' });
  if (!received) throw new Error(`createDeposit for ${seed.platform} ${seed.currency} emitted no DepositReceived`);
  const depositId = received.args.depositId;
  const paymentMethod = keccak256(toBytes(seed.platform));
  const payeeDetails = keccak256(toBytes(seed.payeeId));
  const conversionRate = parseUnits(seed.rate, 18);
  await local.confirm(
    await wallet.writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, paymentMethod, payeeDetails] }),
  );
  await local.confirm(
    await wallet.writeContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'setCurrencyMinRate',
      args: [depositId, paymentMethod, keccak256(toBytes(seed.currency)), conversionRate],
    }),
  );
  return { maker: maker.address, depositId, platform: seed.platform, payeeId: seed.payeeId, payeeDetails, currency: seed.currency, conversionRate };
}
