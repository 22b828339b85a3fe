/**
 * Document 3's public orderbook (no authentication): GET /v2/orderbook, the list form with
 * prices in fiat, and GET /v2/orderbook/table, the table form with pagination. Both take
 * the same query and answer from the same snapshot (orderbook.ts; docs/orderbook.md).
 */
import type { z } from 'zod';
import { rendered, sendRendered } from '../envelope.js';
import { invalid, standardAnswers, success, type Outcome } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { DEFAULT_DIRECTION, type OrderbookQuery } from '../../machines/market/orderbook-query.js';
import { noOrderbook, type Orderbook } from './orderbook.js';
import { ORDERBOOK_DEFAULT_CHAIN_ID, ORDERBOOK_DEFAULT_TOKEN, orderbookList, orderbookQuery, orderbookTable } from './orderbook-schemas.js';

export interface OrderbookDependencies {
  /** Null on a node that reads no chain. */
  orderbook: Orderbook | null;
}

const UNAVAILABLE: Outcome[] = [
  { code: 'ORDERBOOK_UNAVAILABLE', when: 'The node reads no chain, or its deposits cannot be read now and its last snapshot is over 60 seconds old' },
];

const getOrderbookOperation = defineOperation({
  method: 'get',
  path: '/v2/orderbook',
  operationId: 'getOrderbook',
  tags: ['Market'],
  summary: 'The orderbook of one currency, with prices in fiat',
  description: 'One entry per deposit, payment platform and currency it prices. Answered from a snapshot at most 60 seconds old (`generatedAt`).',
  guard: 'none',
  request: { query: orderbookQuery },
  answers: standardAnswers(
    { '200': success(200, orderbookList, 'The entries, sorted and filtered as asked'), '400': invalid('the query') },
    { unavailable: UNAVAILABLE },
  ),

  handle:
    ({ orderbook }: OrderbookDependencies) =>
    async (ctx, input) => {
      const query = queryOf(input.query);
      if (!orderbook) throw noOrderbook();
      const answer = await orderbook.answer('list', query, (snapshot, { rows }) =>
        // The schema keeps an entry's own fields and drops the table's.
        rendered(200, 'Orderbook', orderbookList, {
          ...echo(query, snapshot.generatedAt),
          internalDetailsIncluded: false,
          entries: rows.map(({ row }) => row),
        }),
      );
      sendRendered(ctx, answer);
    },
});

const getOrderbookTableOperation = defineOperation({
  method: 'get',
  path: '/v2/orderbook/table',
  operationId: 'getOrderbookTable',
  tags: ['Market'],
  summary: 'The orderbook of one currency as a paged table',
  description: 'The same rows as the list form with every method a deposit accepts, the taker’s rate, whether it is private, and pagination.',
  guard: 'none',
  request: { query: orderbookQuery },
  answers: standardAnswers(
    { '200': success(200, orderbookTable, 'One page of rows and the total'), '400': invalid('the query') },
    { unavailable: UNAVAILABLE },
  ),

  handle:
    ({ orderbook }: OrderbookDependencies) =>
    async (ctx, input) => {
      const query = queryOf(input.query);
      if (!orderbook) throw noOrderbook();
      const answer = await orderbook.answer('table', query, (snapshot, { rows, total }) =>
        rendered(200, 'Orderbook table', orderbookTable, {
          ...echo(query, snapshot.generatedAt),
          rows: rows.map(({ row }) => row),
          pagination: { limit: query.limit, offset: query.offset, total, hasMore: query.offset + rows.length < total },
        }),
      );
      sendRendered(ctx, answer);
    },
});

export function orderbookOperations(): Operation<OrderbookDependencies>[] {
  return [getOrderbookOperation, getOrderbookTableOperation];
}

/** The query with document 3's defaults filled: a null chainId or offset is the default. */
function queryOf(parsed: z.output<typeof orderbookQuery>): OrderbookQuery {
  return {
    currency: parsed.currency,
    paymentPlatform: parsed.paymentPlatform,
    sortBy: parsed.sortBy,
    sortDirection: parsed.sortDirection ?? DEFAULT_DIRECTION[parsed.sortBy],
    chainId: parsed.chainId ?? ORDERBOOK_DEFAULT_CHAIN_ID,
    token: parsed.token ?? ORDERBOOK_DEFAULT_TOKEN,
    publicOnly: parsed.publicOnly,
    limit: parsed.limit,
    offset: parsed.offset ?? 0,
    amount: parsed.amount === undefined ? null : BigInt(parsed.amount),
    showSmallOrders: parsed.showSmallOrders,
    hideExtremeSpread: parsed.hideExtremeSpread,
    sellerAutomatedRelease: parsed.sellerAutomatedRelease,
  };
}

function echo(query: OrderbookQuery, generatedAt: string) {
  return {
    chainId: query.chainId,
    token: query.token,
    currency: query.currency,
    paymentPlatform: query.paymentPlatform ?? null,
    publicOnly: query.publicOnly,
    sortBy: query.sortBy,
    sortDirection: query.sortDirection,
    sellerAutomatedRelease: query.sellerAutomatedRelease,
    generatedAt,
  };
}
