/**
 * A taker buying from a seeded maker's deposit on the node's local chain, as the leaderboard
 * and deposit-bundle tests need: signal at the deposit's own rate, then the witness attests
 * the payment (for `released` of the amount), or the taker cancels.
 */
import { keccak256, parseEventLogs, toBytes, type Hex } from 'viem';
import type { SeededMaker } from '../../deploy/seed-makers.js';
import { anvilTestAccount, orchestratorAbi, type LocalChain } from '../../indexer/chain/index.js';
import { fulfilOn, paymentEvidence, witnessAttestation } from './local-attestation.js';
import { signalOn } from './local-intent.js';

/** The node's local chain registers dev account 1 as its witness when it runs no attestation service. */
export const LOCAL_WITNESS = anvilTestAccount(1);
export const TAKER = anvilTestAccount(5);

/** Resolves with the intent hash once the fulfilment (or the cancel) is mined. */
export async function buyFromSeeded(local: LocalChain, seeded: SeededMaker, amount: bigint, released: bigint | 'cancel'): Promise<Hex> {
  const paymentMethod = keccak256(toBytes(seeded.platform));
  const fiatCurrency = keccak256(toBytes(seeded.currency));
  const receipt = await local.confirm(
    await signalOn(local, TAKER, {
      depositId: seeded.depositId,
      amount,
      to: TAKER.address,
      paymentMethod,
      fiatCurrency,
      conversionRate: seeded.conversionRate,
    }),
  );
  const { intentHash, timestamp } = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' })[0]!.args;
  if (released === 'cancel') {
    await local.confirm(
      await local.walletFor(TAKER).writeContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'cancelIntent', args: [intentHash] }),
    );
  } else {
    const evidence = paymentEvidence(
      { intentHash, amount, timestamp, paymentMethod, fiatCurrency, payeeDetails: seeded.payeeDetails, conversionRate: seeded.conversionRate },
      `seeded-${intentHash}`,
    );
    await local.confirm(await fulfilOn(local, TAKER, await witnessAttestation(local, [LOCAL_WITNESS], intentHash, released, evidence)));
  }
  return intentHash;
}
