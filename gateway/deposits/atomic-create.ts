/**
 * Atomic deposit creation for a signed-in maker (document 3; docs/atomic-create.md). The gateway
 * checks the calls, reserves the deposit id and hands the request to its `deposit` actor, then
 * waits, a bounded time, until the batch is with the chain: the 201 carries its transaction hash.
 * A request that outlasts the wait goes on; asking again with the same requestId follows it.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DepositChain, EmbeddedWalletProvider } from '../../actors/deposits/index.js';
import { reserveDepositId } from '../../actors/deposits/index.js';
import { CommandRejectedError } from '../../actors/errors.js';
import { depositKind, transactionKind, type DepositView } from '../../actors/kinds/index.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { canonicalJson, checkAtomicCalls, type AtomicCalls, type DepositRequest, type Hex } from '../../machines/index.js';
import { ApiError } from '../envelope.js';
import type { AtomicCreateBody } from '../schemas/atomic-create-schemas.js';

export interface AtomicCreateSettings {
  chain: DepositChain;
  /** Null when the node knows no wallet provider: every request is a 503. */
  wallets: EmbeddedWalletProvider | null;
  /** How long a request waits for its batch to be sent (ATOMIC_CREATE_WAIT_MS). */
  waitMs: number;
}

export interface AtomicCreateResult {
  chainId: number;
  depositId: string;
  escrowAddress: string;
  transactionHash: string;
}

const POLL_MS = 20;
/** What a 503 tells the client to wait before asking again, in seconds. */
const RETRY_AFTER_SECONDS = 2;

/** Failures of a request, as its POST answers them. */
const FAILURE_ANSWERS = {
  CALLDATA_REVERTS: 400,
  EMBEDDED_WALLET_NOT_FOUND: 404,
  SUBMISSION_FAILED: 502,
} as const;

export class AtomicCreate {
  constructor(
    private readonly system: ActorSystem,
    private readonly settings: AtomicCreateSettings | null,
    private readonly now: () => number,
  ) {}

  async create(wallet: string, body: AtomicCreateBody): Promise<AtomicCreateResult> {
    const settings = this.available();
    const requestId = body.requestId.toLowerCase();
    if (!(await settings.wallets.wallet(wallet as Hex))) {
      throw new ApiError(404, `The wallet provider holds no embedded wallet ${wallet}`, 'EMBEDDED_WALLET_NOT_FOUND');
    }
    const checked = checkAtomicCalls(body.calls as AtomicCalls, settings.chain.targets);
    if ('code' in checked) throw new ApiError(400, checked.message, checked.code);
    // Of the calls as decoded and encoded again: the same calls in other letter case are the same request.
    const fingerprint = createHash('sha256')
      .update(canonicalJson({ wallet: wallet.toLowerCase(), calls: checked.calls.map(({ field, data }) => ({ field, data })) }))
      .digest('hex');

    let held = await this.read(requestId);
    if (!held) {
      const request: DepositRequest = {
        requestId,
        wallet: wallet as Hex,
        chainId: settings.chain.targets.chainId,
        escrow: settings.chain.targets.escrow,
        fingerprint,
        calls: checked.calls,
        amount: checked.amount,
        depositId: await reserveDepositId(settings.chain, this.system.views(depositKind), null),
        at: this.now(),
      };
      let replied: DepositView | null = null;
      try {
        // The deposit kind has no reply of its own, so the runtime answers with the deposit's view.
        const reply: DepositView | undefined = await this.system.ask(
          depositKind,
          requestId,
          { type: 'REQUEST', ...request },
          { messageId: `atomic-create:${requestId}:${fingerprint}` },
        );
        replied = reply ?? null;
      } catch (error) {
        // A concurrent request under this id won the actor: it is compared below like any earlier one.
        if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
      }
      held = replied ?? (await this.read(requestId));
    }
    if (!held || held.walletAddress !== wallet.toLowerCase() || held.fingerprint !== fingerprint) {
      throw new ApiError(409, `requestId ${requestId} was used for a different request`, 'REQUEST_ID_CONFLICT');
    }
    return this.settle(requestId, settings.waitMs, held);
  }

  async status(wallet: string, requestId: string): Promise<DepositView> {
    this.available();
    const view = await this.read(requestId.toLowerCase());
    // Another wallet's request is as unknown as one never made.
    if (!view || view.walletAddress !== wallet.toLowerCase()) throw new ApiError(404, `No atomic-create request ${requestId}`, 'REQUEST_NOT_FOUND');
    return view;
  }

  private available(): AtomicCreateSettings & { wallets: EmbeddedWalletProvider } {
    if (!this.settings?.wallets) {
      const message = 'Atomic deposit creation is not available on this node: it has no chain, relayer or wallet provider';
      throw new ApiError(503, message, 'TEMPORARILY_UNAVAILABLE', null, RETRY_AFTER_SECONDS);
    }
    return this.settings as AtomicCreateSettings & { wallets: EmbeddedWalletProvider };
  }

  private async read(requestId: string): Promise<DepositView | null> {
    const doc = await this.system.views(depositKind).findOne({ _id: requestId }, { projection: { view: 1 } });
    return doc?.view ?? null;
  }

  /**
   * Waits until the batch is sent (its hash known), confirmed or failed, and answers that.
   * `held` is the view create just compared, so the first look needs no read.
   */
  private async settle(requestId: string, waitMs: number, held: DepositView): Promise<AtomicCreateResult> {
    const deadline = Date.now() + waitMs;
    for (let view = held; ; view = (await this.read(requestId))!) {
      if (view.status === 'failed') {
        const failure = view.failure!;
        throw new ApiError(FAILURE_ANSWERS[failure.code], failure.message, failure.code);
      }
      const hash = view.transactionHash ?? (view.transactionId ? await this.sentHash(view.transactionId) : null);
      if (hash) return { chainId: view.chainId, depositId: view.depositId, escrowAddress: view.escrowAddress, transactionHash: hash };
      if (Date.now() >= deadline) {
        const message = `Request ${requestId} is still being submitted; send it again with the same requestId to follow it`;
        throw new ApiError(503, message, 'TEMPORARILY_UNAVAILABLE', null, RETRY_AFTER_SECONDS);
      }
      await sleep(POLL_MS);
    }
  }

  /** The hash of the batch's transaction once it is signed and not known to have failed. */
  private async sentHash(transactionId: string): Promise<string | null> {
    const doc = await this.system.views(transactionKind).findOne({ _id: transactionId }, { projection: { view: 1 } });
    const view = doc?.view;
    return view?.hash && view.status !== 'FAILED' && view.status !== 'DROPPED' ? view.hash : null;
  }
}
