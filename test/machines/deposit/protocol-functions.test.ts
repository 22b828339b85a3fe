import test from 'ava';
import { toFunctionSelector, type AbiFunction } from 'viem';
import { batchExecutorAbi, depositAssertionsAbi, escrowAbi } from '../../../indexer/chain/index.js';
import { batchExecutorFunctionsAbi, depositAssertionsFunctionsAbi, escrowFunctionsAbi } from '../../../machines/index.js';

const selectors = (abi: readonly unknown[]) =>
  new Set((abi as AbiFunction[]).filter((item) => item.type === 'function').map((item) => `${item.name} ${toFunctionSelector(item)}`));

for (const [name, written, compiled] of [
  ['escrow', escrowFunctionsAbi, escrowAbi],
  ['deposit assertions', depositAssertionsFunctionsAbi, depositAssertionsAbi],
  ['batch executor', batchExecutorFunctionsAbi, batchExecutorAbi],
] as const) {
  test(`every ${name} function the machines name is the compiled contract's, selector for selector`, (t) => {
    const compiledSelectors = selectors(compiled);
    for (const selector of selectors(written)) t.true(compiledSelectors.has(selector), `${selector} is not in the compiled ${name}`);
  });
}
