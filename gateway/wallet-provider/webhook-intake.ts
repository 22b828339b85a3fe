/**
 * What a verified wallet-provider message does to the store, through actors only: its
 * id is claimed with the hash of its body (a `provider-message` actor), then the USDC
 * transfer it reports is recorded (a `wallet-transfer` actor whose id is the
 * transfer's identity). The claim comes first so that another body under a used id is
 * refused before anything of it is stored; a redelivery of the same body passes the
 * claim and records again, which stores nothing new but completes a first delivery
 * that was cut off between the two steps.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { CommandRejectedError } from '../../actors/errors.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { providerMessageId, providerMessageKind, walletTransferId, walletTransferKind } from '../../actors/wallet-transfers/index.js';
import type { ProviderMessageEvent, WalletTransferEvent } from '../../machines/wallet-transfer/index.js';
import { transferReported } from './balance-events.js';
import type { SignedMessage } from './signature.js';

export class WalletProviderIntake {
  constructor(
    private readonly system: ActorSystem,
    private readonly now: () => string,
  ) {}

  /** `raw` is the body as signed; `body` is it parsed, a JSON object. Answers what became of the message, for the answer's message. */
  async accept(message: SignedMessage, raw: string, body: Record<string, unknown>, log: Logger): Promise<string> {
    const reading = transferReported(body);
    const transferIds = reading.kind === 'transfer' ? [walletTransferId(reading.transfer)] : [];
    const signedAt = new Date(message.timestamp * 1000).toISOString();
    const claim = {
      type: 'ACCEPT',
      messageId: message.id,
      bodyHash: createHash('sha256').update(raw).digest('hex'),
      signedAt,
      receivedAt: this.now(),
      transferIds,
    } satisfies ProviderMessageEvent;
    const redelivered = await createdBefore(() => this.system.ask(providerMessageKind, providerMessageId(message.id), claim));
    if (reading.kind === 'ignored') return `Accepted and ignored: ${reading.reason}`;

    const { transfer } = reading;
    const transferId = walletTransferId(transfer);
    const record = { type: 'RECORD', transfer, reportedAt: signedAt } satisfies WalletTransferEvent;
    try {
      const known = await createdBefore(() => this.system.ask(walletTransferKind, transferId, record));
      return known ? 'Accepted: the transfer was stored before' : redelivered ? 'Accepted: a redelivery, the transfer stored now' : 'Accepted: transfer stored';
    } catch (error) {
      if (!(error instanceof CommandRejectedError && error.code === 'TRANSFER_CONFLICT')) throw error;
      // The provider stands by what it signed, so a retry would say the same: acknowledged, kept out, and left for an operator.
      log.warn(
        { messageId: message.id, transferId, reported: transfer },
        'wallet-provider transfer differs from the one stored under its identity; the first stands',
      );
      return 'Accepted: the transfer differs from the one stored under its identity, which stands';
    }
  }
}

/** Runs a creating ask; true when the actor existed already (and nothing changed), false when this ask created it. */
async function createdBefore(ask: () => Promise<unknown>): Promise<boolean> {
  try {
    await ask();
    return false;
  } catch (error) {
    if (error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS') return true;
    throw error;
  }
}
