/**
 * `npm run fuzz -- --requests N [--concurrency C] [--seed S]`: fuzzes an embedded node
 * (loopback only) from the OpenAPI document it serves, prints the answers by status and
 * by operation, and exits 1 on the first answer that breaks a rule (5xx, not the
 * envelope) or if the node is unhealthy afterwards. A failure prints the seed and the
 * shrunk request to replay it.
 */
import { parseArgs } from 'node:util';
import { startTestGateway } from '../support/gateway.js';
import { FUZZ_NODE_CONFIG, formatFuzzReport, fuzzGateway, prepareFuzzTarget, problemsAfterFuzz } from '../support/gateway-fuzz.js';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '10000' }, concurrency: { type: 'string', default: '16' }, seed: { type: 'string' } },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);

const gateway = await startTestGateway(FUZZ_NODE_CONFIG);
let failed = false;
try {
  const target = await prepareFuzzTarget(gateway);
  const started = Date.now();
  let nextMark = requests / 10;
  console.log(`fuzzing ${gateway.url}: ${requests} requests, ${concurrency} at a time, seed ${seed}`);
  const report = await fuzzGateway(target, {
    requests,
    concurrency,
    seed,
    onBatch(progress) {
      if (progress.requests < nextMark) return;
      nextMark += requests / 10;
      console.log(`  ${progress.requests} requests, ${Math.round(progress.requests / ((Date.now() - started) / 1000))} per second`);
    },
  }).catch((error: unknown) => {
    failed = true;
    console.error(error instanceof Error ? error.message : error);
    return undefined;
  });
  if (report) {
    console.log(
      `\n${report.requests.toLocaleString('en-US')} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, no 5xx, every answer in the envelope\n`,
    );
    console.log(formatFuzzReport(report));
  }
  const problems = await problemsAfterFuzz(gateway, target);
  console.log(problems.length === 0 ? '\nafterwards: healthy, creates and reads orders' : `\nafterwards: ${problems.join('; ')}`);
  if (problems.length > 0) failed = true;
} finally {
  await gateway.stop();
}
process.exit(failed ? 1 : 0);
