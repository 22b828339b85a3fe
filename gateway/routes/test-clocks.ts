/** The sandbox test clocks (API key, sandbox only): create, list, read, advance, delete (docs/test-clocks.md). */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { reply } from '../envelope.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';
import {
  advanceTestClockBody,
  createTestClockBody,
  deletedTestClock,
  listTestClocksQuery,
  testClock,
  testClockList,
  testClockPath,
} from '../schemas/test-clock-schemas.js';
import type { TestClocks } from '../test-clocks/test-clocks.js';

export interface TestClockRouteDependencies {
  clocks: TestClocks;
  auth: Middleware<GatewayState>;
  body: Middleware<GatewayState>;
}

export function testClockRoutes({ clocks, auth, body }: TestClockRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/api/v1');

  router.post('/test-clocks', auth, body, async (ctx) => {
    const input = parseOrThrow(createTestClockBody, ctx.request.body ?? {});
    reply(ctx, 201, 'Test clock created', testClock, await clocks.create(ctx.state.account, input));
  });

  router.get('/test-clocks', auth, async (ctx) => {
    const query = parseOrThrow(listTestClocksQuery, ctx.query);
    reply(ctx, 200, 'Test clocks', testClockList, await clocks.list(ctx.state.account, query));
  });

  router.get('/test-clocks/:testClockId', auth, async (ctx) => {
    const { testClockId } = parseOrThrow(testClockPath, ctx.params);
    reply(ctx, 200, 'Test clock', testClock, await clocks.read(ctx.state.account, testClockId));
  });

  router.post('/test-clocks/:testClockId/advance', auth, body, async (ctx) => {
    const { testClockId } = parseOrThrow(testClockPath, ctx.params);
    const { frozenTime } = parseOrThrow(advanceTestClockBody, ctx.request.body);
    reply(ctx, 200, 'Test clock advancing', testClock, await clocks.advance(ctx.state.account, testClockId, frozenTime));
  });

  router.delete('/test-clocks/:testClockId', auth, async (ctx) => {
    const { testClockId } = parseOrThrow(testClockPath, ctx.params);
    reply(ctx, 200, 'Test clock deleted', deletedTestClock, await clocks.remove(ctx.state.account, testClockId));
  });

  return router;
}
