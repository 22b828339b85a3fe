/**
 * Document 3's public orderbook (no authentication): GET /v2/orderbook, the list form with
 * prices in fiat, and GET /v2/orderbook/table, the table form with pagination. Both take
 * the same query and answer from the same snapshot (gateway/market/orderbook.ts).
 */
import type Router from '@koa/router';
import type { z } from 'zod';
import { rendered, sendRendered } from '../envelope.js';
import { DEFAULT_DIRECTION, type OrderbookQuery } from '../market/orderbook-query.js';
import { noOrderbook, type Orderbook } from '../market/orderbook.js';
import { exactRouter } from '../routing.js';
import { ORDERBOOK_DEFAULT_CHAIN_ID, ORDERBOOK_DEFAULT_TOKEN, orderbookList, orderbookQuery, orderbookTable } from '../schemas/orderbook-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export function orderbookRoutes(orderbook: Orderbook | null): Router<GatewayState> {
  const router = exactRouter('/v2');

  router.get('/orderbook', async (ctx) => {
    const query = queryOf(parseOrThrow(orderbookQuery, ctx.query));
    if (!orderbook) throw noOrderbook();
    const answer = await orderbook.answer('list', query, (snapshot, { rows }) =>
      // The schema keeps an entry's own fields and drops the table's.
      rendered(200, 'Orderbook', orderbookList, { ...echo(query, snapshot.generatedAt), internalDetailsIncluded: false, entries: rows.map(({ row }) => row) }),
    );
    sendRendered(ctx, answer);
  });

  router.get('/orderbook/table', async (ctx) => {
    const query = queryOf(parseOrThrow(orderbookQuery, ctx.query));
    if (!orderbook) throw noOrderbook();
    const answer = await orderbook.answer('table', query, (snapshot, { rows, total }) =>
      rendered(200, 'Orderbook table', orderbookTable, {
        ...echo(query, snapshot.generatedAt),
        rows: rows.map(({ row }) => row),
        pagination: { limit: query.limit, offset: query.offset, total, hasMore: query.offset + rows.length < total },
      }),
    );
    sendRendered(ctx, answer);
  });

  return router;
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
