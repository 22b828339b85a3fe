/**
 * The local cluster's load balancer: HAProxy (Debian's package) in front of the nodes.
 *
 * - Health: every node's readiness probe every half second; two failures take it out of
 *   the rotation, two passes bring it back. A stopping node answers 503 there at once and
 *   keeps serving for ROTATION_LEAVE_MS (longer than the two failed checks), so nothing
 *   is sent to a node that has stopped listening.
 * - Retries: a request whose connection could not be made is retried on another node
 *   whatever its method (it was never sent). One that was sent and failed (no answer, a
 *   broken answer, a timeout, a 503) is retried only when repeating it is harmless: a
 *   GET, HEAD, OPTIONS, PUT or DELETE, or any request carrying an Idempotency-Key, which
 *   the platform answers once however often it arrives.
 * - The client's address goes to the node in X-Forwarded-For; the nodes trust it from
 *   loopback only (TRUSTED_PROXIES), so rate limits count the client, not the balancer.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listening } from './free-port.js';
import { ServiceProcess } from './service-process.js';

export const HAPROXY = '/usr/sbin/haproxy';

export interface Backend {
  name: string;
  port: number;
}

/** How often the balancer probes each node, and how many answers in a row move it out of or back into the rotation. */
export const CHECK_INTERVAL_MS = 500;
export const CHECKS_TO_CHANGE = 2;
/** What a node must keep serving after it leaves the rotation: the checks that notice, and a margin for one in flight. */
export const ROTATION_LEAVE_MS = CHECK_INTERVAL_MS * (CHECKS_TO_CHANGE + 1) + 1_000;

export function haproxyConfig(port: number, backends: Backend[], statsSocket: string): string {
  return `global
  maxconn 4096
  stats socket ${statsSocket} mode 600 level admin
  log stdout format raw local0 notice

defaults
  mode http
  log global
  option httplog
  option forwardfor
  option redispatch
  retries 3
  retry-on conn-failure empty-response junk-response response-timeout 503
  timeout connect 2s
  timeout client 65s
  timeout server 65s
  timeout http-request 10s
  timeout http-keep-alive 10s
  timeout queue 10s

frontend platform
  bind 127.0.0.1:${port}
  # Only a request that is harmless to repeat is sent again once a node has seen it.
  acl idempotent_method method GET HEAD OPTIONS PUT DELETE
  acl idempotency_key req.hdr(idempotency-key) -m found
  http-request disable-l7-retry if !idempotent_method !idempotency_key
  default_backend nodes

backend nodes
  balance roundrobin
  option httpchk
  http-check send meth GET uri /v1/health-check/ready
  http-check expect status 200
  default-server inter ${CHECK_INTERVAL_MS} fastinter ${CHECK_INTERVAL_MS} downinter ${CHECK_INTERVAL_MS} rise ${CHECKS_TO_CHANGE} fall ${CHECKS_TO_CHANGE}
${backends.map((backend) => `  server ${backend.name} 127.0.0.1:${backend.port} check`).join('\n')}
`;
}

/** Writes the configuration into `folder`, checks it (`haproxy -c`), and starts HAProxy in the foreground. */
export async function startHaproxy(folder: string, port: number, backends: Backend[], timeoutMs = 10_000): Promise<ServiceProcess> {
  const file = join(folder, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, backends, join(folder, 'haproxy.sock')));
  const proc = ServiceProcess.spawn({
    name: 'haproxy',
    command: HAPROXY,
    args: ['-db', '-f', file],
    env: {},
    cwd: folder,
    logFile: join(folder, 'haproxy.log'),
  });
  await proc.ready(() => listening(port), timeoutMs);
  return proc;
}
