import { defineConfig, type Options } from 'tsup';

/** Shared build: ESM and CJS with declarations, one entry per public subpath. */
export function packageBuild(
  entry: Record<string, string> = { index: 'src/index.ts' },
  extra: Partial<Options> = {},
) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
    minifyWhitespace: true,
    minifySyntax: true,
    ...extra,
  });
}
