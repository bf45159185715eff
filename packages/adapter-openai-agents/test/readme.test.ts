/**
 * The README's example runs as shown: the test holds the file the README quotes and points the
 * SDK's default OpenAI client at the scripted server through OPENAI_BASE_URL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastToolResults, startScriptedOpenAIServer } from '@agent-continuations/testing';
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

it('runs the README example, which the README shows verbatim', async () => {
  const example = readFileSync(join(import.meta.dirname, 'readme/example.ts'), 'utf8');
  expect(readFileSync(join(import.meta.dirname, '../README.md'), 'utf8')).toContain(example);
  const server = await startScriptedOpenAIServer({
    scripts: {
      'gpt-4.1-mini': [
        { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 500 } }] },
        (request) => `Done: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
      ],
    },
  });
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
  vi.stubEnv('OPENAI_API_KEY', 'test-key');
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import('./readme/example');
    expect(log.mock.calls).toEqual([
      ['waiting: transfer {"to":"bob","amount":500}'],
      ['Done: {"sent":500,"to":"bob"}'],
    ]);
    // The model was called twice: once to ask for the transfer, once with its result.
    expect(server.requests).toHaveLength(2);
  } finally {
    await server.close();
  }
});
