/**
 * Every TypeScript example of the README is a file under test/readme/, shown verbatim: these tests
 * check the README holds each one, then run them with the real `@ai-sdk/openai` provider pointed
 * at the scripted OpenAI-compatible server through `OPENAI_BASE_URL`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isContinuationError, type ModelRequest, textOf } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import {
  lastToolResults,
  type ScriptedOpenAIServer,
  type ScriptedReply,
  startScriptedOpenAIServer,
} from '@agent-continuations/testing';
import { continuationRefFromUIMessages } from '@agent-continuations/vercel-ai';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';

const here = import.meta.dirname;
const readme = readFileSync(join(here, '../README.md'), 'utf8');

// The bank assistant: a transfer when asked for one, the tool's result once it has one.
function bankModel(request: ModelRequest): ScriptedReply {
  const [result] = lastToolResults(request.messages);
  if (result) return `Done: ${JSON.stringify(result.output)}`;
  const asked = textOf(request.messages.filter((message) => message.role === 'user').at(-1));
  const transfer = /Send (\d+) EUR to (\w+)/.exec(asked);
  if (!transfer) return 'Anything else?';
  return { toolCalls: [{ name: 'transfer', args: { to: transfer[2]!, amount: Number(transfer[1]) } }] };
}

let server: ScriptedOpenAIServer;
let dir: string;
let log: MockInstance<typeof console.log>;
const cwd = process.cwd();
const env = { OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: process.env.OPENAI_API_KEY };

beforeAll(async () => {
  server = await startScriptedOpenAIServer({ scripts: { 'gpt-4.1': bankModel } });
  // What a user sets to reach OpenAI; here it reaches the scripted server.
  process.env.OPENAI_BASE_URL = server.baseURL;
  process.env.OPENAI_API_KEY = 'sk-test';
  // The examples keep their store in `agents.db` of the working folder.
  dir = mkdtempSync(join(tmpdir(), 'ac-vercel-readme-'));
  process.chdir(dir);
});
beforeEach(() => {
  log = vi.spyOn(console, 'log').mockImplementation(() => {});
  return () => log.mockRestore();
});
afterAll(async () => {
  process.chdir(cwd);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

const logged = () => log.mock.calls.map((args) => args.join(' '));

it('shows every example file verbatim', () => {
  for (const file of ['agent.ts', 'run.ts', 'route.ts']) {
    expect(readme).toContain(`\`\`\`ts\n${readFileSync(join(here, 'readme', file), 'utf8')}\`\`\``);
  }
});

it('runs the Use example: suspends before the transfer, saves, resumes with the approval, transfers once', async () => {
  await import('./readme/run');
  expect(logged()).toEqual(['Sent 500 EUR to Bob', 'Done: {"status":"sent","to":"Bob","amount":500}']);
  const calls = server.requests.filter((request) => request.model === 'gpt-4.1');
  expect(calls.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses']);
  expect(JSON.stringify(calls[0]!.body.tools)).toContain('"transfer"');
  const store = createSqliteStore({ path: join(dir, 'agents.db') });
  // Resumed under a claim: it can never be resumed again.
  const { items } = await store.list();
  expect(items.map((item) => [item.agentName, item.status])).toEqual([['accounts', 'completed']]);
  await store.close();
});

describe('the useChat route handler', () => {
  const user = (id: string, text: string): UIMessage => ({
    id,
    role: 'user',
    parts: [{ type: 'text', text }],
  });

  // What useChat does: post the messages, build the assistant message from the event stream.
  async function post(messages: UIMessage[]): Promise<UIMessage> {
    const { POST } = await import('./readme/route');
    const response = await POST(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user-email': 'ann@example.com' },
        body: JSON.stringify({ messages }),
      }),
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const chunks = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice('data: '.length)) as UIMessageChunk);
    const last = messages.at(-1);
    let message: UIMessage | undefined;
    for await (const value of readUIMessageStream({
      stream: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
      ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}),
    }))
      message = value;
    return structuredClone(message!);
  }

  it('asks for approval in the chat, resumes from the answer exactly once, then goes on chatting', async () => {
    const ask = user('u1', 'Send 500 EUR to Bob');
    const waiting = await post([ask]);
    expect(logged()).toEqual([]);
    const part = waiting.parts.find((candidate) => candidate.type === 'tool-transfer');
    expect(part).toMatchObject({ state: 'approval-requested', input: { to: 'Bob', amount: 500 } });

    // addToolApprovalResponse, then useChat sends the messages back.
    if (part?.type !== 'tool-transfer' || !part.approval) throw new Error('no approval part');
    Object.assign(part, { state: 'approval-responded', approval: { id: part.approval.id, approved: true } });
    const done = await post([ask, waiting]);
    expect(logged()).toEqual(['Sent 500 EUR to Bob']);
    // The same assistant message goes on: the transfer's output, then the answer.
    expect(done.id).toBe(waiting.id);
    expect(done.parts.find((candidate) => candidate.type === 'tool-transfer')).toMatchObject({
      state: 'output-available',
      output: { status: 'sent', to: 'Bob', amount: 500 },
    });
    expect(done.parts.filter((candidate) => candidate.type === 'text').at(-1)).toMatchObject({
      text: 'Done: {"status":"sent","to":"Bob","amount":500}',
    });

    // The same answer posted again resumes nothing.
    const again = await post([ask, waiting]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isContinuationError(again, 'CLAIM_CONFLICT')).toBe(true);
    const store = createSqliteStore({ path: join(dir, 'agents.db') });
    const { id } = continuationRefFromUIMessages([waiting])!;
    expect((await store.load(id))?.status).toBe('completed');
    await store.close();

    // The next message is a new turn over the whole chat, and transfers nothing more.
    const next = await post([ask, done, user('u2', 'Thanks!')]);
    expect(next.parts.filter((candidate) => candidate.type === 'text').at(-1)).toMatchObject({
      text: 'Anything else?',
    });
    expect(logged()).toEqual(['Sent 500 EUR to Bob']);
    // The model saw the chat so far, the transfer and its result included.
    const seen = server.requests.at(-1)!.modelRequest!.messages;
    expect(seen.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(lastToolResults(seen.slice(0, 3))[0]!.output).toEqual({ status: 'sent', to: 'Bob', amount: 500 });
  });
});
