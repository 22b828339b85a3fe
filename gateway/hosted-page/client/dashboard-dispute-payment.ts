/**
 * Paying an OPEN dispute from the dashboard (docs/disputes.md): what to send and by when, and
 * a form that records the Base transaction's hash. The node checks the transfer (in the sandbox
 * it records the hash as given); a refusal is shown in words and the dispute stays OPEN.
 */
import type { DisputeRow, Role } from './dashboard-api.js';
import { errorBox, mono } from './dashboard-ui.js';
import { when } from './dashboard-words.js';
import { announce, h } from './dom.js';

/** The payment's refusals (POST …/disputes/{disputeId}/payment), in the merchant's words. */
const PAYMENT_REFUSALS: Record<string, string> = {
  DISPUTE_TRANSFER_NOT_FOUND:
    'That transaction is not a mined transfer of at least the amount to the seller’s address on Base. Check the hash, or wait until it is mined.',
  DISPUTE_TRANSFER_USED: 'That transaction already paid another dispute: one transaction pays one dispute.',
  DISPUTE_NOT_OPEN: 'This dispute is no longer open: it takes no payment.',
  DISPUTES_UNAVAILABLE: 'This node cannot read the chain to check the transfer: try again later.',
  ROLE_NOT_ALLOWED: 'Only an Owner or a Manager may record a dispute’s payment.',
};

/** Raw 6-decimal USDC units as decimal USDC: `12500000` reads 12.5. */
export function usdcOf(units: string): string {
  const padded = units.padStart(7, '0');
  const fraction = padded.slice(-6).replace(/0+$/, '');
  return `${padded.slice(0, -6)}${fraction ? `.${fraction}` : ''}`;
}

/** One OPEN dispute's payment panel; `paid` runs once the node took the payment. */
export function disputePayment(dispute: DisputeRow, role: Role, pay: (txHash: string) => Promise<unknown>, paid: () => void): HTMLElement {
  const inputId = `dispute-tx-${dispute.id}`;
  const hash = h('input', {
    id: inputId,
    type: 'text',
    required: true,
    pattern: '0x[0-9a-fA-F]{64}',
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: '0x…',
  });
  const outcome = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Record payment');
  const facts = h(
    'dl',
    { class: 'facts' },
    h('dt', {}, 'Send'),
    h('dd', {}, `${usdcOf(dispute.amountUsdc)} USDC on Base`),
    h('dt', {}, 'To'),
    h('dd', {}, mono(dispute.sellerAddress)),
    h('dt', {}, 'Before'),
    h('dd', {}, when(dispute.dueAt)),
  );
  const heading = h('h2', {}, 'Pay case ', mono(dispute.disputeId));
  const label = `Dispute ${dispute.disputeId}`;
  if (role === 'CASHIER')
    return h('section', { class: 'panel', 'aria-label': label }, heading, facts, h('p', { class: 'hint' }, PAYMENT_REFUSALS.ROLE_NOT_ALLOWED ?? ''));
  return h(
    'form',
    {
      class: 'panel stack dispute-payment',
      'aria-label': label,
      onsubmit: async (event: Event) => {
        event.preventDefault();
        submit.disabled = true;
        outcome.replaceChildren();
        try {
          await pay(hash.value.trim());
          announce(`Dispute ${dispute.disputeId} paid`);
          paid();
        } catch (error) {
          outcome.replaceChildren(errorBox(error, (failure) => (failure.code && PAYMENT_REFUSALS[failure.code]) ?? failure.message));
          submit.disabled = false;
        }
      },
    },
    heading,
    facts,
    h('label', { for: inputId }, 'Transaction hash'),
    hash,
    submit,
    outcome,
  );
}
