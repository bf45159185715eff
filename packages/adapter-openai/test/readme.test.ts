/**
 * The README's example runs as shown: the test holds the file the README quotes, points the
 * example's `new OpenAI()` at the scripted server through OPENAI_BASE_URL, and runs it in a
 * fresh directory, where it makes its SQLite file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
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
        { toolCalls: [{ name: 'transfer', args: { to: 'Bob', amount: 50 } }] },
        (request) => `Done: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
      ],
    },
  });
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
  vi.stubEnv('OPENAI_API_KEY', 'test-key');
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const cwd = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'ac-openai-readme-'));
  try {
    process.chdir(dir);
    await import('./readme/example');

    // The approver saw the call, and the resumed run returned the model's answer to its result.
    expect(log.mock.calls).toEqual([
      ['approved:', 'transfer', { to: 'Bob', amount: 50 }],
      ['completed', 'Done: {"sent":50,"to":"Bob"}'],
    ]);
    // Two model calls over HTTP with the client's key: the one that asked, the one after approval.
    expect(server.requests.map((request) => [request.path, request.model, request.status])).toEqual([
      ['/v1/chat/completions', 'gpt-4.1-mini', 200],
      ['/v1/chat/completions', 'gpt-4.1-mini', 200],
    ]);
    expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toEqual(['transfer']);
    expect(server.requests[1]!.body.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: '{"sent":50,"to":"Bob"}',
    });

    // The money moved once, and nothing waits any more.
    const store = createSqliteStore({ path: join(dir, 'accounts.db') });
    try {
      expect(store.database.prepare('SELECT recipient, amount FROM transfers').all()).toEqual([
        { recipient: 'Bob', amount: 50 },
      ]);
      expect((await store.list()).items.map((item) => item.status)).toEqual(['completed']);
    } finally {
      await store.close();
    }
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
});
