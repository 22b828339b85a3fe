/**
 * Run by postgres-peer.ts in a process of its own: the plain CRUD service our create is
 * measured against. Koa, a zod body schema shaped like our create's, an API key
 * checked, and one INSERT per create into a table with a primary key, on a pool of
 * PEER_PG_POOL connections with synchronous_commit on (the answer waits for the WAL
 * flush, as our durable create waits for its fdatasync). Sends its URL over IPC and
 * tells its CPU time when asked (PostgreSQL's own CPU is in its server processes).
 */
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { z } from 'zod';
import { answerCpuQueries } from './process-cpu.js';

const schema = process.env.PEER_PG_SCHEMA!;
const apiKey = process.env.PEER_API_KEY!;
const pool = new pg.Pool({
  host: process.env.PEER_PG_HOST!,
  port: Number(process.env.PEER_PG_PORT ?? 5432),
  database: process.env.PEER_PG_DATABASE!,
  user: process.env.PEER_PG_USER!,
  max: Number(process.env.PEER_PG_POOL ?? 16),
  options: '-c synchronous_commit=on',
});

const decimal = z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,6})?$/, 'must be a decimal string');
const createBody = z.strictObject({
  requestedUsdcAmount: decimal.optional(),
  requestedFiatAmount: decimal.optional(),
  requestedFiatCurrency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .optional(),
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,128}$/)
    .optional(),
  successUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
  cancelUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
  notes: z.record(z.string(), z.unknown()).nullable().optional(),
});

const insert = `INSERT INTO ${schema}.orders (id, merchant_id, status, requested_usdc_amount, notes, created_at) VALUES ($1, $2, $3, $4, $5, $6)`;

const router = new Router();
router.post('/api/v1/orders', async (ctx) => {
  if (ctx.get('x-api-key') !== apiKey) {
    ctx.status = 401;
    ctx.body = { success: false, message: 'unknown API key', responseObject: null, statusCode: 401 };
    return;
  }
  const parsed = createBody.safeParse(ctx.request.body);
  if (!parsed.success) {
    ctx.status = 400;
    ctx.body = { success: false, message: parsed.error.message, responseObject: null, statusCode: 400 };
    return;
  }
  const order = {
    id: `ord_${randomUUID()}`,
    merchantId: 'merchant_bench',
    status: 'PENDING',
    requestedUsdcAmount: parsed.data.requestedUsdcAmount ?? null,
    notes: parsed.data.notes ?? null,
    createdAt: new Date().toISOString(),
  };
  await pool.query(insert, [order.id, order.merchantId, order.status, order.requestedUsdcAmount, order.notes, order.createdAt]);
  ctx.status = 201;
  ctx.body = { success: true, message: 'Order created', responseObject: { order }, statusCode: 201 };
});

const app = new Koa();
// A failed insert answers 500, which the bench counts; Koa's stderr line for each would drown the run's output.
app.silent = true;
app.use(bodyParser());
app.use(router.routes());
const server = createServer(app.callback());
answerCpuQueries();
process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
server.listen(0, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
