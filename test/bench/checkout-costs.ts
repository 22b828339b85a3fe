/**
 * Where a checkout run's time goes, read from outside the cluster: the CPU time of every
 * process the bench started (the nodes, the indexer, the store, the nats-servers, HAProxy,
 * anvil, and the bench itself with the attestation service) from /proc, and the nodes' own
 * histograms of store operations and asks from their Prometheus endpoints, before and after.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { LocalCluster } from '../../deploy/cluster/index.js';
import { parseExposition } from '../support/prometheus-text.js';

const TICKS_PER_SECOND = 100;

interface Snapshot {
  at: number;
  /** pid → its group and CPU seconds so far. */
  cpu: Map<number, { name: string; seconds: number }>;
  /** `node\tfamily labels` → sum of seconds and count. */
  histograms: Map<string, { sum: number; count: number }>;
  /** node → turn conflicts so far. */
  conflicts: Map<string, number>;
}

export interface Costs {
  seconds: number;
  /** CPU seconds per wall second, by process group, largest first. */
  cores: Array<{ name: string; cores: number }>;
  /** Histogram rows with the most time in the window: mean ms and how many. */
  slowest: Array<{ name: string; count: number; meanMs: number; totalSeconds: number }>;
  turnConflicts: number;
}

export async function costSnapshot(cluster: LocalCluster): Promise<Snapshot> {
  const names = new Map<number, string>();
  for (const node of cluster.nodes) for (const run of node.runs) if (run.pid) names.set(run.pid, 'nodes');
  if (cluster.indexer.process.pid) names.set(cluster.indexer.process.pid, 'indexer');
  if (cluster.store.process?.pid) names.set(cluster.store.process.pid, 'store');
  for (const proc of cluster.nats.processes) if (proc.pid) names.set(proc.pid, 'nats-servers');
  if (cluster.haproxy?.pid) names.set(cluster.haproxy.pid, 'haproxy');
  const cpu = new Map<number, { name: string; seconds: number }>();
  const usage = process.cpuUsage();
  cpu.set(process.pid, { name: 'bench + attestation service', seconds: (usage.user + usage.system) / 1e6 });
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat || stat.ppid !== process.pid) continue;
    const name = names.get(Number(entry)) ?? (stat.comm === 'anvil' ? 'anvil' : null);
    if (name) cpu.set(Number(entry), { name, seconds: stat.seconds });
  }
  const histograms = new Map<string, { sum: number; count: number }>();
  const conflicts = new Map<string, number>();
  for (const node of cluster.nodes) {
    if (!node.process.alive) continue;
    const text = await fetch(`http://127.0.0.1:${node.metricsPort}/metrics`)
      .then((answer) => answer.text())
      .catch(() => '');
    if (!text) continue;
    const families = parseExposition(text);
    for (const family of ['peer_store_operation_duration_seconds', 'peer_ask_duration_seconds']) {
      for (const sample of families.get(family)?.samples ?? []) {
        const suffix = sample.name.endsWith('_sum') ? 'sum' : sample.name.endsWith('_count') ? 'count' : null;
        if (!suffix) continue;
        const key = `${node.name}\t${family.replace('peer_', '').replace('_duration_seconds', '')} ${Object.values(sample.labels).join('/')}`;
        const row = histograms.get(key) ?? { sum: 0, count: 0 };
        row[suffix] += sample.value;
        histograms.set(key, row);
      }
    }
    for (const sample of families.get('peer_turn_conflicts_total')?.samples ?? []) conflicts.set(node.name, (conflicts.get(node.name) ?? 0) + sample.value);
  }
  return { at: Date.now(), cpu, histograms, conflicts };
}

/**
 * What happened between two snapshots. A process gone by the second (a killed node) is not counted, nor are its
 * histograms: a killed node's share of the window is missing from both.
 */
export function costsBetween(before: Snapshot, after: Snapshot): Costs {
  const seconds = (after.at - before.at) / 1000;
  const byName = new Map<string, number>();
  for (const [pid, { name, seconds: total }] of after.cpu) byName.set(name, (byName.get(name) ?? 0) + total - (before.cpu.get(pid)?.seconds ?? 0));
  const cores = [...byName].map(([name, total]) => ({ name, cores: total / seconds })).sort((a, b) => b.cores - a.cores);
  const summed = new Map<string, { sum: number; count: number }>();
  for (const [key, row] of after.histograms) {
    const was = before.histograms.get(key) ?? { sum: 0, count: 0 };
    const name = key.split('\t')[1]!;
    const total = summed.get(name) ?? { sum: 0, count: 0 };
    summed.set(name, { sum: total.sum + row.sum - was.sum, count: total.count + row.count - was.count });
  }
  const slowest = [...summed]
    .map(([name, { sum, count }]) => ({ name, count, meanMs: count > 0 ? (sum / count) * 1000 : 0, totalSeconds: sum }))
    .filter((row) => row.count > 0)
    .sort((a, b) => b.totalSeconds - a.totalSeconds)
    .slice(0, 8);
  let turnConflicts = 0;
  for (const [node, count] of after.conflicts) turnConflicts += count - (before.conflicts.get(node) ?? 0);
  return { seconds, cores, slowest, turnConflicts };
}

function readStat(pid: number): { ppid: number; comm: string; seconds: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    // Fields after the command: state ppid … utime (14th of the line) stime (15th).
    const fields = text.slice(close + 2).split(' ');
    return { ppid: Number(fields[1]), comm, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}
