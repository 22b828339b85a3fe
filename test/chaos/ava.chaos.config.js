// AVA config of the chaos suite (npm run test:chaos). Kept apart from package.json's "ava",
// whose files glob (test/**/*.test.ts) does not match test/chaos/*.chaos.ts, so `npm test` never runs it.
export default {
  files: ['test/chaos/**/*.chaos.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  // As in the main suite (package.json): the embedded store freezes what the runtime hands it.
  environmentVariables: { PEER_FREEZE_HANDOFFS: '1' },
  timeout: '3m',
  workerThreads: false,
  verbose: true,
};
