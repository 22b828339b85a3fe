/**
 * The stake compensation port on the relayer (docs/chargebacks.md): `compensateChargeback` sent from
 * the relayer's wallet, the escrow's dispute arbiter. The transaction's id is made from the dispute
 * id, so asking twice for one dispute sends one transaction and answers its hash both times.
 */
import { encodeFunctionData, type Hex } from 'viem';
import { idHash } from '../../../machines/id-hash.js';
import { escrowAbi } from '../../../indexer/chain/index.js';
import type { Relayer } from '../../relayer/index.js';
import { ChargebackRefusedError, type StakeCompensation, type StakeCompensationRequest } from '../../chain/stake-compensation.js';

const COMPENSATE_PURPOSE = 'compensateChargeback';

/** One transaction per dispute: the relayer answers the one already prepared when asked again. */
const compensationTransactionId = (disputeId: string) => `chargeback-${idHash(disputeId)}`;

export interface RelayedStakeCompensationOptions {
  relayer: Pick<Relayer, 'send' | 'read'>;
  escrow: Hex;
  /** How long to wait for the transaction to be signed and sent, in real milliseconds. */
  sendTimeoutMs?: number;
  /** Real-time pause between reads of the transaction while it is being prepared. */
  pollMs?: number;
}

export class RelayedStakeCompensation implements StakeCompensation {
  readonly #o: Required<RelayedStakeCompensationOptions>;

  constructor(options: RelayedStakeCompensationOptions) {
    this.#o = { sendTimeoutMs: 30_000, pollMs: 50, ...options };
  }

  async compensate({ intentHash, disputeId, amountUsdc }: StakeCompensationRequest): Promise<{ transactionHash: Hex }> {
    if (amountUsdc <= 0n) throw new ChargebackRefusedError('a chargeback compensates a positive amount of USDC');
    const id = compensationTransactionId(disputeId);
    const data = encodeFunctionData({ abi: escrowAbi, functionName: 'compensateChargeback', args: [intentHash, disputeId, amountUsdc] });
    let view = await this.#o.relayer.send(id, { to: this.#o.escrow, data, value: 0n, purpose: COMPENSATE_PURPOSE, owner: null });
    const deadline = Date.now() + this.#o.sendTimeoutMs;
    for (;;) {
      const outcome = view.outcome;
      if (outcome && outcome.status !== 'MINED') {
        throw new ChargebackRefusedError(`the escrow did not record the chargeback: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`);
      }
      if (view.hash) return { transactionHash: view.hash as Hex };
      if (Date.now() > deadline) throw new Error(`the compensation transaction ${id} was not sent within ${this.#o.sendTimeoutMs} ms`);
      // Real time, not the actor clock: the relayer signs and broadcasts as soon as it can, whatever a test clock says.
      await new Promise((resolve) => setTimeout(resolve, this.#o.pollMs));
      view = (await this.#o.relayer.read(id)) ?? view;
    }
  }
}
