/**
 * An AI SDK chat app as its docs build one, adopting the library by wrapping its agent: the AI
 * SDK's own client (`AbstractChat` + `DefaultChatTransport` + the approval predicate, what
 * `useChat` wraps) over HTTP to a route made with `chatRoute` (`createAgentUIStreamResponse`
 * underneath), the model the real `@ai-sdk/openai` provider talking to the scripted server.
 */
import {
  type ContinuationStore,
  createMemoryStore,
  createRuntime,
  type Message,
  type ModelRequest,
  type Runtime,
  textOf,
} from '@agent-continuations/core';
import { type ScriptedReply, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { createOpenAI } from '@ai-sdk/openai';
import {
  createAgentUIStreamResponse,
  type Tool,
  ToolLoopAgent,
  tool,
  type UIMessage,
  validateUIMessages,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  agentTool,
  type ChatRouteOptions,
  type ContinuableOptions,
  chatAgent,
  chatRoute,
  continuable,
  continuationDataSchema,
  SUPERSEDED_REASON,
} from '../src/index';
import { serveRoute, TestChat } from './support/chat-client';

let ids = 0;
const nextId = () => `call_${++ids}`;

/** The last message's text, or its tool results as JSON. */
function lastWords(messages: readonly Message[]): string {
  const last = messages.at(-1)!;
  if (last.role === 'tool') return last.content.map((part) => JSON.stringify(part.output)).join(' | ');
  return textOf(last);
}

/** A model that calls `tool` with `args` for a user message, and reports the tool's result. */
function delegating(name: string, args: (text: string) => Record<string, unknown>) {
  return (request: ModelRequest): ScriptedReply => {
    const last = request.messages.at(-1)!;
    if (last.role === 'tool') return `${name} says: ${lastWords(request.messages)}`;
    const text = textOf(last);
    if (text.includes('balance')) return 'Your balance is 100 EUR.';
    return { toolCalls: [{ id: nextId(), name, args: args(text) as never }] };
  };
}

const server = setupScriptedOpenAIServer({
  scripts: {
    bank: delegating('transfer', () => ({ to: 'Bob', amount: 500 })),
    payer: delegating('pay', () => ({ to: 'Bob', amount: 500 })),
    orchestrator: delegating('payments', (text) => ({ input: text })),
    top: delegating('finance', (text) => ({ input: text })),
    finance: delegating('payments', (text) => ({ input: text })),
  },
});

const provider = () => createOpenAI({ baseURL: server.baseURL, apiKey: 'test' });

/** The agents of the app: a flat one, and depth 2 and 3 chains to a payer whose payments need approval. */
function agents(ran: string[], policies?: ContinuableOptions['policies']) {
  const money = (label: string) =>
    tool({
      description: 'Move money',
      inputSchema: z.object({ to: z.string(), amount: z.number() }),
      needsApproval: true,
      execute: async ({ to, amount }) => {
        ran.push(`${label}:${to}:${amount}`);
        return { status: 'sent', to, amount };
      },
    });
  const agent = (name: string, tools: Record<string, Tool>) =>
    continuable(new ToolLoopAgent({ model: provider().chat(name), tools, maxRetries: 0 }), {
      name,
      ...(policies && name === 'bank' ? { policies } : {}),
    });
  const payer = agent('payer', { pay: money('pay') });
  const finance = agent('finance', { payments: agentTool(payer, { description: 'Pays' }) });
  return {
    bank: agent('bank', { transfer: money('transfer') }),
    orchestrator: agent('orchestrator', { payments: agentTool(payer, { description: 'Pays' }) }),
    top: agent('top', { finance: agentTool(finance, { description: 'Finance' }) }),
  };
}

async function app(
  name: 'bank' | 'orchestrator' | 'top',
  options: Omit<ChatRouteOptions<unknown, never>, 'agent'> = {},
  policies?: ContinuableOptions['policies'],
) {
  const ran: string[] = [];
  const all = agents(ran, policies);
  const store: ContinuationStore = createMemoryStore();
  // The runtime's agent type reads a stream input of neutral messages; chatAgent streams AI SDK ones.
  const runtime: Runtime = createRuntime({ agents: [all[name]], store });
  const route = await serveRoute(
    chatRoute(runtime, {
      agent: all[name],
      context: (request) => ({ user: request.headers.get('x-user') ?? 'ann' }),
      ...options,
    }),
  );
  const tab = (chat: string, messages?: UIMessage[]) => new TestChat(route.url, chat, messages);
  const suspended = async (chat: string) =>
    (await store.list({ status: 'suspended', metadata: { chatId: chat } })).items;
  return { ran, runtime, store, route, tab, suspended, agent: all[name] };
}

/** Ask, and wait for the approval the run stops on. */
async function ask(chat: TestChat, text: string): Promise<string> {
  await chat.sendMessage({ text });
  expect(chat.status).toBe('ready');
  const waiting = chat.waitingApprovals();
  expect(waiting).toHaveLength(1);
  return waiting[0]!;
}

/** Answer the approval as a click does; the predicate sends the messages back by itself. */
const click = (chat: TestChat, id: string, approved: boolean, reason?: string) =>
  chat.answer(id, approved, reason);

function lastText(chat: TestChat): string {
  const parts = chat.lastMessage!.parts;
  return parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

/** Requests the scripted server got for `model`, as JSON text. */
const requestsOf = (model: string) =>
  server.requests.filter((request) => request.model === model).map((request) => JSON.stringify(request.body));

describe('approvals in a chat, route and client unchanged', () => {
  it('a flat approval auto-sends and the tool runs once; the same assistant message goes on', async () => {
    const { ran, route, tab, suspended } = await app('bank');
    const chat = tab('flat-1');
    const approval = await ask(chat, 'Send 500 EUR to Bob');
    expect(ran).toEqual([]);
    expect(await suspended('flat-1')).toHaveLength(1);
    const assistantId = chat.lastMessage!.id;
    await click(chat, approval, true);
    expect(chat.status).toBe('ready');
    expect(ran).toEqual(['transfer:Bob:500']);
    expect(chat.messages).toHaveLength(2);
    expect(chat.lastMessage!.id).toBe(assistantId);
    expect(lastText(chat)).toBe('transfer says: {"status":"sent","to":"Bob","amount":500}');
    expect(await suspended('flat-1')).toHaveLength(0);
    expect(route.statuses).toEqual([200, 200]);
    await route.close();
  });

  it('a rejection reaches the model with its reason, and nothing runs', async () => {
    const { ran, route, tab } = await app('bank');
    const chat = tab('flat-2');
    await click(chat, await ask(chat, 'Send 500 EUR to Bob'), false, 'not today');
    expect(ran).toEqual([]);
    expect(lastText(chat)).toMatch(/^transfer says: .*A human rejected this tool call: not today/);
    await route.close();
  });

  for (const [name, depth] of [
    ['orchestrator', 2],
    ['top', 3],
  ] as const) {
    it(`a sub-agent's approval at depth ${depth} is asked on the outer tool part, auto-sends, and runs once`, async () => {
      const { ran, route, tab } = await app(name);
      const chat = tab(`nested-${depth}`);
      const approval = await ask(chat, 'Pay Bob 500');
      expect(approval.split('/')).toHaveLength(depth);
      const outer = chat.lastMessage!.parts.find((part) => 'toolCallId' in part)!;
      expect(outer).toMatchObject({
        type: name === 'top' ? 'tool-finance' : 'tool-payments',
        state: 'approval-requested',
      });
      // No part of its own for a sub-agent's call: the parent model will never be handed it.
      expect(chat.lastMessage!.parts.filter((part) => 'toolCallId' in part)).toHaveLength(1);
      await click(chat, approval, true);
      expect(chat.status).toBe('ready');
      expect(ran).toEqual(['pay:Bob:500']);
      expect(lastText(chat)).toMatch(/^(finance|payments) says: .*pay says: .*sent/);
      // The next turn: the parent model's request holds no sub-agent call.
      await chat.sendMessage({ text: 'What is my balance?' });
      const parentRequests = requestsOf(name);
      expect(parentRequests.at(-1)).toContain('What is my balance?');
      for (const body of parentRequests) expect(body).not.toContain('"pay"');
      expect(ran).toHaveLength(1);
      await route.close();
    });
  }

  it('a reloaded page answers from the saved messages', async () => {
    const { ran, route, tab } = await app('orchestrator');
    const first = tab('reload-1');
    const approval = await ask(first, 'Pay Bob 500');
    // The page reloads: a new client with the messages the app saved.
    const reloaded = tab('reload-1', JSON.parse(JSON.stringify(first.messages)));
    await click(reloaded, approval, true);
    expect(reloaded.status).toBe('ready');
    expect(ran).toEqual(['pay:Bob:500']);
    await route.close();
  });

  // Known gap: under ai@7 (the compatibility leg) this race does not settle within the test's time;
  // the other chat tests pass there, and the default leg runs it.
  it.skipIf(process.env.AI_SDK_LEG === '7')(
    'two tabs approving at once: one runs the tool, the other gets 409 with a message it shows',
    async () => {
      const { ran, route, tab } = await app('bank');
      const first = tab('tabs-1');
      const approval = await ask(first, 'Send 500 EUR to Bob');
      const second = tab('tabs-1', JSON.parse(JSON.stringify(first.messages)));
      await Promise.all([click(first, approval, true), click(second, approval, true)]);
      expect(ran).toEqual(['transfer:Bob:500']);
      expect(route.statuses.slice(1).sort()).toEqual([200, 409]);
      const loser = [first, second].find((chat) => chat.status === 'error')!;
      expect(loser.error?.message).toMatch(/already decided .*Reload the chat/);
      // A late click, after the run went on, is refused the same way.
      const late = tab('tabs-1', JSON.parse(JSON.stringify(second.messages)));
      await click(late, approval, true);
      expect(late.error?.message).toMatch(/already decided/);
      expect(ran).toHaveLength(1);
      await route.close();
    },
  );

  it("a post from another chat, or another user, with this chat's approval runs nothing", async () => {
    const { ran, route, tab, suspended } = await app('bank');
    const victim = tab('victim');
    const approval = await ask(victim, 'Send 500 EUR to Bob');
    // Chat B posts chat A's messages, approval id included.
    const forger = tab('forger', JSON.parse(JSON.stringify(victim.messages)));
    await click(forger, approval, true);
    expect(forger.status).toBe('error');
    expect(forger.error?.message).toBe('Nothing in this chat waits for these responses.');
    // Another user posts to chat A itself.
    const other = new TestChat(route.url, 'victim', JSON.parse(JSON.stringify(victim.messages)), {
      'x-user': 'mallory',
    });
    await click(other, approval, true);
    expect(other.status).toBe('error');
    expect(route.statuses.slice(1)).toEqual([404, 404]);
    expect(ran).toEqual([]);
    expect(await suspended('victim')).toHaveLength(1);
    // The owner still decides.
    await click(victim, approval, true);
    expect(ran).toEqual(['transfer:Bob:500']);
    await route.close();
  });
});

// Under ai@7, createAgentUIStreamResponse builds the UI stream from the run's stream parts, where the
// continuation rides as a `custom` part, which dataSchemas do not cover.
describe.skipIf(process.env.AI_SDK_LEG === '7')('validateUIMessages with the data parts of the app', () => {
  it('passes the continuation part with continuationDataSchema, and refuses it without, or malformed', async () => {
    const { route, tab } = await app('top');
    const chat = tab('validate-1');
    await ask(chat, 'Pay Bob 500');
    const messages = JSON.parse(JSON.stringify(chat.messages)) as UIMessage[];
    expect(messages[1]!.parts.some((part) => part.type === 'data-continuation')).toBe(true);
    const weather = z.object({ city: z.string() });
    await expect(validateUIMessages({ messages, dataSchemas: { weather } })).rejects.toThrow(/continuation/);
    expect(
      await validateUIMessages({ messages, dataSchemas: { weather, continuation: continuationDataSchema } }),
    ).toEqual(messages);
    const part = messages[1]!.parts.find((each) => each.type === 'data-continuation') as {
      data: { actions: Array<{ kind: string }> };
    };
    part.data.actions[0]!.kind = 'payment';
    await expect(
      validateUIMessages({ messages, dataSchemas: { weather, continuation: continuationDataSchema } }),
    ).rejects.toThrow(/actions\[0\] is not an action/);
    await route.close();
  });
});

describe('chatAgent in createAgentUIStreamResponse', () => {
  it("passes the call's options to the run, which its resume keeps; refuses a per-call step callback", async () => {
    const ran: string[] = [];
    const bank = continuable(
      new ToolLoopAgent({
        model: provider().chat('bank'),
        callOptionsSchema: z.object({ tier: z.string() }),
        prepareCall: ({ options, ...settings }) => ({ ...settings, instructions: `Tier: ${options.tier}` }),
        tools: {
          transfer: tool({
            inputSchema: z.object({ to: z.string(), amount: z.number() }),
            needsApproval: true,
            execute: async ({ to }) => ran.push(to) && 'sent',
          }),
        },
        maxRetries: 0,
      }),
      { name: 'bank' },
    );
    const runtime = createRuntime({ agents: [bank], store: createMemoryStore() });
    const route = await serveRoute(async (request) => {
      const { id, messages } = await request.json();
      return createAgentUIStreamResponse({
        agent: chatAgent(runtime, bank, { chat: id }),
        uiMessages: messages,
        options: { tier: 'gold' },
        ...(request.headers.get('x-step') ? { onStepFinish: () => {} } : {}),
      });
    });
    const before = requestsOf('bank').length;
    const chat = new TestChat(route.url, 'options-1');
    await click(chat, await ask(chat, 'Send 500 EUR to Bob'), true);
    expect(ran).toEqual(['Bob']);
    const asked = requestsOf('bank').slice(before);
    expect(asked).toHaveLength(2);
    for (const body of asked) expect(body).toContain('Tier: gold');
    const stepped = new TestChat(route.url, 'options-2', [], { 'x-step': '1' });
    await stepped.sendMessage({ text: 'Send 500 EUR to Bob' });
    expect(stepped.status).toBe('error');
    expect(route.statuses.at(-1)).toBe(500);
    await route.close();
  });
});

describe('a deadline', () => {
  it('an approval that waited past its expiry gets 410 with a message the client shows; nothing runs', async () => {
    const { ran, route, tab, store, suspended } = await app('bank');
    const chat = tab('late-1');
    const approval = await ask(chat, 'Send 500 EUR to Bob');
    const [waiting] = await suspended('late-1');
    const stored = await store.load(waiting!.id);
    await store.save(stored!.continuation, { expiresAt: new Date(Date.now() - 1_000) });
    await click(chat, approval, true);
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toMatch(/waited past their deadline/);
    expect(route.statuses).toEqual([200, 410]);
    expect(ran).toEqual([]);
    await route.close();
  });
});

describe('a run that went on without its record', () => {
  it('an approval of a record its agent says was moved past gets 409 with a message; nothing runs', async () => {
    const { ran, route, tab, agent, suspended } = await app('bank');
    const chat = tab('moved-1');
    const approval = await ask(chat, 'Send 500 EUR to Bob');
    // What a log or a natively resumed thread would tell: the run went on elsewhere.
    Object.assign(agent, { movedOn: async () => true });
    await click(chat, approval, true);
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toMatch(/went on without it/);
    expect(route.statuses).toEqual([200, 409]);
    expect(ran).toEqual([]);
    expect(await suspended('moved-1')).toHaveLength(1);
    await route.close();
  });
});

describe("an action's policy", () => {
  it('a decision the policy forbids gets 403 with the reason, runs nothing, and leaves the approval waiting', async () => {
    const { ran, route, tab, suspended } = await app(
      'bank',
      {},
      { transfer: { allowedDecisions: ['reject'] } },
    );
    const chat = tab('policy-1');
    const approval = await ask(chat, 'Send 500 EUR to Bob');
    const before = JSON.parse(JSON.stringify(chat.messages));
    await click(chat, approval, true);
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBe(
      `Action "${approval}" does not allow the decision "approve" (allowed: reject).`,
    );
    expect(route.statuses).toEqual([200, 403]);
    expect(ran).toEqual([]);
    expect(await suspended('policy-1')).toHaveLength(1);
    // The decision it allows still goes through, once.
    const again = tab('policy-1', before);
    await click(again, approval, false, 'over the limit');
    expect(again.status).toBe('ready');
    expect(route.statuses).toEqual([200, 403, 200]);
    expect(lastText(again)).toMatch(/A human rejected this tool call: over the limit/);
    expect(ran).toEqual([]);
    expect(await suspended('policy-1')).toHaveLength(0);
    await route.close();
  });

  it('a policy for a tool the agent does not have is refused', () => {
    expect(() =>
      continuable(new ToolLoopAgent({ model: provider().chat('bank'), tools: {} }), {
        name: 'bank',
        policies: { transfer: { allowedDecisions: ['reject'] } },
      }),
    ).toThrow(/policies for tools the agent does not have: transfer/);
  });
});

describe('the chat saved as the AI SDK docs save it (onFinish)', () => {
  it('gets the whole chat after each post: the approval, then the same assistant message continued', async () => {
    const saved = new Map<string, UIMessage[]>();
    const finished: Array<{ isContinuation: boolean; responseId: string }> = [];
    const { ran, route, tab } = await app('orchestrator', {
      onFinish: ({ chatId, messages, isContinuation, responseMessage }) => {
        saved.set(chatId, messages);
        finished.push({ isContinuation, responseId: responseMessage.id });
      },
      messageMetadata: ({ part }) => (part.type === 'start' ? { from: 'route' } : undefined),
    });
    const chat = tab('saved-1');
    const approval = await ask(chat, 'Pay Bob 500');
    const first = saved.get('saved-1')!;
    expect(first.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(first[1]!.parts.find((part) => 'toolCallId' in part)).toMatchObject({
      type: 'tool-payments',
      state: 'approval-requested',
      approval: { id: approval },
    });
    expect(first[1]!.metadata).toEqual({ from: 'route' });
    // The page is reloaded from what onFinish saved, and the approval is clicked there.
    const reloaded = tab('saved-1', saved.get('saved-1'));
    await click(reloaded, approval, true);
    expect(ran).toEqual(['pay:Bob:500']);
    const after = saved.get('saved-1')!;
    expect(after.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(after[1]!.id).toBe(first[1]!.id);
    expect(after[1]!.parts.find((part) => 'toolCallId' in part)).toMatchObject({
      type: 'tool-payments',
      state: 'output-available',
      approval: { id: approval, approved: true },
    });
    expect(JSON.stringify(after[1]!.parts.at(-1))).toMatch(/payments says: .*pay says: .*sent/);
    expect(after).toEqual(reloaded.messages);
    expect(finished).toEqual([
      { isContinuation: false, responseId: first[1]!.id },
      { isContinuation: true, responseId: first[1]!.id },
    ]);
    await route.close();
  });

  it('is not called for a refused post, and sendSources is refused when the route is made', async () => {
    const calls: string[] = [];
    const { route, tab } = await app('bank', { onFinish: ({ chatId }) => void calls.push(chatId) });
    const victim = tab('refused-1');
    const approval = await ask(victim, 'Send 500 EUR to Bob');
    const forger = tab('refused-2', JSON.parse(JSON.stringify(victim.messages)));
    await click(forger, approval, true);
    expect(route.statuses).toEqual([200, 404]);
    expect(calls).toEqual(['refused-1']);
    await route.close();
    const bank = agents([]).bank;
    const runtime = createRuntime({ agents: [bank], store: createMemoryStore() });
    expect(() => chatRoute(runtime, { agent: bank, sendSources: true })).toThrow(/sendSources/);
  });
});

describe('a user who types instead of clicking', () => {
  it('by default, rejects what waits ("superseded by a new user message") and answers the message', async () => {
    const { ran, route, tab, suspended } = await app('bank');
    const chat = tab('typed-1');
    await ask(chat, 'Send 500 EUR to Bob');
    await chat.sendMessage({ text: 'Actually, what is my balance?' });
    expect(chat.status).toBe('ready');
    expect(lastText(chat)).toBe('Your balance is 100 EUR.');
    expect(ran).toEqual([]);
    expect(await suspended('typed-1')).toHaveLength(0);
    // The model read the rejection before the new message.
    const last = requestsOf('bank').at(-1)!;
    expect(last).toContain(SUPERSEDED_REASON);
    expect(last.indexOf(SUPERSEDED_REASON)).toBeLessThan(last.indexOf('what is my balance'));
    await route.close();
  });

  it("with onNewMessage: 'keep', leaves it waiting and answers the message", async () => {
    const { ran, route, tab, suspended } = await app('bank', { onNewMessage: 'keep' });
    const chat = tab('typed-2');
    await ask(chat, 'Send 500 EUR to Bob');
    await chat.sendMessage({ text: 'Meanwhile, what is my balance?' });
    expect(chat.status).toBe('ready');
    expect(lastText(chat)).toBe('Your balance is 100 EUR.');
    expect(await suspended('typed-2')).toHaveLength(1);
    expect(ran).toEqual([]);
    await route.close();
  });
});
