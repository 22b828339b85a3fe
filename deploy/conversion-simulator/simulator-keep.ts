/**
 * What the local provider keeps beside a kept local chain (`DATA_DIR/chain`), so a node
 * restarted over its data finds the provider as it left it: its requests and funding
 * requests with every transfer, payouts' bridges out, what was taken and not converted yet, the Bitcoin mempool,
 * the block its watch reads from next (transfers mined while it was down are still seen),
 * and where its stand-in tokens are (deployed once per chain, not at every start).
 *
 * Written whole and synchronously at every change, through a temporary file and a rename: a
 * SIGKILL leaves the last complete state, and anvil writes the chain after the node is gone,
 * so the chain is never behind what this file says. A conversion about to pay records the
 * block it starts at first, so a restart finds what it already paid (LocalSettlement.payOnce).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode, encode } from '../../actors/index.js';
import type { Payout, SimRequest } from './conversion-requests.js';
import type { FundingRecord } from './funding-requests.js';
import type { BridgeOutRecord } from './bridge-out-desk.js';

/** A transfer of a funding request, named by both ids. */
export interface TransferRef {
  requestId: string;
  transferId: string;
}

/** A conversion or refund of a request, taken and not yet paid; `since` is the block its paying started at, once it has. */
export interface PendingConversion {
  requestId: string;
  kind: 'convert' | 'refund';
  payouts: Payout[];
  since: bigint | null;
}

export interface KeptFunding {
  records: FundingRecord[];
  due: TransferRef[];
  mempool: TransferRef[];
}

export interface KeptSimulator {
  chainId: number;
  nextBlock: bigint;
  /** Stand-in token addresses by `SYMBOL/decimals`. */
  standIns: Record<string, `0x${string}`>;
  requests: SimRequest[];
  pending: Array<[string, PendingConversion]>;
  funding: KeptFunding;
  /** Payouts' bridges out of Base; absent from a file kept before they existed. */
  bridgeOut?: BridgeOutRecord[];
}

const FILE = 'conversion-provider.json';

export class SimulatorKeep {
  readonly file: string;

  constructor(keptIn: string) {
    this.file = join(keptIn, FILE);
  }

  /** The state an earlier run left for this chain; null when there is none (a fresh chain starts afresh). */
  read(chainId: number): KeptSimulator | null {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const kept = decode<KeptSimulator>(JSON.parse(text));
    if (kept.chainId !== chainId) throw new Error(`${this.file} was kept for chain ${kept.chainId}, not ${chainId}`);
    return kept;
  }

  write(state: KeptSimulator): void {
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(encode(state)));
    renameSync(temporary, this.file);
  }
}
