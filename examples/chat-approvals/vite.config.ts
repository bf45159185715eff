import { defineConfig } from 'vite';

/** The page is plain React: Vite compiles the JSX with the automatic runtime. */
export default defineConfig({
  root: 'page',
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: { outDir: 'dist', emptyOutDir: true },
});
