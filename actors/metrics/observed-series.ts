/**
 * The gauges a scrape reads (scraped-gauges.ts), each from one source given to
 * RuntimeMetrics.observe, with what it means. docs/metrics.md lists them too.
 */
import { type ScrapedGaugeSpec, scraped } from './scraped-gauges.js';

const one = (value: number) => [{ labels: {}, value }];
const byLabel = (label: string, values: Readonly<Record<string, number>>) =>
  Object.entries(values).map(([key, value]) => ({ labels: { [label]: key }, value }));

export const OBSERVED_SERIES: readonly ScrapedGaugeSpec[] = [
  scraped({
    name: 'peer_outbox_pending',
    help: 'Actors on the shards of this node whose outbox holds effects not yet done, counted at scrape time.',
    source: 'pendingOutbox',
    samples: one,
  }),
  scraped({
    name: 'peer_dead_letters_open',
    help: 'Open dead letters in the store (shared by the cluster: every node reports the same count), counted at scrape time.',
    source: 'deadLetters',
    samples: one,
  }),
  scraped({
    name: 'peer_mailbox_depth',
    help: 'Messages queued or running in the mailboxes of the actors live on this node, by kind, at scrape time.',
    source: 'mailboxDepth',
    labelNames: ['kind'],
    samples: (depths) => byLabel('kind', depths),
  }),
  scraped({
    name: 'peer_timers_armed',
    help: 'Actors on the shards of this node with a durable timer armed (due now or later), counted at scrape time.',
    source: 'timers',
    samples: ({ armed }) => one(armed),
  }),
  scraped({
    name: 'peer_timers_due',
    help: 'Actors on the shards of this node with a durable timer due and not fired yet, counted at scrape time; a poll (TIMER_POLL_MS) fires them.',
    source: 'timers',
    samples: ({ due }) => one(due),
  }),
  scraped({
    name: 'peer_webhook_merchants_failing',
    help: 'Merchants with an endpoint switched off for failing (endpoint_disabled) or a delivery still retrying after failed attempts (deliveries_retrying), from the store at scrape time.',
    source: 'webhookMerchantsFailing',
    labelNames: ['reason'],
    samples: (counts) => byLabel('reason', counts),
  }),
  scraped({
    name: 'peer_indexer_lag_blocks',
    help: 'Confirmed blocks the indexer has not read yet (its GetStatus lagBlocks), at scrape time.',
    source: 'indexer',
    samples: ({ lagBlocks }) => one(lagBlocks),
  }),
  scraped({
    name: 'peer_indexer_serving',
    help: 'Whether the indexer keeps the fact log current (its GetStatus serving): 1 or 0, at scrape time.',
    source: 'indexer',
    samples: ({ serving }) => one(serving ? 1 : 0),
  }),
  scraped({
    name: 'peer_relayer_nonce_next',
    help: 'The next nonce the relayer gives out, by sending wallet, at scrape time.',
    source: 'relayerWallets',
    labelNames: ['wallet'],
    samples: (wallets) => Object.entries(wallets).map(([wallet, reading]) => ({ labels: { wallet }, value: reading.nextNonce })),
  }),
  scraped({
    name: 'peer_relayer_nonce_mined',
    help: "The chain's count of mined transactions of each sending wallet (its latest nonce), at scrape time.",
    source: 'relayerWallets',
    labelNames: ['wallet'],
    samples: (wallets) => Object.entries(wallets).map(([wallet, reading]) => ({ labels: { wallet }, value: reading.minedNonce })),
  }),
  scraped({
    name: 'peer_relayer_transactions_under_way',
    help: 'Relayer transactions prepared or submitted and not ended, each holding a nonce, by sending wallet, at scrape time.',
    source: 'relayerWallets',
    labelNames: ['wallet'],
    samples: (wallets) => Object.entries(wallets).map(([wallet, reading]) => ({ labels: { wallet }, value: reading.underWay })),
  }),
];
