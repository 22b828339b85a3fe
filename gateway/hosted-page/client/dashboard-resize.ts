/**
 * Resizing a FIXED order still owed (docs/resize.md) from its page: a new USDC amount, sent with
 * an idempotency key the page makes, so a retry after a lost answer resizes once. The order is
 * read again after; the outcome is kept across that read so the new amount is shown with it.
 */
import type { DashboardApi, Order, Role } from './dashboard-api.js';
import { errorBox } from './dashboard-ui.js';
import { announce, h } from './dom.js';

/** The 409 RESIZE_NOT_SUPPORTED reasons, in the merchant's words. */
const RESIZE_REASONS: Record<string, string> = {
  OPEN_AMOUNT: 'The customer chooses this order’s amount: it cannot be resized.',
  DYNAMIC_ORDERS_DISABLED: 'This order was created with dynamic orders off, so its amount is fixed for good.',
  ORDER_FULFILLED: 'The order is paid: refunds are how money goes back.',
  ORDER_CANCELLED: 'The order is cancelled.',
  PAYMENT_MAY_SETTLE: 'A payment attempt may still settle: try again once it has ended.',
  BELOW_SETTLED: 'The new amount is below what the customer has paid already.',
  SAME_AMOUNT: 'The order is at that amount already.',
};

const STILL_OWED = new Set(['CREATED', 'PARTIALLY_FULFILLED']);

/** The last resize's words per order, shown once by the form drawn after the order is read again. */
const resized = new Map<string, string>();

function refusal(code: string | null, message: string, details: Record<string, unknown> | null): string {
  if (code !== 'RESIZE_NOT_SUPPORTED') return message;
  const reason = typeof details?.reason === 'string' ? details.reason : null;
  const words = (reason && RESIZE_REASONS[reason]) ?? message;
  const least =
    reason === 'BELOW_SETTLED' && typeof details?.settledUsdcAmount === 'string' ? ` It may be no less than ${details.settledUsdcAmount} USDC.` : '';
  return `Not resized${reason ? ` (${reason})` : ''}: ${words}${least}`;
}

/** The order's resize form; null when the order is not FIXED and still owed. */
export function resizeForm(api: DashboardApi, order: Order, role: Role, reload: () => void): HTMLElement | null {
  if (order.amountMode !== 'FIXED' || !STILL_OWED.has(order.status)) return null;
  if (role === 'CASHIER') return h('p', { class: 'hint' }, 'Only an Owner or a Manager may resize an order.');
  const done = resized.get(order.id);
  resized.delete(order.id);
  const inputId = `resize-${order.id}`;
  const amount = h('input', { id: inputId, type: 'text', inputmode: 'decimal', required: true, pattern: '[0-9]+(\\.[0-9]{1,6})?', autocomplete: 'off' });
  const outcome = h('div', { 'aria-live': 'polite' }, done ? h('p', { class: 'ok' }, done) : null);
  const submit = h('button', { type: 'submit', class: 'secondary' }, 'Resize');
  // One key per amount tried: the same amount sent again (an answer lost) is the same resize.
  let attempt: { amount: string; key: string } | null = null;
  return h(
    'form',
    {
      class: 'stack resize',
      'aria-label': 'Resize the order',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const requested = amount.value.trim();
        if (attempt?.amount !== requested) attempt = { amount: requested, key: `dash-${crypto.randomUUID()}` };
        submit.disabled = true;
        outcome.replaceChildren();
        try {
          const answer = await api.resizeOrder(order.id, requested, attempt.key);
          resized.set(order.id, `Resized from ${answer.resize.previousAmountUsdc} to ${answer.resize.newAmountUsdc} USDC.`);
          announce(`Order resized to ${answer.resize.newAmountUsdc} USDC`);
          reload();
        } catch (error) {
          outcome.replaceChildren(errorBox(error, (failure) => refusal(failure.code, failure.message, failure.details)));
          submit.disabled = false;
        }
      },
    },
    h('h2', {}, 'Resize'),
    h('label', { for: inputId }, 'New amount (USDC)'),
    amount,
    submit,
    outcome,
  );
}
