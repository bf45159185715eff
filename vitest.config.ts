import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@agent-continuations/source'] },
  ssr: { resolve: { conditions: ['@agent-continuations/source'] } },
  test: {
    include: [
      'test/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'integration/*/test/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
