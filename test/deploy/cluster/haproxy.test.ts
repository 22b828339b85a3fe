/**
 * The local cluster's balancer configuration (deploy/cluster/haproxy.ts): HAProxy itself
 * accepts it (`haproxy -c`), it probes the readiness path, and it sends a request again
 * once a node has seen it only when repeating it is harmless.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { CHECK_INTERVAL_MS, ROTATION_LEAVE_MS, haproxyConfig } from '../../../deploy/cluster/index.js';
import { HAPROXY } from '../../../deploy/cluster/haproxy.js';

const backends = [
  { name: 'node-1', port: 21001 },
  { name: 'node-2', port: 21002 },
];

test('HAProxy accepts the configuration', (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'haproxy-config-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(21000, backends, join(folder, 'haproxy.sock')));
  const output = execFileSync(HAPROXY, ['-c', '-f', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  t.regex(output, /Configuration file is valid/);
});

test('it probes readiness, and repeats a request a node has seen only when it is idempotent or carries an Idempotency-Key', (t) => {
  const config = haproxyConfig(21000, backends, '/tmp/haproxy.sock');
  t.regex(config, /http-check send meth GET uri \/v1\/health-check\/ready/);
  t.regex(config, /acl idempotent_method method GET HEAD OPTIONS PUT DELETE/);
  t.regex(config, /acl idempotency_key req\.hdr\(idempotency-key\) -m found/);
  t.regex(config, /http-request disable-l7-retry if !idempotent_method !idempotency_key/);
  t.regex(config, /option forwardfor/);
  for (const backend of backends) t.true(config.includes(`server ${backend.name} 127.0.0.1:${backend.port} check`));
  // A stopping node keeps serving until the failed checks have taken it out, with a margin.
  t.true(ROTATION_LEAVE_MS > CHECK_INTERVAL_MS * 2);
});
