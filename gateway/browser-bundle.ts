/**
 * A page script bundled for browsers by esbuild the first time it is asked for and kept in
 * memory, one file with everything it imports, so a page loads nothing from another origin.
 */
import { build } from 'esbuild';

export function browserBundle(entry: string): () => Promise<string> {
  let bundle: Promise<string> | undefined;
  return () => {
    bundle ??= build({
      entryPoints: [entry],
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
  };
}
