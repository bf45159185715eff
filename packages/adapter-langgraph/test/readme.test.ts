import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseContinuation } from '@agent-continuations/core';
import {
  lastToolResults,
  type Script,
  type ScriptedOpenAIServer,
  startScriptedOpenAIServer,
} from '@agent-continuations/testing';
import { expect, it, vi } from 'vitest';

// The model of the example: check the logs and restart at once, then report what the tools said.
const script: Script = [
  {
    toolCalls: [
      { name: 'read_logs', args: { service: 'checkout' } },
      { name: 'restart_service', args: { service: 'checkout' } },
    ],
  },
  (request) =>
    `Done: ${lastToolResults(request.messages)
      .map((result) => result.output)
      .join('; ')}`,
];

// The model of the LangGraph API example: a refund, then what the tool said.
const refundScript: Script = [
  { toolCalls: [{ name: 'refund', args: { order: 'A-7', amount: 120 } }] },
  (request) =>
    `Done: ${lastToolResults(request.messages)
      .map((result) => result.output)
      .join('; ')}`,
];

/**
 * Check the README holds test/readme/`file` verbatim, then import it in a fresh directory with the
 * real OpenAI client pointed at a scripted server; `check` gets what it logged and the directory.
 */
async function runExample(
  file: string,
  modelScript: Script,
  check: (lines: string[], dir: string, server: ScriptedOpenAIServer) => void,
): Promise<void> {
  const example = readFileSync(join(import.meta.dirname, 'readme', file), 'utf8');
  expect(readFileSync(join(import.meta.dirname, '../README.md'), 'utf8')).toContain(example);

  const server = await startScriptedOpenAIServer({ scripts: { 'gpt-4.1-mini': modelScript } });
  const env = { OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.join(' '));
  });
  const cwd = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'ac-langgraph-readme-'));
  try {
    process.env.OPENAI_BASE_URL = server.baseURL;
    process.env.OPENAI_API_KEY = 'test';
    process.chdir(dir);
    await import(`./readme/${file.replace(/\.ts$/, '')}`);
    check(lines, dir, server);
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
    log.mockRestore();
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await server.close();
  }
}

it('runs the README example, which the README shows verbatim', async () => {
  await runExample('example.ts', script, (lines, dir, server) => {
    // Each tool ran once: read_logs before the suspension, not again on resume; the restart once, approved.
    expect(lines).toEqual([
      'reading the logs of checkout',
      'approving restart_service {"service":"checkout"}',
      'restarting checkout',
      'Done: checkout: OOMKilled 3 times in 10 minutes; checkout restarted',
    ]);
    // The file held a LangGraph continuation with its graph state, waiting on the restart alone.
    const saved = parseContinuation(readFileSync(join(dir, 'continuation.json'), 'utf8'));
    expect(saved.agent).toMatchObject({ name: 'ops', framework: 'langgraph' });
    expect(saved.state).toBeDefined();
    expect(saved.pending.map((action) => action.toolName)).toEqual(['restart_service']);
    // Two model calls over HTTP; the second saw both tool results.
    const chat = server.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chat).toHaveLength(2);
    const toolMessages = chat[1]!.body.messages.filter(
      (message: { role: string }) => message.role === 'tool',
    );
    expect(toolMessages.map((message: { content: string }) => message.content)).toEqual([
      'checkout: OOMKilled 3 times in 10 minutes',
      'checkout restarted',
    ]);
  });
});

it("runs the README's LangGraph API example, which the README shows verbatim", async () => {
  await runExample('api.ts', refundScript, (lines, _dir, server) => {
    // The interrupt as Agent Inbox reads it, then the refund ran once, accepted, and the answer.
    expect(lines).toEqual([
      JSON.stringify({
        action_request: { action: 'refund', args: { order: 'A-7', amount: 120 } },
        config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
      }),
      'refunding 120 EUR on A-7',
      'Done: refunded 120 EUR on A-7',
    ]);
    expect(server.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);
  });
});

it("runs the README's thread-mode example, which the README shows verbatim", async () => {
  await runExample('thread.ts', refundScript, (lines, _dir, server) => {
    // The refund ran once, in the resume, and the app's own thread shows the run finished.
    expect(lines).toEqual([
      'refunding 120 EUR on A-7',
      'Done: refunded 120 EUR on A-7',
      'the thread is finished',
    ]);
    expect(server.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);
  });
});
