/**
 * The account's webhooks: each with its state, a test event to send, and its deliveries; a
 * delivery opened shows its attempts and the body it sends, and can be sent again. An Owner or a
 * Manager adds an endpoint (its signing secret shown once) or deletes one; a cashier reads.
 */
import type { Webhook } from './dashboard-api.js';
import { badge, confirmButton, errorBox, listTable, mono, pager } from './dashboard-ui.js';
import type { View, ViewContext } from './dashboard-view.js';
import { when } from './dashboard-words.js';
import { announce, h } from './dom.js';

/** A redelivery is answered once under way: its attempt is read again this often, this many times. */
const REREAD_MS = 500;
const REREAD_TRIES = 10;

export const webhooksView: View = async (context) => {
  const { webhooks } = await context.api.webhooks();
  const writer = context.session.role !== 'CASHIER';
  return [
    h('h1', {}, 'Webhooks'),
    h('p', { class: 'hint' }, `Endpoints of the ${context.session.environment.toLowerCase()} account. Events are signed with each endpoint’s secret.`),
    ...webhooks.map((webhook) => webhookPanel(context, webhook, writer)),
    webhooks.length ? null : h('p', { class: 'empty' }, 'No webhooks yet.'),
    writer ? createForm(context) : h('p', { class: 'hint' }, 'Only an Owner or a Manager may add or change webhooks.'),
  ].filter((node): node is HTMLElement => node !== null);
};

function webhookPanel(context: ViewContext, webhook: Webhook, writer: boolean): HTMLElement {
  const outcome = h('div', { 'aria-live': 'polite' });
  const test = h('button', { type: 'button', class: 'secondary' }, 'Send test event');
  test.addEventListener('click', async () => {
    test.disabled = true;
    try {
      const sent = await context.api.testWebhook(webhook.id);
      outcome.replaceChildren(
        h(
          'p',
          { class: sent.success ? 'ok' : 'error' },
          sent.success
            ? `Delivered: the endpoint answered ${sent.responseCode}.`
            : `Not delivered: ${sent.error ?? `the endpoint answered ${sent.responseCode}`}.`,
        ),
      );
      announce('Test event sent');
    } catch (error) {
      outcome.replaceChildren(errorBox(error));
    } finally {
      test.disabled = false;
    }
  });
  return h(
    'section',
    { class: 'panel webhook', 'aria-label': `Webhook ${webhook.url}` },
    h('h2', {}, mono(webhook.url), ' ', badge(webhook.active ? 'ACTIVE' : 'DISABLED')),
    h(
      'p',
      { class: 'hint' },
      webhook.events.length ? `Events: ${webhook.events.join(', ')}` : 'Every event type',
      webhook.disabledReason ? ` · Off: ${webhook.disabledReason.message}` : '',
    ),
    h(
      'div',
      { class: 'buttons' },
      h('a', { class: 'button secondary', href: `#/webhooks/${encodeURIComponent(webhook.id)}` }, 'Deliveries'),
      writer ? test : null,
    ),
    outcome,
    writer
      ? confirmButton({
          label: 'Delete webhook',
          question: 'Delete this endpoint? Nothing more is sent to it.',
          confirm: 'Yes, delete it',
          keep: 'Keep it',
          act: async () => {
            await context.api.deleteWebhook(webhook.id);
            context.reload();
          },
        })
      : null,
  );
}

function createForm(context: ViewContext): HTMLElement {
  const url = h('input', { id: 'webhook-url', type: 'url', required: true, placeholder: 'https://shop.example/webhooks/peer' });
  const outcome = h('div', { 'aria-live': 'polite' });
  return h(
    'form',
    {
      class: 'panel stack',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        try {
          const created = await context.api.createWebhook(url.value.trim());
          outcome.replaceChildren(
            h('p', { class: 'ok' }, 'Added. Its signing secret, shown this once: keep it where your server verifies signatures.'),
            h('p', {}, mono(created.secret)),
            h('button', { type: 'button', class: 'secondary', onclick: () => context.reload() }, 'Done'),
          );
        } catch (error) {
          outcome.replaceChildren(errorBox(error));
        }
      },
    },
    h('h2', {}, 'Add an endpoint'),
    h('label', { for: 'webhook-url' }, 'URL'),
    url,
    h('button', { type: 'submit', class: 'primary' }, 'Add endpoint'),
    outcome,
  );
}

export const deliveriesView: View = async (context, { id, params }) => {
  const webhookId = id ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const list = await context.api.deliveries(webhookId, page);
  const writer = context.session.role !== 'CASHIER';
  const detail = h('div', { 'aria-live': 'polite' });
  /** Shows the delivery; `attemptsAtLeast`: read again for a few seconds until a redelivery's attempt shows. */
  const open = async (deliveryId: string, attemptsAtLeast = 0) => {
    try {
      let delivery = await context.api.delivery(webhookId, deliveryId);
      for (let tries = 0; delivery.attemptHistory.length < attemptsAtLeast && tries < REREAD_TRIES; tries++) {
        await new Promise((resolve) => setTimeout(resolve, REREAD_MS));
        delivery = await context.api.delivery(webhookId, deliveryId);
      }
      detail.replaceChildren(
        h(
          'section',
          { class: 'panel', 'aria-label': 'Delivery' },
          h('h2', {}, 'Delivery ', mono(delivery.id), ' ', badge(delivery.status)),
          h('p', {}, `${delivery.eventType}, event `, mono(delivery.eventId), delivery.failure ? ` · ${delivery.failure.message}` : ''),
          listTable(
            'Attempts',
            ['#', 'When', 'Answer', 'Took'],
            delivery.attemptHistory.map((attempt) => [
              `${attempt.number}${attempt.manual ? ' (redelivery)' : ''}`,
              when(attempt.at),
              attempt.responseCode === null ? (attempt.error ?? 'no answer') : String(attempt.responseCode),
              `${attempt.durationMs} ms`,
            ]),
            'No attempt yet.',
          ),
          h('h3', {}, 'Body sent'),
          h('pre', { class: 'payload' }, prettyJson(delivery.payload)),
        ),
      );
      detail.querySelector('h2')?.scrollIntoView({ block: 'nearest' });
    } catch (error) {
      detail.replaceChildren(errorBox(error));
    }
  };
  const redeliver = async (deliveryId: string, button: HTMLButtonElement) => {
    button.disabled = true;
    try {
      const before = (await context.api.delivery(webhookId, deliveryId)).attemptHistory.length;
      const delivery = await context.api.redeliver(webhookId, deliveryId);
      announce(`Redelivery started: ${delivery.status}`);
      await open(deliveryId, before + 1);
    } catch (error) {
      detail.replaceChildren(errorBox(error));
    } finally {
      button.disabled = false;
    }
  };
  return [
    h('p', {}, h('a', { href: '#/webhooks' }, '← Webhooks')),
    h('h1', {}, 'Deliveries'),
    listTable(
      'Deliveries',
      ['Event', 'Status', 'Attempts', 'Answer', 'Created', ''],
      list.deliveries.map((delivery) => {
        const again = h('button', { type: 'button', class: 'secondary' }, 'Redeliver');
        again.addEventListener('click', () => void redeliver(delivery.id, again));
        return [
          delivery.eventType,
          badge(delivery.status),
          String(delivery.attempts),
          delivery.responseCode === null ? '—' : String(delivery.responseCode),
          when(delivery.createdAt),
          h(
            'div',
            { class: 'buttons' },
            h('button', { type: 'button', class: 'secondary', onclick: () => void open(delivery.id) }, 'Open'),
            writer ? again : null,
          ),
        ];
      }),
      'Nothing delivered yet: send a test event.',
    ),
    pager(list, (next) => context.go(`#/webhooks/${encodeURIComponent(webhookId)}?page=${next}`)),
    detail,
  ].filter((node): node is HTMLElement => node !== null);
};

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
