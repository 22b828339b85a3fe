// AVA config of `npm test`: the suite of package.json's "ava" (test/**/*.test.ts), run from the
// JavaScript that test/support/build-dist.ts builds into dist/, so no worker pays for tsx's
// loader (AVA runs workers with --enable-source-maps, so stacks name the sources). package.json's
// "ava" stays the config of `npx ava <file>`, which runs the sources.
export default {
  files: ['dist/test/**/*.test.js'],
  timeout: '60s',
  workerThreads: false,
  environmentVariables: { PEER_FREEZE_HANDOFFS: '1' },
};
