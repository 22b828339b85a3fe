/**
 * deploy/cluster/: the platform as a cluster on one machine. `npm run cluster`
 * (cluster-main.ts) starts three clustered nats-servers, the shared store (MONGODB_URI or
 * the local stand-in for MongoDB), the attestation service, a local chain, the indexer,
 * the nodes and HAProxy in front of them (local-cluster.ts); the rolling-restart test and
 * `npm run bench -- checkout` drive the same launcher.
 */
export { ClusterNode, LocalCluster, type LocalClusterOptions } from './local-cluster.js';
export { haproxyConfig, CHECK_INTERVAL_MS, ROTATION_LEAVE_MS } from './haproxy.js';
