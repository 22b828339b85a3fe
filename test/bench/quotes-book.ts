/**
 * Makers' deposits for the quotes benchmark, made on the node's local chain as makers make
 * them (deploy/seed-makers.ts does the same for the three seeded makers): each maker is
 * funded, approves the escrow, creates its deposits and names on each one or two payment
 * methods (its payee on that platform) and, per method, one or more currencies with a
 * floor rate. The mix is drawn from a seeded generator so every run builds the same book:
 * ten platforms weighted roughly by how common they are, USD, EUR and GBP where the rail
 * sends them, floors from 0.5% under to 4% over the reference rate, sizes from 50 to
 * 10,000 USDC, and intent ranges of which a few do not admit a 25 USDC order. The makers
 * register their payees with the node (payments-node.ts), as document 3's maker endpoints
 * will let them, so their deposits are quoted.
 *
 * Transactions are signed here with explicit nonces and fixed gas limits and held by anvil
 * (automine off while the book is built), then mined in blocks of many: the makers' USDC,
 * then their approvals and deposits, then (with the ids from the receipts) the methods and
 * rates. Automine is on again before the book is waited for.
 */
import {
  createPublicClient,
  encodeFunctionData,
  http,
  keccak256,
  parseEventLogs,
  parseUnits,
  toBytes,
  zeroAddress,
  type Address,
  type Hex,
  type LocalAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { LocalRateProvider } from '../../actors/adapters/rates/rate-source.js';
import { anvilTestAccount, escrowAbi, mockUSDCAbi } from '../../indexer/chain/index.js';
import { LOCAL_DEPLOYER_INDEX } from '../../indexer/chain/dev-accounts.js';
import { LOOPBACK_POLLING_MS, rpcChain } from '../../indexer/chain/rpc.js';
import { RAIL_CURRENCIES, type FiatRail } from '../../machines/rails.js';
import type { PaymentsNode } from './payments-support.js';

/** Platforms a deposit can name, with how often one is picked. */
const PLATFORMS: ReadonlyArray<[platform: string, rail: FiatRail, weight: number]> = [
  ['venmo', 'venmo', 20],
  ['cashapp', 'cashapp', 14],
  ['zelle-chase', 'zelle', 8],
  ['zelle-bofa', 'zelle', 5],
  ['zelle-citi', 'zelle', 4],
  ['paypal', 'paypal', 12],
  ['wise', 'wise', 10],
  ['revolut', 'revolut', 12],
  ['monzo', 'monzo', 6],
  ['chime', 'chime', 9],
];
const TOTAL_WEIGHT = PLATFORMS.reduce((sum, [, , weight]) => sum + weight, 0);

const GAS = { mint: 120_000n, approve: 120_000n, createDeposit: 500_000n, setPaymentMethod: 150_000n, setCurrencyMinRate: 150_000n };
const FEES = { maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

interface PlannedDeposit {
  amount: bigint;
  range: { min: bigint; max: bigint };
  methods: Array<{ platform: string; currencies: Array<{ currency: string; rate: bigint }> }>;
}

interface Maker {
  account: LocalAccount;
  /** Its payee id on each platform, in the platform's usual form. */
  payee(platform: string): string;
  deposits: PlannedDeposit[];
}

/** mulberry32: a small seeded generator, so every run draws the same book. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

function payeeId(platform: string, maker: number): string {
  const digits = (n: number) =>
    String(1_000_000_000 + maker * 7_919)
      .padStart(n, '7')
      .slice(-n);
  if (platform === 'venmo') return digits(10);
  if (platform === 'wise') return digits(8);
  if (platform === 'monzo') return digits(14);
  if (platform.startsWith('zelle') || platform === 'paypal') return `maker${maker}@example.com`;
  return `benchmaker${maker}`;
}

/** The reference rate of `currency` (fiat per USD), 18 decimals. */
function reference(currency: string): bigint {
  const sixDecimals = currency === 'USD' ? 1_000_000n : LocalRateProvider.DEFAULT_RATES[currency]!;
  return sixDecimals * 10n ** 12n;
}

function planDeposit(random: () => number): PlannedDeposit {
  const amount = parseUnits(String(50 + Math.floor(random() * 9_951)), 6);
  // One in twenty only takes intents above 25 USDC.
  const min = parseUnits(String(random() < 0.05 ? 50 : pick(random, [1, 2, 5, 10])), 6);
  const maxWanted = parseUnits(String(pick(random, [250, 500, 1_000, 2_500])), 6);
  const range = { min, max: maxWanted < amount ? maxWanted : amount };
  const methodCount = random() < 0.6 ? 1 : 2;
  const methods: PlannedDeposit['methods'] = [];
  while (methods.length < methodCount) {
    let draw = random() * TOTAL_WEIGHT;
    const [platform, rail] = PLATFORMS.find(([, , weight]) => (draw -= weight) < 0) ?? PLATFORMS[0]!;
    if (methods.some((method) => method.platform === platform)) continue;
    const offered = RAIL_CURRENCIES[rail];
    // The rail's home currency always, each other one it sends one time in three.
    const currencies = offered.filter((currency, i) => i === 0 || random() < 1 / 3);
    methods.push({
      platform,
      currencies: currencies.map((currency) => {
        const spreadBps = BigInt(Math.floor(-50 + random() * 451));
        return { currency, rate: (reference(currency) * (10_000n + spreadBps)) / 10_000n };
      }),
    });
  }
  return { amount, range, methods };
}

/**
 * Adds `count` deposits from `makerCount` new makers on the node's chain and waits, for at
 * most `timeoutMs`, until the liquidity book holds them with every fact about them; answers
 * how many deposits the book holds then.
 */
export async function addDeposits(
  node: PaymentsNode,
  count: number,
  makerCount: number,
  random: () => number,
  timeoutMs = 120_000,
): Promise<{ deposits: number; transactions: number; chainSeconds: number; bookSeconds: number }> {
  const started = performance.now();
  const chain = rpcChain(node.rpcUrl, node.chainId);
  const client = createPublicClient({ chain, transport: http(node.rpcUrl, { batch: { batchSize: 500 } }), pollingInterval: LOOPBACK_POLLING_MS });
  const firstMaker = Math.floor(random() * 1e6);
  const makers: Maker[] = Array.from({ length: Math.min(makerCount, count) }, (_, i) => ({
    account: privateKeyToAccount(generatePrivateKey()),
    payee: (platform: string) => payeeId(platform, firstMaker + i),
    deposits: [],
  }));
  for (let i = 0; i < count; i++) makers[i % makers.length]!.deposits.push(planDeposit(random));

  interface Unsigned {
    account: LocalAccount;
    nonce: number;
    to: Address;
    data: Hex;
    gas: bigint;
  }
  let transactions = 0;
  /** Signs and sends every transaction while anvil holds them, then mines until none is pending; answers their receipts, all successful. */
  const mineAll = async (batch: Unsigned[]) => {
    transactions += batch.length;
    const hashes: Hex[] = [];
    for (let i = 0; i < batch.length; i += 500) {
      const signed = await Promise.all(
        batch.slice(i, i + 500).map(({ account, ...tx }) => account.signTransaction!({ ...tx, chainId: node.chainId, type: 'eip1559', ...FEES })),
      );
      hashes.push(...(await Promise.all(signed.map((serializedTransaction) => client.sendRawTransaction({ serializedTransaction })))));
    }
    for (let blocks = 0; ; blocks++) {
      const { pending } = (await client.request({ method: 'txpool_status' as never })) as { pending: Hex };
      if (BigInt(pending) === 0n) break;
      if (blocks > batch.length) throw new Error(`anvil still holds ${BigInt(pending)} transactions after ${blocks} blocks`);
      await client.request({ method: 'evm_mine' as never });
    }
    const receipts = [];
    for (let i = 0; i < hashes.length; i += 500)
      receipts.push(...(await Promise.all(hashes.slice(i, i + 500).map((hash) => client.getTransactionReceipt({ hash })))));
    const reverted = receipts.find((receipt) => receipt.status !== 'success');
    if (reverted) throw new Error(`transaction ${reverted.transactionHash} reverted`);
    return receipts;
  };

  // Held and mined in blocks of many: anvil's automine would mine one block per transaction, at about a hundred a second.
  await client.request({ method: 'evm_setAutomine' as never, params: [false] as never });
  try {
    // Gas for each maker, then its USDC, minted by the deployer (only the owner mints).
    const deployer = anvilTestAccount(LOCAL_DEPLOYER_INDEX);
    const deployerNonce = await client.getTransactionCount({ address: deployer.address, blockTag: 'pending' });
    for (const maker of makers) await client.request({ method: 'anvil_setBalance' as never, params: [maker.account.address, '0x3635c9adc5dea00000'] as never });
    const totalOf = (maker: Maker) => maker.deposits.reduce((sum, deposit) => sum + deposit.amount, 0n);
    await mineAll(
      makers.map((maker, i) => ({
        account: deployer,
        nonce: deployerNonce + i,
        to: node.usdc,
        data: encodeFunctionData({ abi: mockUSDCAbi, functionName: 'mint', args: [maker.account.address, totalOf(maker)] }),
        gas: GAS.mint,
      })),
    );

    // Each maker approves the escrow and creates its deposits, in its nonces' order; their ids come from the receipts.
    const creates: Unsigned[] = [];
    const createdBy: Array<{ maker: Maker; deposit: PlannedDeposit }> = [];
    const nonces = new Map<Maker, number>();
    const next = (maker: Maker) => {
      const nonce = nonces.get(maker) ?? 0;
      nonces.set(maker, nonce + 1);
      return nonce;
    };
    for (const maker of makers) {
      creates.push({
        account: maker.account,
        nonce: next(maker),
        to: node.usdc,
        data: encodeFunctionData({ abi: mockUSDCAbi, functionName: 'approve', args: [node.escrow, totalOf(maker)] }),
        gas: GAS.approve,
      });
      for (const deposit of maker.deposits) {
        const data = encodeFunctionData({
          abi: escrowAbi,
          functionName: 'createDeposit',
          args: [node.usdc, deposit.amount, deposit.range, zeroAddress, zeroAddress],
        });
        creates.push({ account: maker.account, nonce: next(maker), to: node.escrow, data, gas: GAS.createDeposit });
        createdBy.push({ maker, deposit });
      }
    }
    const createReceipts = (await mineAll(creates)).filter((receipt) => receipt.to?.toLowerCase() === node.escrow.toLowerCase());

    const settings: Unsigned[] = [];
    for (const [i, receipt] of createReceipts.entries()) {
      const [received] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'DepositReceived' });
      if (!received) throw new Error('createDeposit emitted no DepositReceived');
      const { maker, deposit } = createdBy[i]!;
      const { depositId } = received.args;
      for (const method of deposit.methods) {
        const paymentMethod = keccak256(toBytes(method.platform));
        const payee = keccak256(toBytes(maker.payee(method.platform)));
        settings.push({
          account: maker.account,
          nonce: next(maker),
          to: node.escrow,
          data: encodeFunctionData({ abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, paymentMethod, payee] }),
          gas: GAS.setPaymentMethod,
        });
        for (const { currency, rate } of method.currencies) {
          const data = encodeFunctionData({
            abi: escrowAbi,
            functionName: 'setCurrencyMinRate',
            args: [depositId, paymentMethod, keccak256(toBytes(currency)), rate],
          });
          settings.push({ account: maker.account, nonce: next(maker), to: node.escrow, data, gas: GAS.setCurrencyMinRate });
        }
      }
    }
    await mineAll(settings);
  } finally {
    await client.request({ method: 'evm_setAutomine' as never, params: [true] as never });
  }
  const block = Number(await client.getBlockNumber({ cacheTime: 0 }));
  const chainSeconds = (performance.now() - started) / 1000;

  const payees = makers.flatMap((maker) =>
    [...new Set(maker.deposits.flatMap((deposit) => deposit.methods.map((method) => method.platform)))].map((platform) => ({
      platform,
      payeeId: maker.payee(platform),
    })),
  );
  await node.ask({ op: 'registerPayees', payees });
  const { deposits } = (await node.ask({ op: 'bookAt', block, timeoutMs })) as { deposits: number };
  return { deposits, transactions, chainSeconds, bookSeconds: (performance.now() - started) / 1000 - chainSeconds };
}

/** Waits until the book holds every deposit the chain has now (the seeded makers' at start); answers how many. */
export async function bookNow(node: PaymentsNode, timeoutMs = 60_000): Promise<number> {
  const client = createPublicClient({ chain: rpcChain(node.rpcUrl, node.chainId), transport: http(node.rpcUrl) });
  const block = Number(await client.getBlockNumber({ cacheTime: 0 }));
  const { deposits } = (await node.ask({ op: 'bookAt', block, timeoutMs })) as { deposits: number };
  return deposits;
}
