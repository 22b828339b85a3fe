/**
 * A local chain kept in a folder between runs: anvil's state (`state.json`, which anvil
 * loads and writes itself) and where our contracts are on it (`deployment.json`, written
 * once, right after they are deployed). A node started again over the folder continues
 * the same chain, with the same deployments, deposits and balances.
 */
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getAddress, type Address } from 'viem';
import type { ChainDeployment } from './deploy.js';

export interface KeptChainFiles {
  folder: string;
  state: string;
  deployment: string;
}

export function keptChainFiles(folder: string): KeptChainFiles {
  return { folder, state: join(folder, 'state.json'), deployment: join(folder, 'deployment.json') };
}

/** The folder names a deployment whose chain state is gone: continuing would be another chain. */
export class KeptChainLostError extends Error {
  override readonly name = 'KeptChainLostError';
  constructor(readonly files: KeptChainFiles) {
    super(`the local chain's state ${files.state} is missing, though ${files.deployment} says our contracts were deployed on it`);
  }
}

/** What the folder holds: a chain to continue, nothing yet, or a deployment without its chain. */
export async function keptDeployment(files: KeptChainFiles): Promise<ChainDeployment | null> {
  const [state, deployment] = await Promise.all([exists(files.state), exists(files.deployment)]);
  if (deployment && !state) throw new KeptChainLostError(files);
  if (!deployment) {
    // A run that died between anvil's first write and the deployment's record left a chain
    // nothing was recorded against: it is put aside and a fresh one deployed.
    if (state) await rename(files.state, `${files.state}.unrecorded-${Date.now()}`);
    return null;
  }
  const saved = JSON.parse(await readFile(files.deployment, 'utf8')) as Record<keyof ChainDeployment, string | number>;
  const address = (key: keyof ChainDeployment): Address => getAddress(String(saved[key]));
  return {
    chainId: Number(saved.chainId),
    usdc: address('usdc'),
    escrow: address('escrow'),
    orchestrator: address('orchestrator'),
    verifier: address('verifier'),
    batchExecutor: address('batchExecutor'),
    depositAssertions: address('depositAssertions'),
    deployBlock: BigInt(saved.deployBlock),
  };
}

/** Whether the folder records a deployment: a chain was deployed and kept here. */
export function keptDeploymentExists(files: KeptChainFiles): Promise<boolean> {
  return exists(files.deployment);
}

/** Records the deployment, whole or not at all (a temporary file renamed over). */
export async function keepDeployment(files: KeptChainFiles, deployment: ChainDeployment): Promise<void> {
  await mkdir(files.folder, { recursive: true });
  const temporary = `${files.deployment}.tmp`;
  await writeFile(temporary, JSON.stringify({ ...deployment, deployBlock: deployment.deployBlock.toString() }, null, 2));
  await rename(temporary, files.deployment);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}
