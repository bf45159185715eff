/**
 * The chat that carries its own sealed continuation (README: "Without a store"), posted back to a
 * route, on a real SQLite store: through the runtime's replay guard (`streamOnce`) the approved
 * tool runs once however often, and however concurrently, the same post arrives, and every other
 * post is answered 409; without the guard each post runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Continuation,
  createRuntime,
  isContinuationError,
  listActions,
  type Runtime,
} from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { readUIMessageStream, tool, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  continuable,
  continuationFromUIMessages,
  decisionsFromUIMessages,
  toUIMessageStream,
  toUIMessageStreamResponse,
} from '../src/index';
import { scriptedLanguageModel } from './support/scripted-language-model';

const seal = { secret: 'ui-seal-secret-0123456789' };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A payer whose payment needs approval, in a runtime with the same seal over a SQLite file. */
function setUp() {
  const ran: string[] = [];
  const agent = continuable(
    {
      model: scriptedLanguageModel([{ toolCalls: [{ name: 'pay', args: { amount: 5 } }] }, 'Paid.']),
      tools: {
        pay: tool({
          inputSchema: z.object({ amount: z.number() }),
          needsApproval: true,
          execute: async ({ amount }) => {
            ran.push(`pay:${amount}`);
            // A tool that takes a while, so that concurrent posts overlap it.
            await new Promise((resolve) => setTimeout(resolve, 20));
            return 'ok';
          },
        }),
      },
    },
    { name: 'payer', seal },
  );
  const dir = mkdtempSync(join(tmpdir(), 'ac-vercel-once-'));
  const store = createSqliteStore({ path: join(dir, 'agents.db') });
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const runtime = createRuntime({ agents: [agent], store, seal });
  return { ran, agent, runtime, store };
}

/** The chat as useChat posts it back: the payment asked, its sealed continuation, and the user's yes. */
async function approvedChat(agent: ReturnType<typeof setUp>['agent']): Promise<UIMessage[]> {
  const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay' }] };
  let message: UIMessage | undefined;
  const stream = toUIMessageStream(agent.stream('pay'), { includeContinuation: true });
  for await (const value of readUIMessageStream({ stream })) message = value;
  for (const part of message!.parts) {
    if ('approval' in part && part.approval) {
      Object.assign(part, {
        state: 'approval-responded',
        approval: { id: part.approval.id, approved: true },
      });
    }
  }
  return [user, structuredClone(message!)];
}

/** The stateless route: the continuation comes from the chat; with `once`, through the guard. */
async function post(
  { agent, runtime }: { agent: ReturnType<typeof setUp>['agent']; runtime: Runtime },
  messages: UIMessage[],
  once: boolean,
): Promise<{ status: number; body: string }> {
  const continuation = (await continuationFromUIMessages(messages, { seal }))!;
  const decide = (stored: Continuation) => decisionsFromUIMessages(messages, listActions(stored));
  try {
    const run = once
      ? await runtime.streamOnce(continuation, decide)
      : agent.stream({ continuation, decisions: decide(continuation) });
    const response = toUIMessageStreamResponse(run, { includeContinuation: true });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    if (isContinuationError(error, 'CLAIM_CONFLICT')) return { status: 409, body: error.message };
    throw error;
  }
}

describe('a sealed continuation carried in the chat, through the replay guard', () => {
  it('two concurrent posts of the same approval: the tool runs once, the other post gets 409', async () => {
    const chat = setUp();
    const messages = await approvedChat(chat.agent);
    const answers = await Promise.all([post(chat, messages, true), post(chat, messages, true)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body).toMatch(/claimed|already resumed/);
    expect(answers.find((answer) => answer.status === 200)?.body).toContain('"type":"finish"');
    expect(chat.ran).toEqual(['pay:5']);
    const id = (await continuationFromUIMessages(messages, { seal }))!.id;
    expect(await chat.store.load(id)).toMatchObject({ status: 'completed' });
  });

  it('a post replayed after the run completed runs nothing and gets 409', async () => {
    const chat = setUp();
    const messages = await approvedChat(chat.agent);
    expect((await post(chat, messages, true)).status).toBe(200);
    const replay = await post(chat, structuredClone(messages), true);
    expect(replay).toMatchObject({ status: 409, body: expect.stringContaining('already resumed') });
    expect(chat.ran).toEqual(['pay:5']);
    expect((await chat.store.list()).items).toHaveLength(1);
  });

  it('without the guard, as the README says, each of two posts runs the approved tool', async () => {
    const chat = setUp();
    const messages = await approvedChat(chat.agent);
    const answers = await Promise.all([post(chat, messages, false), post(chat, messages, false)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(chat.ran).toEqual(['pay:5', 'pay:5']);
    expect((await chat.store.list()).items).toEqual([]);
  });
});
