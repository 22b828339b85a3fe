/**
 * The checkout page's script, bundled for browsers from client/ by esbuild the first
 * time it is asked for and kept in memory: one file, with the parts of jose and viem the
 * page seals and checks with, so the page loads nothing from another origin.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = fileURLToPath(new URL('./client/checkout-app.ts', import.meta.url));

let bundle: Promise<string> | undefined;

export function checkoutScript(): Promise<string> {
  bundle ??= build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
  }).then(
    (result) => result.outputFiles[0]!.text,
    (error: unknown) => {
      // A failed build is retried on the next request rather than kept.
      bundle = undefined;
      throw error;
    },
  );
  return bundle;
}
