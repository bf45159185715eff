/**
 * The adapter's tests against another install of the AI SDK (ai@7 and @ai-sdk/openai@4, put in
 * AI_SDK_DIR by compat-ai7.sh): the workspace config, with the SDK imports pointed there.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../../vitest.config.ts';

const dir = process.env.AI_SDK_DIR;
if (!dir) throw new Error('Set AI_SDK_DIR to the folder holding node_modules/ai (see compat-ai7.sh).');
// Resolved from that folder, by each package's own exports map.
const resolve = createRequire(join(dir, 'package.json')).resolve;

const config = mergeConfig(
  base,
  defineConfig({
    resolve: {
      alias: [
        { find: /^ai$/, replacement: resolve('ai') },
        { find: /^ai\/test$/, replacement: resolve('ai/test') },
        { find: /^@ai-sdk\/openai$/, replacement: resolve('@ai-sdk/openai') },
      ],
    },
  }),
);
// Only this adapter's tests and its drop-in suite (mergeConfig would add to the workspace's
// include list, not replace it). The README examples and the replay guard's tests keep their
// state in SQLite, whose native module is built for the default toolchain's Node, so they run in
// the default leg only.
config.test = {
  ...config.test,
  env: { ...config.test?.env, AI_SDK_LEG: '7' },
  include: [
    'packages/adapter-vercel-ai/test/**/*.test.ts',
    'integration/cross-framework/test/dropin-vercel-ai.test.ts',
  ],
  exclude: [
    '**/node_modules/**',
    'packages/adapter-vercel-ai/test/readme.test.ts',
    'packages/adapter-vercel-ai/test/stateless-once.test.ts',
  ],
};

export default config;
