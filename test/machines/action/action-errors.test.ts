/** Which runner codes an action keeps (document 1, Errors, action error.code values): the rest read REMEDIATION_FAILED. */
import test from 'ava';
import { reportedCode, type ActionName } from '../../../machines/action/index.js';

const KEPT: Array<[ActionName, string]> = [
  ['RECREATE', 'INTENT_NOT_LIVE'],
  ['RECREATE', 'DISPATCH_FAILED'],
  ['RECREATE', 'MERCHANT_WALLET_NOT_DELEGATED'],
  ['RECREATE', 'MERCHANT_SIGNING_UNAVAILABLE'],
  ['EXTEND', 'INTENT_ALREADY_EXPIRED'],
  ['EXTEND', 'PAYMENT_NOT_OPEN'],
  ['EXTEND', 'FIVE_DAY_LIFETIME_EXCEEDED'],
  ['EXTEND', 'UNSUPPORTED_INTENT_GUARDIAN'],
  ['EXTEND', 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE'],
  ['EXTEND', 'INTENT_EXTENSION_TRANSACTION_REVERTED'],
  ['FULFILL_SAR', 'FULFILL_FAILED'],
  ['FULFILL_SAR', 'FULFILL_TIMEOUT'],
  ['RECREATE', 'NEEDS_MANUAL_REVIEW'],
  ['EXTEND', 'REMEDIATION_FAILED'],
];

/** Another action's code, the machine's own codes, and codes the table lacks. */
const REPLACED: Array<[ActionName, string]> = [
  ['RECREATE', 'FULFILL_FAILED'],
  ['EXTEND', 'DISPATCH_FAILED'],
  ['FULFILL_SAR', 'FIVE_DAY_LIFETIME_EXCEEDED'],
  ['FULFILL_SAR', 'APPROVAL_REJECTED'],
  ['EXTEND', 'APPROVAL_EXPIRED'],
  ['RECREATE', 'ACTION_CANCELED'],
  ['EXTEND', 'ACTION_EXPIRED'],
  ['FULFILL_SAR', 'execution reverted'],
  ['RECREATE', ''],
];

for (const [actionName, code] of KEPT) {
  test(`${actionName} keeps ${code}`, (t) => t.is(reportedCode(actionName, code), code));
}

for (const [actionName, code] of REPLACED) {
  test(`${actionName} reports "${code}" as REMEDIATION_FAILED`, (t) => t.is(reportedCode(actionName, code), 'REMEDIATION_FAILED'));
}
