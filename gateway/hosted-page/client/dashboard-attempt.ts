/**
 * One payment attempt of an order as the dashboard shows it: what it is, and the three
 * remediation actions, each with what the page expects of it in words (dashboard-hints.ts) and
 * the live status of those started here. A refusal is the server's answer, shown in its words.
 */
import type { ActionTracker, TrackedAction } from './dashboard-actions.js';
import type { ActionKind, CheckoutPayment, DashboardSession, Order } from './dashboard-api.js';
import { actionHint } from './dashboard-hints.js';
import { badge, errorBox, mono } from './dashboard-ui.js';
import { ACTION_ERRORS, ACTION_NAMES, ACTION_PURPOSES, ACTION_STATUSES, FINAL_ACTION_STATUSES, refusalWords, when } from './dashboard-words.js';
import { h } from './dom.js';

const KINDS: ActionKind[] = ['recreate', 'extend', 'fulfill-sar'];

export function attemptCard(options: {
  order: Order;
  payment: CheckoutPayment;
  payments: CheckoutPayment[];
  session: DashboardSession;
  actions: ActionTracker;
}): HTMLElement {
  const { order, payment, session, actions } = options;
  const status = h('div', { class: 'action-status', 'aria-live': 'polite' });
  const drawStatus = () => status.replaceChildren(...actions.of(payment.id).map(trackedView));
  drawStatus();
  // Heard until the card, once shown, is gone from the page.
  let shown = false;
  actions.listen((paymentId) => {
    if (status.isConnected) shown = true;
    else if (shown) return false;
    if (paymentId === payment.id) drawStatus();
    return true;
  });

  const facts = { order, payment, payments: options.payments, role: session.role, environment: session.environment, nowMs: Date.now() };
  return h(
    'article',
    { class: 'attempt panel', 'aria-labelledby': `attempt-${payment.id}` },
    h('h3', { id: `attempt-${payment.id}` }, mono(payment.id), ' ', badge(payment.status)),
    h(
      'dl',
      { class: 'facts' },
      ...fact('Payment app', payment.rail),
      ...fact('Amount', `${payment.paymentAmount} ${payment.currency}`),
      ...fact('Window ends', when(payment.quoteExpiresAt)),
      ...fact('Intent', payment.railIdentifier ? mono(payment.railIdentifier) : 'none yet'),
      ...fact('Created', when(payment.createdAt)),
      ...(payment.errorMessage ? fact('Why', payment.errorMessage) : []),
    ),
    h('h4', {}, 'Actions'),
    h('ul', { class: 'actions' }, ...KINDS.map((kind) => actionRow(kind, actionHint(kind, facts), order.id, payment.id, actions))),
    status,
  );
}

function fact(term: string, value: Node | string): HTMLElement[] {
  return [h('dt', {}, term), h('dd', {}, value)];
}

function actionRow(kind: ActionKind, hint: { likely: boolean; words: string }, orderId: string, paymentId: string, actions: ActionTracker): HTMLElement {
  const problem = h('div', {});
  const txId =
    kind === 'fulfill-sar'
      ? h('input', {
          id: `txid-${paymentId}`,
          name: 'txId',
          maxlength: '256',
          placeholder: 'Transaction id on the receipt',
          'aria-label': 'Transaction id on the customer’s receipt',
        })
      : null;
  const button = h('button', { type: 'submit', class: hint.likely ? 'primary' : 'secondary' }, ACTION_NAMES[kind]);
  const form = h(
    'form',
    {
      class: 'action',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        problem.replaceChildren();
        if (txId && !txId.value.trim())
          return void problem.replaceChildren(h('p', { class: 'error', role: 'alert' }, 'Type the transaction id from the customer’s receipt.'));
        button.disabled = true;
        try {
          await actions.start(orderId, paymentId, kind, txId ? txId.value.trim() : undefined);
        } catch (error) {
          problem.replaceChildren(errorBox(error, (failure) => refusalWords(failure.code, failure.message, failure.details?.reason)));
        } finally {
          button.disabled = false;
        }
      },
    },
    txId,
    button,
  );
  return h(
    'li',
    { class: `action-row ${hint.likely ? 'likely' : 'unlikely'}` },
    h('p', { class: 'purpose' }, ACTION_PURPOSES[kind]),
    h('p', { class: 'hint' }, hint.words),
    form,
    problem,
  );
}

function trackedView(tracked: TrackedAction): HTMLElement {
  const final = FINAL_ACTION_STATUSES.has(tracked.status);
  const error = tracked.action?.error;
  const result = tracked.action?.result;
  return h(
    'div',
    { class: `tracked ${tracked.status.toLowerCase()}`, 'data-action-id': tracked.actionId },
    h('p', {}, h('strong', {}, ACTION_NAMES[tracked.kind]), ' ', badge(tracked.status), ' ', ACTION_STATUSES[tracked.status], final ? '' : ' …'),
    error ? h('p', { class: 'error' }, `${error.code}: ${ACTION_ERRORS[error.code] ?? error.message}`) : null,
    result ? h('pre', { class: 'result' }, JSON.stringify(result, null, 2)) : null,
    tracked.pollError ? h('p', { class: 'hint' }, `Could not read its status just now (${tracked.pollError}); trying again.`) : null,
    h('p', { class: 'hint' }, 'Action ', mono(tracked.actionId)),
  );
}
