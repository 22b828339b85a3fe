/**
 * Chaos: three node processes move money between 100 accounts over NATS while one
 * node is SIGKILLed, another is cut off from NATS for longer than the lease TTL,
 * and the nats-server itself is stopped and restarted; then the books must balance.
 *
 * Run with `npm run test:chaos` (ava --config test/chaos/ava.chaos.config.js); not part of `npm test`.
 *
 * Set-up (all on loopback): the test starts its own nats-server with JetStream in a
 * temp dir, serves one in-memory EmbeddedStore over a socket (actors/store/socket/socket-store-server.ts;
 * each node uses SocketStore), runs a recording HTTP endpoint that the accounts'
 * `record` effect calls with its effect id, and forks three nodes
 * (test/chaos/node-child.ts), each reaching NATS through its own TcpProxy here.
 *
 * What must hold once load stops and outboxes are empty:
 * - every acknowledged transfer is debited once on its source and credited once on its target;
 * - every other transfer is applied at most once and never half (debited, not credited);
 *   a refused one (insufficient funds on every attempt) not at all;
 * - the sum of balances equals the initial total, and each balance matches its applied transfers;
 * - every timer armed before the kill fired exactly once;
 * - no effect id reached the recording endpoint twice, except ones first delivered by
 *   the killed node before it died (listed separately), and every applied credit and
 *   fired timer reached it at least once (no stranded effect);
 * - no account has a pending outbox; no dead letters.
 *
 * Tunables (env): CHAOS_RATE transfers/s (default 150), CHAOS_SECONDS of load (default 18),
 * CHAOS_KEEP=1 keeps the temp dir (node logs, JetStream store). On a 2-core machine shared
 * with other work, 200–250/s starves the nodes' event loops enough that healthy nodes miss
 * lease renewals in quiet periods too; the report prints event-loop lateness to tell.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { DEAD_LETTERS_COLLECTION, decode, shardOf } from '../../actors/index.js';
import { EmbeddedStore } from '../../actors/store/embedded-store.js';
import type { StoredDocument } from '../../actors/store/store.js';
import { SocketStoreServer } from '../../actors/store/socket/index.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import type { AccountContext } from './account-kind.js';
import { loopMonitor } from './loop-monitor.js';
import type { LoopStats } from './protocol.js';
import { ChildNode, NatsServerProcess, Recorder, freePort, sleep, waitFor, type AskResult } from './harness.js';

const NODES = 3;
const ACCOUNTS = 100;
const SHARDS = 24;
const OPENING_BALANCE = 1_000n;
const LEASE_TTL_MS = 3_000;
const ASK_TIMEOUT_MS = 10_000;
const ATTEMPT_TIMEOUT_MS = 1_000;
/** The parent's own bound on one IPC ask, above the node's ask deadline. */
const PARENT_ASK_TIMEOUT_MS = ASK_TIMEOUT_MS + 3_000;
const RATE = Number(process.env.CHAOS_RATE ?? 150);
const LOAD_MS = Number(process.env.CHAOS_SECONDS ?? 18) * 1000;
/** Fault schedule, in ms from the start of the load. */
const KILL_AT = Math.round(LOAD_MS * 0.28);
const CUT_AT = Math.round(LOAD_MS * 0.45);
const CUT_MS = 2 * LEASE_TTL_MS;
const NATS_RESTART_AT = Math.round(LOAD_MS * 0.85);
const NATS_DOWN_MS = 1_500;
/** Transfers also sent, concurrently, through a second node with the same message id. */
const DUPLICATE_FRACTION = 0.05;
/** A transfer whose outcome stays unknown is retried this many times, same message id, through a live node. */
const RETRIES = 2;

interface Transfer {
  transferId: string;
  from: string;
  to: string;
  amount: bigint;
  results: Array<{ node: string; result: AskResult }>;
  outcome: 'acknowledged' | 'refused' | 'unknown' | 'pending';
}

interface AccountDoc extends StoredDocument {
  snapshot: unknown;
  outboxPending: boolean;
  timers: unknown[];
  createdAt: number;
}

const accountId = (i: number) => `acct-${String(i).padStart(3, '0')}`;
const randomInt = (n: number) => Math.floor(Math.random() * n);

test('chaos: transfers between 100 accounts on three nodes survive a SIGKILL, a NATS cut-off and a nats-server restart', async (t) => {
  t.timeout(180_000);
  const began = Date.now();
  const parentLoop = loopMonitor();
  const log = (message: string) => t.log(`[+${((Date.now() - began) / 1000).toFixed(1)}s] ${message}`);

  const tmp = await mkdtemp(join(tmpdir(), 'chaos-'));
  const natsPort = await freePort();
  const nats = new NatsServerProcess(natsPort, join(tmp, 'jetstream'));
  const store = new EmbeddedStore();
  let storeServer: SocketStoreServer | undefined;
  let recorder: Recorder | undefined;
  const proxies: TcpProxy[] = [];
  const nodes: ChildNode[] = [];
  t.teardown(async () => {
    await Promise.allSettled(nodes.map((node) => node.stop(5_000)));
    for (const node of nodes) if (node.alive) node.kill();
    await Promise.allSettled(proxies.map((proxy) => proxy.close()));
    await nats.stop().catch(() => undefined);
    await recorder?.close().catch(() => undefined);
    await storeServer?.close().catch(() => undefined);
    await store.close();
    if (!process.env.CHAOS_KEEP) await rm(tmp, { recursive: true, force: true });
  });

  await nats.start();
  storeServer = await SocketStoreServer.start({ store });
  recorder = await Recorder.start();
  for (let i = 0; i < NODES; i++) proxies.push(await TcpProxy.start(natsPort));
  log(`nats-server on ${natsPort}, store on ${storeServer.port}, recorder ${recorder.url}, logs in ${tmp}`);

  const started = await Promise.all(
    proxies.map((proxy, i) =>
      ChildNode.start({
        nodeId: `n${i}`,
        natsUrl: proxy.url,
        storePort: storeServer!.port,
        namespace: 'chaos',
        shardCount: SHARDS,
        leaseTtlMs: LEASE_TTL_MS,
        askTimeoutMs: ASK_TIMEOUT_MS,
        attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
        recorderUrl: recorder!.url,
        logFile: join(tmp, `n${i}.log`),
        logLevel: 'warn',
      }),
    ),
  );
  nodes.push(...started);

  const ownership = async () => Promise.all(nodes.map(async (node) => (node.alive ? node.shards() : [])));
  const covered = await waitFor(
    async () => {
      const held = await ownership();
      const all = held.flat();
      return all.length === SHARDS && new Set(all).size === SHARDS && held.every((shards) => shards.length > 0);
    },
    20_000,
    200,
  );
  t.true(covered, 'every shard is held by exactly one of the three nodes before the load starts');
  log(`shards per node: ${(await ownership()).map((shards) => shards.length).join('/')}`);

  // Accounts, each with a timer due 3–14 s after it opens: most fall due after the kill.
  const live = () => nodes.filter((node) => node.alive);
  const pick = (except?: ChildNode) => {
    const candidates = live().filter((node) => node !== except);
    return candidates[randomInt(candidates.length)] ?? live()[0]!;
  };
  const alarmMs = new Map<string, number>();
  const openResults = await Promise.all(
    Array.from({ length: ACCOUNTS }, async (_, i) => {
      const id = accountId(i);
      const ms = 3_000 + randomInt(11_000);
      alarmMs.set(id, ms);
      let result: AskResult = { ok: false, name: 'NotSent', code: null, message: '' };
      for (let attempt = 0; attempt < 3 && !result.ok; attempt++) {
        result = await pick().ask(id, { type: 'OPEN', balance: OPENING_BALANCE, alarmMs: ms }, `open-${id}`, PARENT_ASK_TIMEOUT_MS);
      }
      return result;
    }),
  );
  t.is(openResults.filter((result) => !result.ok).length, 0, 'every account opens');
  const initialTotal = OPENING_BALANCE * BigInt(ACCOUNTS);

  // Load, with the faults on their own schedule.
  const transfers = new Map<string, Transfer>();
  await Promise.all(nodes.map((node) => node.stats({ reset: true })));
  parentLoop.reset();
  const inFlight = new Set<Promise<void>>();
  const loadStart = Date.now();
  const at = (ms: number) => sleep(Math.max(0, loadStart + ms - Date.now()));
  const faultLog: string[] = [];
  const fault = (message: string) => {
    faultLog.push(`+${((Date.now() - loadStart) / 1000).toFixed(1)}s ${message}`);
    log(message);
  };
  const victim = nodes[0]!;
  const cutNode = nodes[1]!;
  let victimShards: number[] = [];

  const faults = (async () => {
    await at(KILL_AT);
    victimShards = await victim.shards();
    victim.kill();
    fault(`SIGKILL ${victim.id} (held ${victimShards.length} shards)`);
    await at(CUT_AT);
    proxies[1]!.sever();
    fault(`cut ${cutNode.id} off NATS for ${CUT_MS} ms`);
    await at(CUT_AT + CUT_MS);
    proxies[1]!.restore();
    fault(`restored ${cutNode.id}'s NATS link`);
    await at(NATS_RESTART_AT);
    await nats.stop();
    fault('nats-server stopped');
    await sleep(NATS_DOWN_MS);
    await nats.start();
    fault('nats-server restarted (same store dir)');
  })();

  const send = async (n: number): Promise<void> => {
    const from = randomInt(ACCOUNTS);
    const to = (from + 1 + randomInt(ACCOUNTS - 1)) % ACCOUNTS;
    const transfer: Transfer = {
      transferId: `tx-${n}`,
      from: accountId(from),
      to: accountId(to),
      amount: BigInt(1 + randomInt(100)),
      results: [],
      outcome: 'pending',
    };
    transfers.set(transfer.transferId, transfer);
    const event = { type: 'TRANSFER_OUT', transferId: transfer.transferId, to: transfer.to, amount: transfer.amount };
    const attempt = async (node: ChildNode) => {
      const result = await node.ask(transfer.from, event, transfer.transferId, PARENT_ASK_TIMEOUT_MS);
      transfer.results.push({ node: node.id, result });
      return result;
    };
    const first = pick();
    const attempts = [attempt(first)];
    if (Math.random() < DUPLICATE_FRACTION) attempts.push(attempt(pick(first)));
    let results = await Promise.all(attempts);
    for (let retry = 0; retry < RETRIES && !results.some((result) => result.ok || result.name === 'CommandRejectedError'); retry++) {
      await sleep(200);
      results = [await attempt(pick())];
    }
    const all = transfer.results.map(({ result }) => result);
    if (all.some((result) => result.ok)) transfer.outcome = 'acknowledged';
    else if (all.every((result) => !result.ok && result.name === 'CommandRejectedError')) transfer.outcome = 'refused';
    else transfer.outcome = 'unknown';
  };

  let sent = 0;
  while (Date.now() - loadStart < LOAD_MS) {
    const due = Math.floor(((Date.now() - loadStart) / 1000) * RATE);
    while (sent < due) {
      const promise = send(sent++);
      inFlight.add(promise);
      void promise.finally(() => inFlight.delete(promise));
    }
    await sleep(10);
  }
  const loadMs = Date.now() - loadStart;
  const loopDuringLoad: Record<string, LoopStats | null> = { parent: parentLoop.stats() };
  for (const node of nodes) loopDuringLoad[node.id] = node.alive ? await node.stats() : null;
  log(`load stopped after ${sent} transfers in ${loadMs} ms; ${inFlight.size} still in flight`);
  await faults;

  // Settle: outstanding asks (each bounded by its own deadlines), then the outboxes and timers.
  const asksDone = await waitFor(() => inFlight.size === 0, 2 * PARENT_ASK_TIMEOUT_MS * (RETRIES + 1), 100);
  const accounts = await store.collection<AccountDoc>({ name: 'actors_account', indexes: [] });
  const settleStart = Date.now();
  const settled = await waitFor(
    async () => (await accounts.count({ outboxPending: true })) === 0 && (await accounts.count({ 'timers.0': { $exists: true } })) === 0,
    45_000,
    200,
  );
  const settleMs = Date.now() - settleStart;
  const outboxPending = await accounts.count({ outboxPending: true });
  const timersPending = await accounts.count({ 'timers.0': { $exists: true } });
  log(`settled=${settled} in ${settleMs} ms (asks done: ${asksDone}); outbox pending ${outboxPending}, timers pending ${timersPending}`);

  // What the store holds.
  const docs = await accounts.find({});
  const contexts = new Map<string, AccountContext>();
  for (const doc of docs) contexts.set(doc._id, decode<{ context: AccountContext }>(doc.snapshot).context);
  const outCount = new Map<string, number>();
  const inCount = new Map<string, number>();
  const outWhere = new Map<string, string>();
  const inWhere = new Map<string, string>();
  for (const [id, context] of contexts) {
    for (const transferId of context.outs) {
      outCount.set(transferId, (outCount.get(transferId) ?? 0) + 1);
      outWhere.set(transferId, id);
    }
    for (const transferId of context.ins) {
      inCount.set(transferId, (inCount.get(transferId) ?? 0) + 1);
      inWhere.set(transferId, id);
    }
  }

  const byOutcome = { acknowledged: 0, refused: 0, unknown: 0, pending: 0 };
  const errorNames = new Map<string, number>();
  for (const transfer of transfers.values()) {
    byOutcome[transfer.outcome]++;
    for (const { result } of transfer.results) {
      if (!result.ok) errorNames.set(result.code ?? result.name, (errorNames.get(result.code ?? result.name) ?? 0) + 1);
    }
  }

  const problems = {
    ackNotExactlyOnce: [] as string[],
    refusedApplied: [] as string[],
    appliedTwice: [] as string[],
    half: [] as string[],
    creditWithoutDebit: [] as string[],
    misplaced: [] as string[],
    unknownIds: [] as string[],
    balanceMismatch: [] as string[],
    duplicateReplies: [] as string[],
  };
  for (const transfer of transfers.values()) {
    const outs = outCount.get(transfer.transferId) ?? 0;
    const ins = inCount.get(transfer.transferId) ?? 0;
    const tag = `${transfer.transferId} (${transfer.outcome}, debits ${outs}, credits ${ins}, via ${transfer.results.map(({ node, result }) => `${node}:${result.ok ? 'ok' : (result.code ?? result.name)}`).join(',')})`;
    if (transfer.outcome === 'acknowledged' && (outs !== 1 || ins !== 1)) problems.ackNotExactlyOnce.push(tag);
    if (transfer.outcome === 'refused' && (outs !== 0 || ins !== 0)) problems.refusedApplied.push(tag);
    if (outs > 1 || ins > 1) problems.appliedTwice.push(tag);
    if (outs > ins) problems.half.push(tag);
    if (ins > outs) problems.creditWithoutDebit.push(tag);
    if ((outs > 0 && outWhere.get(transfer.transferId) !== transfer.from) || (ins > 0 && inWhere.get(transfer.transferId) !== transfer.to))
      problems.misplaced.push(tag);
    // Two successful answers to one message id must be the same answer.
    const oks = transfer.results.filter(({ result }) => result.ok).map(({ result }) => JSON.stringify((result as { value: unknown }).value));
    if (new Set(oks).size > 1) problems.duplicateReplies.push(`${tag}: ${oks.join(' vs ')}`);
  }
  for (const transferId of new Set([...outCount.keys(), ...inCount.keys()])) if (!transfers.has(transferId)) problems.unknownIds.push(transferId);

  let total = 0n;
  for (const [id, context] of contexts) {
    total += context.balance;
    let expected = OPENING_BALANCE;
    for (const transferId of context.outs) expected -= transfers.get(transferId)?.amount ?? 0n;
    for (const transferId of context.ins) expected += transfers.get(transferId)?.amount ?? 0n;
    if (expected !== context.balance) problems.balanceMismatch.push(`${id}: balance ${context.balance}, applied transfers say ${expected}`);
  }

  // Timers: each account's alarm fired once; those due after the kill on the victim's shards fired on a survivor.
  const killedAt = victim.killedAt ?? Infinity;
  const alarmsWrong = [...contexts].filter(([, context]) => context.alarms !== 1).map(([id, context]) => `${id}: fired ${context.alarms} times`);
  const missingAccounts = Array.from({ length: ACCOUNTS }, (_, i) => accountId(i)).filter((id) => !contexts.has(id));
  const createdAt = new Map(docs.map((doc) => [doc._id, doc.createdAt]));
  const dueAfterKill = [...alarmMs].filter(([id, ms]) => (createdAt.get(id) ?? 0) + ms > killedAt).map(([id]) => id);
  const victimAccountsDueAfterKill = dueAfterKill.filter((id) => victimShards.includes(shardOf(id, SHARDS)));
  const alarmFiredBy = new Map<string, string[]>();
  for (const d of recorder.deliveries)
    if (d.what === 'alarm') alarmFiredBy.set(d.actor.replace(/^account:/, ''), [...(alarmFiredBy.get(d.actor.replace(/^account:/, '')) ?? []), d.node]);
  const victimTimersNotTakenOver = victimAccountsDueAfterKill.filter((id) => !(alarmFiredBy.get(id) ?? []).some((node) => node !== victim.id));
  const timersFired = [...contexts.values()].reduce((sum, context) => sum + context.alarms, 0);

  // Effect deliveries to the recording endpoint.
  const deliveries = recorder.deliveries;
  const perEffect = new Map<string, typeof deliveries>();
  for (const delivery of deliveries) {
    const list = perEffect.get(delivery.effectId) ?? [];
    list.push(delivery);
    perEffect.set(delivery.effectId, list);
  }
  const duplicates = [...perEffect].filter(([, list]) => list.length > 1);
  const describe = ([effectId, list]: [string, typeof deliveries]) =>
    `${effectId} ×${list.length} from ${list.map((d) => `${d.node}@epoch${d.epoch}+${((d.receivedAt - loadStart) / 1000).toFixed(2)}s`).join(', ')}`;
  // Effects run at least once: an effect whose done-write could not land before its lease moved (a kill, a
  // cut, a NATS restart, a handover past its bound) runs again under the next lease. That, and only that, is
  // allowed: each later delivery under a strictly higher epoch than every earlier one. Two deliveries under one
  // lease, or one under an older lease, are runtime bugs.
  const excusedDuplicates = duplicates.filter(([, list]) => list.every((d, i) => list.slice(0, i).every((earlier) => earlier.epoch < d.epoch)));
  const unexcusedDuplicates = duplicates.filter((entry) => !excusedDuplicates.includes(entry));
  // Why each unexcused duplicate happened, as far as the deliveries tell: an effect run under an older lease
  // after a newer lease's holder ran it (the old holder was not fenced), a re-run after the lease changed hands
  // (done was not recorded before the lease moved), or a re-run under the same lease.
  const window = (receivedAt: number) => {
    const ms = receivedAt - loadStart;
    if (ms >= CUT_AT && ms < CUT_AT + CUT_MS + 2_000) return 'cut';
    if (ms >= NATS_RESTART_AT - 500 && ms < NATS_RESTART_AT + NATS_DOWN_MS + 5_000) return 'nats-restart';
    if (ms >= KILL_AT && ms < KILL_AT + LEASE_TTL_MS + 3_000) return 'kill';
    return 'quiet';
  };
  const duplicateKinds = new Map<string, number>();
  const duplicatePaths = new Map<string, number>();
  for (const [, list] of unexcusedDuplicates) {
    const stale = list.some((d, i) => list.slice(0, i).some((earlier) => earlier.epoch > d.epoch));
    const kind = stale ? 'stale-epoch (unfenced old holder)' : new Set(list.map((d) => d.epoch)).size > 1 ? 'new lease re-ran it' : 'same lease re-ran it';
    const key = `${kind}, first delivery in the ${window(list[0]!.receivedAt)} window`;
    duplicateKinds.set(key, (duplicateKinds.get(key) ?? 0) + 1);
    const path = list.map((d) => d.node).join('>');
    duplicatePaths.set(path, (duplicatePaths.get(path) ?? 0) + 1);
  }
  // Fencing, as the downstream sees it: per actor, a delivery under an epoch lower than one already seen.
  const highestEpoch = new Map<string, number>();
  const staleEpochDeliveries: string[] = [];
  for (const d of deliveries) {
    const highest = highestEpoch.get(d.actor) ?? -1;
    if (d.epoch < highest)
      staleEpochDeliveries.push(
        `${d.effectId} from ${d.node} under epoch ${d.epoch} after epoch ${highest} at +${((d.receivedAt - loadStart) / 1000).toFixed(2)}s`,
      );
    else highestEpoch.set(d.actor, d.epoch);
  }
  const recordedCredits = new Set(deliveries.filter((d) => d.what === 'in').map((d) => d.transferId));
  const recordedAlarms = new Set(deliveries.filter((d) => d.what === 'alarm').map((d) => d.actor));
  const creditsNeverRecorded = [...inCount.keys()].filter((transferId) => !recordedCredits.has(transferId));
  const alarmsNeverRecorded = [...contexts].filter(([id, context]) => context.alarms > 0 && !recordedAlarms.has(`account:${id}`)).map(([id]) => id);
  const alarmNodes = new Map<string, number>();
  for (const d of deliveries) if (d.what === 'alarm') alarmNodes.set(d.node, (alarmNodes.get(d.node) ?? 0) + 1);

  const deadLetterCollections = await (await store.collection({ name: DEAD_LETTERS_COLLECTION, indexes: [] })).find({});

  // What each node logged (warn and above): the lease losses with their time into the load, and the commonest messages.
  const nodeLogs: Record<string, { leaseLosses: string[]; top: Record<string, number> }> = {};
  for (const node of nodes) {
    const text = await readFile(join(tmp, `${node.id}.log`), 'utf8').catch(() => '');
    const counts = new Map<string, number>();
    const leaseLosses: string[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const entry = JSON.parse(line) as { msg: string; time: string; shards?: number[]; err?: { type?: string } };
        const key = entry.err?.type ? `${entry.msg} (${entry.err.type})` : entry.msg;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (entry.msg.startsWith('shard leases not renewed'))
          leaseLosses.push(`+${((Date.parse(entry.time) - loadStart) / 1000).toFixed(1)}s ${entry.shards?.length ?? '?'} shards`);
      } catch {
        // A line cut short by SIGKILL.
      }
    }
    nodeLogs[node.id] = { leaseLosses, top: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, 6)) };
  }

  const countBy = (keys: string[]) =>
    Object.fromEntries([...keys.reduce((counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1), new Map<string, number>())]);
  const first = (list: string[], n = 8) => (list.length <= n ? list : [...list.slice(0, n), `… and ${list.length - n} more`]);
  const summary = {
    timeTakenMs: Date.now() - began,
    loadMs,
    rate: RATE,
    faults: faultLog,
    transfers: { sent, ...byOutcome, withDuplicateSend: [...transfers.values()].filter((tr) => tr.results.length > 1).length },
    errorAnswers: Object.fromEntries(errorNames),
    applied: { debits: [...outCount.values()].reduce((a, b) => a + b, 0), credits: [...inCount.values()].reduce((a, b) => a + b, 0) },
    totals: { initial: initialTotal.toString(), final: total.toString() },
    timers: {
      accounts: contexts.size,
      fired: timersFired,
      dueAfterKill: dueAfterKill.length,
      victimAccountsDueAfterKill: victimAccountsDueAfterKill.length,
      victimTimersNotTakenOver: victimTimersNotTakenOver.length,
      firedBy: Object.fromEntries(alarmNodes),
    },
    effects: {
      deliveries: deliveries.length,
      distinctEffects: perEffect.size,
      duplicateEffectIds: duplicates.length,
      rerunUnderNewerLease: excusedDuplicates.length,
      rerunUnderNewerLeaseByWindow: countBy(excusedDuplicates.map(([, list]) => window(list[0]!.receivedAt))),
      staleEpochDeliveries: staleEpochDeliveries.length,
      duplicateKinds: Object.fromEntries([...duplicateKinds].sort((a, b) => b[1] - a[1])),
      duplicateNodePaths: Object.fromEntries([...duplicatePaths].sort((a, b) => b[1] - a[1]).slice(0, 8)),
    },
    outboxPending,
    timersPending,
    deadLetters: deadLetterCollections.length,
    settleMs,
    eventLoopDuringLoad: loopDuringLoad,
    nodeLogs,
  };
  log(`SUMMARY ${JSON.stringify(summary, null, 2)}`);
  if (excusedDuplicates.length)
    log(
      `effects run again under a newer lease after theirs moved before the done-write (allowed: at least once):\n  ${first(excusedDuplicates.map(describe)).join('\n  ')}`,
    );
  for (const [name, list] of Object.entries(problems)) if (list.length) log(`${name}: ${list.length}\n  ${first(list).join('\n  ')}`);
  if (unexcusedDuplicates.length) log(`effect ids delivered twice (not excused):\n  ${first(unexcusedDuplicates.map(describe)).join('\n  ')}`);
  if (staleEpochDeliveries.length) log(`effects run under an older lease than one already seen for the actor:\n  ${first(staleEpochDeliveries).join('\n  ')}`);
  if (deadLetterCollections.length)
    log(`dead letters:\n  ${first(deadLetterCollections.map((letter) => JSON.stringify({ key: letter.key, error: letter.error }))).join('\n  ')}`);

  // Floors: a run whose faults hit nothing, or through which little load got, would pass the checks below vacuously.
  const victimActorsServedBySurvivors = deliveries.filter(
    (d) => d.node !== victim.id && victimShards.includes(shardOf(d.actor.replace(/^account:/, ''), SHARDS)),
  ).length;
  t.true(victimShards.length > 0, 'the killed node held shards when it died');
  t.true(victimAccountsDueAfterKill.length > 0, "some of the killed node's timers fell due after the kill");
  t.true(victimActorsServedBySurvivors > 0, "the killed node's actors ran effects on the survivors");
  t.true(byOutcome.acknowledged >= sent / 2, `most transfers were acknowledged (${byOutcome.acknowledged} of ${sent})`);
  t.true(asksDone, 'every ask got a final answer within its bounds');
  t.true(settled, 'outboxes and timers drained within 45 s of the load stopping');
  t.deepEqual(missingAccounts, [], 'every account exists');
  t.deepEqual(first(problems.ackNotExactlyOnce), [], 'every acknowledged transfer is debited once and credited once');
  t.deepEqual(first(problems.refusedApplied), [], 'a transfer refused on every attempt is not applied');
  t.deepEqual(first(problems.appliedTwice), [], 'no transfer is applied twice');
  t.deepEqual(first(problems.half), [], 'no transfer is half applied (debited, never credited) once outboxes are empty');
  t.deepEqual(first(problems.creditWithoutDebit), [], 'no credit without its debit');
  t.deepEqual(first(problems.misplaced), [], 'debits and credits land on the right accounts');
  t.deepEqual(first(problems.unknownIds), [], 'no transfer id the test never sent');
  t.deepEqual(first(problems.duplicateReplies), [], 'two successful answers to one message id agree');
  t.is(total, initialTotal, 'the sum of balances equals the initial total');
  t.deepEqual(first(problems.balanceMismatch), [], 'each balance is its opening balance plus its applied transfers');
  t.deepEqual(first(alarmsWrong), [], 'every timer armed before the kill fired exactly once');
  t.deepEqual(first(victimTimersNotTakenOver), [], "the killed node's timers due after the kill fired on a survivor");
  t.deepEqual(first(unexcusedDuplicates.map(describe)), [], 'no effect id delivered twice under one lease');
  t.deepEqual(first(staleEpochDeliveries), [], 'no effect runs under a lease older than one that already ran an effect of the same actor (fencing)');
  t.deepEqual(first(creditsNeverRecorded), [], 'every applied credit ran its effect (nothing stranded)');
  t.deepEqual(first(alarmsNeverRecorded), [], 'every fired timer ran its effect (nothing stranded)');
  t.is(outboxPending, 0, 'no account has a pending outbox');
  t.is(deadLetterCollections.length, 0, 'no dead letters');
});
