/**
 * How the kill tests catch a node between its fulfilment being mined and its learning of it:
 * an indexer over the local chain whose view of the head the test can cap, and a JSON-RPC gate
 * the node reaches the chain through that, on the node's fulfillIntent, caps the indexer at the
 * block before (so no IntentFulfilled can be logged), forwards it, answers, and holds every call
 * after it (payment-rpc-gate.ts). `lift()` lets the indexer read on. Another send can close it
 * instead (`closesOn`): the chargeback kill test closes it on the escrow's compensateChargeback.
 */
import type { Logger } from 'pino';
import { decodeFunctionData, parseTransaction, type Hex, type PublicClient } from 'viem';
import { EmbeddedStore } from '../../actors/index.js';
import { openIndexerCollections } from '../../deploy/chain.js';
import { orchestratorAbi, type LocalChain } from '../../indexer/chain/index.js';
import { startIndexer } from '../../indexer/indexer-server.js';
import { RpcGate } from './payment-rpc-gate.js';

export async function fulfilCapture(local: LocalChain, logger: Logger, closesOn?: (raw: Hex) => boolean) {
  let headCap: bigint | null = null;
  const capped = new Proxy(local.publicClient as PublicClient, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'getBlockNumber') return value;
      return async (args: Parameters<PublicClient['getBlockNumber']>[0]) => {
        const head = await (value as PublicClient['getBlockNumber'])(args);
        return headCap !== null && headCap < head ? headCap : head;
      };
    },
  });
  const collections = await openIndexerCollections(new EmbeddedStore(), local.chainId);
  const indexer = await startIndexer({
    client: capped,
    contracts: { chainId: local.chainId, usdc: local.usdc, escrow: local.escrow, orchestrator: local.orchestrator },
    collections,
    logger,
    address: '127.0.0.1:0',
    startBlock: Number(local.deployBlock),
    pollMs: 20,
  });
  const isFulfil = (raw: Hex) => {
    try {
      const transaction = parseTransaction(raw);
      return (
        transaction.to?.toLowerCase() === local.orchestrator.toLowerCase() &&
        decodeFunctionData({ abi: orchestratorAbi, data: transaction.data! }).functionName === 'fulfillIntent'
      );
    } catch {
      return false;
    }
  };
  const gate = await RpcGate.start(local.rpcUrl, {
    closesOn: closesOn ?? isFulfil,
    beforeClosing: async () => {
      headCap = await local.publicClient.getBlockNumber({ cacheTime: 0 });
    },
  });
  return {
    indexer,
    collections,
    gate,
    /** The head the indexer is capped at; null when it reads freely. */
    cap: () => headCap,
    lift: () => {
      headCap = null;
    },
  };
}
