/**
 * The effects of an atomic deposit creation. They run at least once, so each is safe to run
 * again: the relayer's transaction id is derived from the request and the submission, so a second
 * run finds the transaction the first one prepared (and reads the id it was built for from it),
 * the batch's executor nonce is derived likewise, and reports carry the effect's id.
 */
import {
  atomicBatch,
  batchNonce,
  batchTransactionId,
  batchTypedData,
  executeData,
  type depositMachine,
  reservedIdOf,
  type DepositEvent,
  type Hex,
  type SetupCall,
} from '../../machines/index.js';
import type { EffectContext, EffectHandlers } from '../runtime/actor-kind.js';
import { reportToSelf } from '../runtime/effect-report.js';
import type { Relayer } from '../relayer/relayer.js';
import type { DepositChain } from '../adapters/chain/deposit-chain.js';
import { reserveDepositId, type ReservationViews } from './deposit-ids.js';
import type { EmbeddedWalletProvider } from '../adapters/wallet-provider/embedded-wallets.js';

/** What the relayer's transaction of a batch is for, in its view and logs. */
export const ATOMIC_CREATE_PURPOSE = 'atomicCreateDeposit';

export interface DepositEffectsOptions {
  chain: DepositChain;
  wallets: EmbeddedWalletProvider;
  relayer: Relayer;
  deposits: () => ReservationViews;
  /** How long a signed batch stays valid on chain, in seconds: a batch stuck longer reverts and is submitted again. */
  batchTtlSeconds: bigint;
}

interface SubmitParams {
  requestId: string;
  attempt: number;
  wallet: Hex;
  depositId: bigint | null;
  calls: SetupCall[];
}

interface CheckParams {
  requestId: string;
  attempt: number;
  wallet: Hex;
  depositId: bigint;
}

export function depositEffects(options: DepositEffectsOptions): EffectHandlers<typeof depositMachine> {
  const { chain, wallets, relayer } = options;
  return {
    async submitBatch(params: SubmitParams, context: EffectContext) {
      const transactionId = batchTransactionId(params.requestId, params.attempt);
      const prepared = await relayer.read(transactionId);
      if (prepared) {
        await reportToSelf<DepositEvent>(context, {
          type: 'BATCH_SUBMITTED',
          attempt: params.attempt,
          depositId: reservedIdOf(prepared.data as Hex),
          transactionId,
          at: context.clock.now(),
        });
        return;
      }
      const wallet = await wallets.wallet(params.wallet);
      if (!wallet) {
        await reportToSelf<DepositEvent>(context, {
          type: 'SUBMISSION_REFUSED',
          attempt: params.attempt,
          failure: { code: 'EMBEDDED_WALLET_NOT_FOUND', message: `the wallet provider holds no embedded wallet ${params.wallet}` },
          at: context.clock.now(),
        });
        return;
      }
      const depositId = params.depositId ?? (await reserveDepositId(chain, options.deposits(), params.requestId));
      const batch = atomicBatch(params.calls, depositId, wallet.address, chain.targets);
      const deadline = (await chain.latestBlockTime()) + options.batchTtlSeconds;
      const nonce = batchNonce(params.requestId, params.attempt);
      const signature = await wallet.signBatch(batchTypedData(wallet.address, chain.targets.chainId, batch, nonce, deadline));
      const authorizationList = (await chain.delegatesToExecutor(wallet.address))
        ? []
        : [
            await wallet.signAuthorization({
              contractAddress: chain.targets.batchExecutor,
              chainId: chain.targets.chainId,
              nonce: await chain.accountNonce(wallet.address),
            }),
          ];
      await relayer.send(transactionId, {
        to: wallet.address,
        data: executeData(batch, nonce, deadline, signature),
        value: 0n,
        purpose: ATOMIC_CREATE_PURPOSE,
        owner: { kind: 'deposit', id: params.requestId },
        authorizationList,
      });
      context.logger.info(
        { requestId: params.requestId, attempt: params.attempt, depositId: depositId.toString(), transactionId },
        'atomic-create batch handed to the relayer',
      );
      await reportToSelf<DepositEvent>(context, { type: 'BATCH_SUBMITTED', attempt: params.attempt, depositId, transactionId, at: context.clock.now() });
    },

    async checkDeposit(params: CheckParams, context: EffectContext) {
      const depositor = await chain.depositorOf(params.depositId);
      const held = depositor !== null && depositor.toLowerCase() === params.wallet.toLowerCase();
      await reportToSelf<DepositEvent>(context, { type: 'DEPOSIT_CHECKED', attempt: params.attempt, held, at: context.clock.now() });
    },
  };
}
