/**
 * The protocol functions an atomic deposit creation may call, by signature: the escrow's, the
 * deposit assertions' and ERC-20 approve. Written here, not imported from the compiled artifacts,
 * because machines import nothing outside machines/; a test holds them to the compiled ABIs.
 */
import { erc20Abi, parseAbi } from 'viem';

export const escrowFunctionsAbi = parseAbi([
  'struct Range { uint256 min; uint256 max; }',
  'function createDeposit(address token, uint256 amount, Range intentAmountRange, address delegate, address intentGuardian) returns (uint256 depositId)',
  'function setRateManager(uint256 depositId, address rateManager)',
  'function setPaymentMethod(uint256 depositId, bytes32 paymentMethod, bytes32 payee)',
  'function setCurrencyMinRate(uint256 depositId, bytes32 paymentMethod, bytes32 currency, uint256 minRate)',
  'function setRateBounds(uint256 depositId, bytes32 paymentMethod, bytes32 currency, Range bounds)',
  'function setIntentAmountRange(uint256 depositId, Range intentAmountRange)',
  'function setPrivate(uint256 depositId, bool isPrivate)',
  'function setSellerAutomatedRelease(uint256 depositId, bool enabled)',
  'function setDisputeProtectionEnabled(uint256 depositId, bool enabled)',
  // Known so that a call of one reads as the unsafe call it is, not as unknown bytes.
  'function addFunds(uint256 depositId, uint256 amount)',
  'function withdrawDeposit(uint256 depositId)',
  'function updateMinConversionRate(uint256 depositId, bytes32 paymentMethod, bytes32 currency, uint256 rate)',
]);

export const depositAssertionsFunctionsAbi = parseAbi([
  'function assertNextDepositId(address escrow, uint256 reserved) view',
  'function assertDepositor(address escrow, uint256 depositId, address depositor) view',
]);

/** ERC-20 as a whole, so that a transfer in the approve slot reads as the unsafe call it is. */
export const usdcFunctionsAbi = erc20Abi;

export const batchExecutorFunctionsAbi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function execute(Call[] calls, uint256 nonce, uint256 deadline, bytes signature) payable',
]);
