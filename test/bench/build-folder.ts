/**
 * `npm run bench:build-folder -- --orders 1000000 --dir /tmp/big [--connections 64]`:
 * fills a data folder with orders made through the order kind (big-folder.ts), for the
 * bench's big-folder rows (BENCH_BIG_FOLDER=/tmp/big npm run bench -- restart ...). An
 * existing folder built this way gets orders added until it holds --orders.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBigFolder } from './big-folder.js';

const { values } = parseArgs({
  options: { orders: { type: 'string', default: '100000' }, dir: { type: 'string' }, connections: { type: 'string', default: '64' } },
});
if (!values.dir) {
  console.error('usage: npm run bench:build-folder -- --orders 1000000 --dir /tmp/big [--connections 64]');
  process.exit(2);
}
const dir = resolve(values.dir);
mkdirSync(dir, { recursive: true });
const started = performance.now();
const folder = await buildBigFolder({ dir, orders: Number(values.orders), connections: Number(values.connections), progress: (line) => console.log(line) });
const seconds = (performance.now() - started) / 1000;
console.log(`${dir}: ${folder.orders.toLocaleString('en-US')} orders of merchant ${folder.merchantId}, built in ${seconds.toFixed(1)} s (drain included)`);
process.exit(0);
