// AVA config of the cluster suite (npm run test:cluster): tests that run the local cluster
// (deploy/cluster/) with its nats-servers, HAProxy and node processes. Kept apart from
// package.json's "ava", whose files glob (test/**/*.test.ts) does not match *.cluster.ts.
export default {
  files: ['test/cluster/**/*.cluster.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  timeout: '5m',
  workerThreads: false,
  serial: true,
  verbose: true,
};
