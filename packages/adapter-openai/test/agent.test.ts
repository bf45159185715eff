import {
  type Continuation,
  isContinuationError,
  ModelCallError,
  type ModelRequest,
  serializeContinuation,
} from '@agent-continuations/core';
import {
  completed,
  lastToolResults,
  type Script,
  type ScriptedOpenAIServer,
  startScriptedOpenAIServer,
  suspended,
} from '@agent-continuations/testing';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, type OpenAIAgentConfig, tool } from '../src/index';

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Echo the last tool results back, so assertions see what the model received. */
const report = (request: ModelRequest): string =>
  `results: ${lastToolResults(request.messages)
    .map((part) => `${part.toolName}=${JSON.stringify(part.output)}`)
    .join(' | ')}`;

function bank() {
  const calls = { lookup: 0, transfer: 0 };
  const lookup = tool({
    name: 'lookup_account',
    description: 'Look up an account',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => {
      calls.lookup += 1;
      return { id, balance: 120 };
    },
  });
  const transfer = tool({
    name: 'transfer',
    description: 'Transfer money',
    parameters: z.object({ to: z.string(), amount: z.number().positive() }),
    needsApproval: true,
    execute: ({ to, amount }) => {
      calls.transfer += 1;
      return { ok: true, to, amount };
    },
  });
  return { calls, tools: [lookup, transfer] };
}

async function agentOver(
  script: Script,
  config: Partial<OpenAIAgentConfig> = {},
  options: { maxRetries?: number; rawArguments?: (name: string) => string | undefined } = {},
) {
  server ??= await startScriptedOpenAIServer({
    scripts: {},
    ...(options.rawArguments ? { rawArguments: (call) => options.rawArguments!(call.toolName) } : {}),
  });
  server.setScript('bank-model', script);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: options.maxRetries ?? 0 });
  return createAgent({
    client,
    model: 'bank-model',
    name: 'bank',
    instructions: 'You run a bank.',
    tools: bank().tools,
    ...config,
  });
}

describe.each(['chat', 'responses'] as const)('createAgent over the %s API', (api) => {
  it('sends instructions, tools and results on the wire, and resumes an approval in a fresh agent', async () => {
    const { calls, tools } = bank();
    const script: Script = [
      {
        toolCalls: [
          { name: 'lookup_account', args: { id: 'A1' } },
          { name: 'transfer', args: { to: 'B2', amount: 50 } },
        ],
      },
      report,
    ];
    const agent = await agentOver(script, { api, tools });
    const first = suspended(await agent.run('Send 50 from A1 to B2'));
    expect(calls).toEqual({ lookup: 1, transfer: 0 });
    expect(first.actions.map((action) => action.toolName)).toEqual(['transfer']);
    expect(first.continuation.agent.framework).toBe('openai');

    const body = server!.requests[0]!.body;
    if (api === 'chat') {
      expect(body.messages[0]).toEqual({ role: 'system', content: 'You run a bank.' });
      expect(body.tools.map((t: any) => t.function.name)).toEqual(['lookup_account', 'transfer']);
      expect(body.tools[1].function.parameters).toMatchObject({ type: 'object', required: ['to', 'amount'] });
    } else {
      expect(body.instructions).toBe('You run a bank.');
      expect(body.tools.map((t: any) => t.name)).toEqual(['lookup_account', 'transfer']);
    }

    const fresh = await agentOver(script, { api, tools });
    const saved = serializeContinuation(first.continuation);
    const done = completed(
      await fresh.resume(saved, { [first.actions[0]!.id]: { type: 'approve', by: 'ann' } }),
    );
    expect(calls).toEqual({ lookup: 1, transfer: 1 });
    expect(done.output).toBe(
      'results: lookup_account={"id":"A1","balance":120} | transfer={"ok":true,"to":"B2","amount":50}',
    );
    expect(done.usage).toEqual({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
    const second = server!.requests[1]!.body;
    const results =
      api === 'chat'
        ? second.messages.filter((m: any) => m.role === 'tool').map((m: any) => [m.tool_call_id, m.content])
        : second.input
            .filter((i: any) => i.type === 'function_call_output')
            .map((i: any) => [i.call_id, i.output]);
    expect(results).toEqual([
      ['call_1_0', '{"id":"A1","balance":120}'],
      ['call_1_1', '{"ok":true,"to":"B2","amount":50}'],
    ]);
  });

  it('turns malformed tool-call JSON from the model into an error result the model sees; the tool does not run', async () => {
    const { calls, tools } = bank();
    const agent = await agentOver(
      [{ toolCalls: [{ name: 'lookup_account', args: { id: 'A1' } }] }, report],
      { api, tools },
      {
        rawArguments: () => '{"id": "A1"',
      },
    );
    const done = completed(await agent.run('Balance of A1?'));
    expect(calls.lookup).toBe(0);
    expect(done.output).toMatch(
      /^results: lookup_account="Invalid arguments for tool \\"lookup_account\\": /,
    );
    const call = (done.messages[1]!.content as { type: string; args?: unknown }[]).find(
      (part) => part.type === 'tool-call',
    );
    expect(call?.args).toBe('{"id": "A1"');
  });

  it('tells the model about an unknown tool and a tool that throws, and goes on', async () => {
    const failing = tool({
      name: 'flaky',
      parameters: z.object({}),
      execute: () => {
        throw new Error('ledger offline');
      },
    });
    const agent = await agentOver(
      [
        {
          toolCalls: [
            { name: 'wire_money', args: { to: 'x' } },
            { name: 'flaky', args: {} },
          ],
        },
        report,
      ],
      { api, tools: [failing] },
    );
    const done = completed(await agent.run('go'));
    expect(done.output).toBe(
      'results: wire_money="Unknown tool \\"wire_money\\". Available tools: flaky." | flaky={"error":"ledger offline"}',
    );
  });

  it('retries through an HTTP 429, and after a final HTTP 500 hands back the last good continuation to resume from', async () => {
    const { calls, tools } = bank();
    const script: Script = [{ toolCalls: [{ name: 'lookup_account', args: { id: 'A1' } }] }, report];
    const agent = await agentOver(script, { api, tools }, { maxRetries: 1 });
    server!.fail(1, { status: 429 });
    const attempt = agent.run('Balance?', {
      // After the first model call and its tool, the server breaks for longer than the client retries.
      onEvent: (event) => {
        if (event.type === 'tool-result') server!.fail(2, { status: 500 });
      },
    });
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect(isContinuationError(error, 'MODEL_ERROR')).toBe(true);
    expect(server!.requests.map((request) => request.status)).toEqual([429, 200, 500, 500]);
    const continuation = (error as ModelCallError).continuation as Continuation;
    expect(continuation.step).toBe(1);
    expect(calls.lookup).toBe(1);

    const done = completed(await agent.resume(serializeContinuation(continuation)));
    expect(done.output).toBe('results: lookup_account={"id":"A1","balance":120}');
    expect(calls.lookup).toBe(1);
    expect(done.runId).toBe(continuation.runId);
  });

  it('streams text deltas and tool events, ending in the same result as run, also when resuming', async () => {
    const { calls, tools } = bank();
    const script: Script = [
      {
        reasoning: 'The user wants a transfer.',
        text: 'Let me look that up.',
        toolCalls: [
          { name: 'lookup_account', args: { id: 'A1' } },
          { name: 'transfer', args: { to: 'B2', amount: 5 } },
        ],
      },
      report,
    ];
    const agent = await agentOver(script, { api, tools });
    const events: string[] = [];
    let text = '';
    const stream = agent.stream('Send 5 to B2');
    for await (const event of stream) {
      events.push(event.type);
      if (event.type === 'text-delta') text += event.delta;
    }
    const first = suspended(await stream.result);
    expect(text).toBe('Let me look that up.');
    expect(events.filter((type) => type === 'text-delta').length).toBeGreaterThan(1);
    expect(events).toContain('tool-call');
    expect(events).toContain('reasoning-delta');
    expect((first.continuation.messages[1]!.content as { type: string; text?: string }[])[0]).toMatchObject({
      type: 'reasoning',
      text: 'The user wants a transfer.',
    });
    expect(events).toContain('tool-result');
    expect(events.at(-1)).toBe('result');
    expect(server!.requests[0]!.stream).toBe(true);

    const resumed = agent.stream({
      continuation: first.continuation,
      decisions: { [first.actions[0]!.id]: { type: 'approve' } },
    });
    const deltas: string[] = [];
    for await (const event of resumed) if (event.type === 'text-delta') deltas.push(event.delta);
    const done = completed(await resumed.result);
    expect(deltas.join('')).toBe(done.output);
    expect(calls).toEqual({ lookup: 1, transfer: 1 });

    const plain = await (await agentOver(script, { api, tools })).run('Send 5 to B2');
    // Item ids differ from response to response; everything else is the same.
    const withoutIds = (value: unknown) =>
      JSON.parse(JSON.stringify(value, (key, v) => (key === 'id' ? undefined : v)));
    expect(withoutIds(suspended(plain).continuation.messages)).toEqual(
      withoutIds(first.continuation.messages),
    );
  });

  it('sends a strict tool with the schema of the SDK zod helper and strict: true; others without', async () => {
    const strictLookup = tool({
      name: 'strict_lookup',
      parameters: z.object({ id: z.string() }),
      strict: true,
      execute: ({ id }) => ({ id }),
    });
    const agent = await agentOver(['ok'], { api, tools: [strictLookup, ...bank().tools] });
    await agent.run('hi');
    const sent = server!.requests[0]!.body.tools.map((t: any) => (api === 'chat' ? t.function : t));
    expect(sent[0]).toMatchObject({
      name: 'strict_lookup',
      strict: true,
      parameters: {
        type: 'object',
        properties: { id: { type: 'string' } },
        required: ['id'],
        additionalProperties: false,
      },
    });
    expect(sent[1].strict ?? false).toBe(false);
  });

  it('accepts plain OpenAI function-tool definitions with a handler, and asks a human through ctx.requestInput', async () => {
    let memo = '';
    const definition =
      api === 'chat'
        ? {
            type: 'function' as const,
            function: {
              name: 'pay',
              description: 'Pay',
              parameters: { type: 'object', properties: { amount: { type: 'number' } } },
            },
          }
        : {
            type: 'function' as const,
            name: 'pay',
            description: 'Pay',
            parameters: { type: 'object', properties: { amount: { type: 'number' } } },
          };
    const pay = {
      ...definition,
      execute: async (args: { amount: number }, ctx: import('@agent-continuations/core').ToolContext) => {
        const reason = await ctx.requestInput<string>({ question: `Why pay ${args.amount}?` });
        memo = reason;
        return { paid: args.amount, reason };
      },
    };
    const agent = await agentOver([{ toolCalls: [{ name: 'pay', args: { amount: 7 } }] }, report], {
      api,
      tools: [pay],
    });
    const first = suspended(await agent.run('pay 7'));
    expect(first.actions[0]).toMatchObject({ kind: 'input', request: { question: 'Why pay 7?' } });
    const done = completed(
      await agent.resume(first.continuation, { [first.actions[0]!.id]: { type: 'input', value: 'rent' } }),
    );
    expect(memo).toBe('rent');
    expect(done.output).toBe('results: pay={"paid":7,"reason":"rent"}');
    const sent = server!.requests[0]!.body.tools[0];
    expect(api === 'chat' ? sent.function.name : sent.name).toBe('pay');
  });
});

describe('createAgent: bad continuations and decisions', () => {
  it.each([
    ['text that is not JSON', () => 'not json', {}, 'INVALID_JSON'],
    [
      'a continuation of another agent',
      (c: Continuation) => ({ ...c, agent: { ...c.agent, name: 'other' } }),
      {},
      'AGENT_MISMATCH',
    ],
    [
      'a decision for an action that is not pending',
      (c: Continuation) => c,
      { nope: { type: 'approve' } },
      'UNKNOWN_ACTION',
    ],
  ] as const)(
    '%s: a ContinuationError, and no model call or tool runs',
    async (_, mangle, decisions, code) => {
      const { calls, tools } = bank();
      const agent = await agentOver(
        [{ toolCalls: [{ name: 'transfer', args: { to: 'B2', amount: 5 } }] }, report],
        { tools },
      );
      const first = suspended(await agent.run('Send 5 to B2'));
      const before = server!.requests.length;
      const error = await agent.resume(mangle(first.continuation) as Continuation, decisions).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isContinuationError(error, code), String(error)).toBe(true);
      expect(server!.requests.length).toBe(before);
      expect(calls.transfer).toBe(0);
    },
  );
});

describe('createAgent: bad configuration', () => {
  const client = new OpenAI({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'test' });
  const cases: [string, Partial<OpenAIAgentConfig>, RegExp][] = [
    ['no client', { client: undefined as never }, /needs an OpenAI client/],
    ['not a client', { client: {} as never }, /needs an OpenAI client/],
    ['no name', { name: '' }, /non-empty `name`/],
    ['no model', { model: '' }, /non-empty `model`/],
    ['unknown api', { api: 'assistants' as never }, /`api` must be 'chat' or 'responses'/],
    ['tools not an array', { tools: {} as never }, /`tools` must be an array/],
    [
      'two tools of one name',
      { tools: [bank().tools[0]!, bank().tools[0]!] },
      /Two tools are named "lookup_account"/,
    ],
    [
      'a function tool without a name',
      { tools: [{ type: 'function', function: { name: '' } }] },
      /needs a name/,
    ],
  ];
  it.each(cases)('%s: a ContinuationError, and nothing runs', (_, override, message) => {
    let error: unknown;
    try {
      createAgent({ client, model: 'm', name: 'bank', ...override });
    } catch (caught) {
      error = caught;
    }
    expect(isContinuationError(error, 'INVALID_OPERATION'), String(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(message);
  });
});
