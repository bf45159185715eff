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
import { afterAll, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { serveRoute, TestChat } from './support/chat-client';

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
  await (await import('./readme/runtime')).runtime.store.close?.();
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
  for (const file of ['agent.ts', 'run.ts', 'runtime.ts', 'chat-route.ts', 'chat-agent-route.ts']) {
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

describe('the chat routes', () => {
  /** Serve a README route, ask for a transfer in chat `id`, and return what the approval waits on. */
  const askVia = async (POST: (request: Request) => Promise<Response>, id: string) => {
    const { savedChats } = await import('./readme/my-app');
    const route = await serveRoute(POST);
    const chat = new TestChat(route.url, id);
    await chat.sendMessage({ text: 'Send 500 EUR to Bob' });
    const waiting = chat.waitingApprovals();
    expect(waiting).toHaveLength(1);
    return { savedChats, route, chat, approval: waiting[0]! };
  };

  it('chatRoute: the approval runs once, for its own chat and user only; onFinish saves the chat', async () => {
    const { savedChats, route, chat, approval } = await askVia(
      (await import('./readme/chat-route')).POST,
      'chat-1',
    );
    const waiting = savedChats.get('chat-1')!;
    expect(waiting[1]!.parts.find((part) => part.type === 'tool-transfer')).toMatchObject({
      state: 'approval-requested',
      input: { to: 'Bob', amount: 500 },
    });
    // Another chat posting this approval, and another user in this chat: nothing runs.
    await new TestChat(route.url, 'chat-2', waiting).answer(approval, true);
    await new TestChat(route.url, 'chat-1', waiting, { 'x-user': 'mallory' }).answer(approval, true);
    expect(route.statuses).toEqual([200, 404, 404]);
    expect(logged()).toEqual([]);
    // The owner's click: the transfer runs once, and the saved chat holds the continued message.
    await chat.answer(approval, true);
    expect(logged()).toEqual(['Sent 500 EUR to Bob']);
    const saved = savedChats.get('chat-1')!;
    expect(saved.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(saved[1]!.id).toBe(waiting[1]!.id);
    expect(saved[1]!.parts.find((part) => part.type === 'tool-transfer')).toMatchObject({
      state: 'output-available',
      output: { status: 'sent', to: 'Bob', amount: 500 },
    });
    expect(saved).toEqual(chat.messages);
    // A second tab that still shows the approval: 409, with a message the page shows.
    const late = new TestChat(route.url, 'chat-1', waiting);
    await late.answer(approval, true);
    expect(route.statuses).toEqual([200, 404, 404, 200, 409]);
    expect(late.error?.message).toMatch(/already decided .*Reload the chat/);
    expect(logged()).toEqual(['Sent 500 EUR to Bob']);
    await route.close();
  });

  it('chatAgent in createAgentUIStreamResponse: the same, its refusals thrown as typed errors', async () => {
    const { POST } = await import('./readme/chat-agent-route');
    const { savedChats, route, chat, approval } = await askVia(POST, 'chat-3');
    // Another chat posts this chat's messages with the approval answered, as its page would.
    const answered = structuredClone(savedChats.get('chat-3')!);
    const part = answered[1]!.parts.find((each) => each.type === 'tool-transfer')!;
    Object.assign(part, { state: 'approval-responded', approval: { id: approval, approved: true } });
    const forged = POST(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        body: JSON.stringify({ id: 'chat-4', messages: answered }),
      }),
    );
    await expect(forged).rejects.toSatisfy((error) => isContinuationError(error, 'NOT_FOUND'));
    await chat.answer(approval, true);
    expect(logged()).toEqual(['Sent 500 EUR to Bob']);
    expect(lastToolResults(server.requests.at(-1)!.modelRequest!.messages)[0]!.output).toEqual({
      status: 'sent',
      to: 'Bob',
      amount: 500,
    });
    expect(savedChats.get('chat-3')).toEqual(chat.messages);
    expect(route.statuses).toEqual([200, 200]);
    await route.close();
  });
});
