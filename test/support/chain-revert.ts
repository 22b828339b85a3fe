/** What a contract call reverted with, decoded: the tests name the custom error they expect. */
import { BaseError, ContractFunctionRevertedError } from 'viem';

/** The custom error a call reverted with, by name and arguments; rejects if the call did not revert. */
export async function revertOf(call: Promise<unknown>): Promise<{ errorName: string; args: readonly unknown[] }> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to revert');
    },
    (error: unknown) => error,
  );
  const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null;
  if (!(reverted instanceof ContractFunctionRevertedError) || reverted.data === undefined) throw error;
  return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
}
