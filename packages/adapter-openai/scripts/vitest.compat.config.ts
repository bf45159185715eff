/**
 * The adapter's tests against another installed `openai` (set OPENAI_COMPAT_DIR to the folder
 * whose node_modules holds it); used by compat-openai7.sh.
 */
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from '../../../vitest.config';

const dir = process.env.OPENAI_COMPAT_DIR;
if (!dir) throw new Error('Set OPENAI_COMPAT_DIR to the folder where the other openai version is installed.');
const openai = join(dir, 'node_modules', 'openai');

export default defineConfig({
  ...base,
  root: join(import.meta.dirname, '..', '..', '..'),
  resolve: { ...base.resolve, alias: [{ find: /^openai(\/.*)?$/, replacement: `${openai}$1` }] },
  test: {
    ...base.test,
    // This adapter's tests, and its drop-in suite against openai-node's own runTools and parse().
    include: [
      'packages/adapter-openai/test/**/*.test.ts',
      'integration/cross-framework/test/dropin-openai.test.ts',
    ],
    // The README example keeps its state in SQLite, whose native module is built for the default
    // toolchain's Node; it does not exercise openai itself differently from the other tests.
    exclude: ['**/node_modules/**', 'packages/adapter-openai/test/readme.test.ts'],
  },
});
