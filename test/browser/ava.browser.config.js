// AVA config of the browser suite (npm run test:browser). Kept apart from package.json's "ava",
// whose files glob (test/**/*.test.ts) does not match test/browser/*.browser.ts, so `npm test`
// never needs a browser.
export default {
  files: ['test/browser/**/*.browser.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  // As in the main suite (package.json): the embedded store freezes what the runtime hands it.
  environmentVariables: { PEER_FREEZE_HANDOFFS: '1' },
  timeout: '2m',
  workerThreads: false,
  verbose: true,
};
