import { isContinuationError } from '@agent-continuations/core';
import { lastToolResults, suspended } from '@agent-continuations/testing';
import { generateText, type ModelMessage, stepCountIs, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, continuable, getToolContext } from '../src/index';
import { scriptedLanguageModel } from './support/scripted-language-model';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const amountSchema = z.object({ amount: z.number() });

describe('approval settings', () => {
  const twoTransfers = [
    {
      toolCalls: [
        { name: 'transfer', args: { amount: 5 } },
        { name: 'transfer', args: { amount: 500 } },
      ],
    },
    'ok',
  ];

  it('honours a needsApproval function of the arguments, with the SDK options', async () => {
    const seen: Array<{ toolCallId: string; messages: ModelMessage[] }> = [];
    const ran: number[] = [];
    const agent = continuable(
      new ToolLoopAgent({
        model: scriptedLanguageModel(twoTransfers),
        tools: {
          transfer: tool({
            inputSchema: amountSchema,
            needsApproval: (input, options) => {
              seen.push(options);
              return input.amount > 100;
            },
            execute: async ({ amount }) => {
              ran.push(amount);
              return 'sent';
            },
          }),
        },
      }),
      { name: 'bank' },
    );
    const paused = suspended(await agent.run('pay'));
    expect(ran).toEqual([5]);
    expect(paused.actions.map((action) => action.args)).toEqual([{ amount: 500 }]);
    expect(seen.map((options) => options.toolCallId).sort()).toEqual(['call_1_0', 'call_1_1']);
    expect(seen[0]!.messages[0]).toEqual({ role: 'user', content: 'pay' });
  });

  it('honours the ai@7 toolApproval policy: per tool, and a generic function that may deny', async () => {
    const ran: number[] = [];
    const transfer = tool({
      inputSchema: amountSchema,
      execute: async ({ amount }) => {
        ran.push(amount);
        return 'sent';
      },
    });
    const perTool = continuable(
      {
        model: scriptedLanguageModel(twoTransfers),
        tools: { transfer },
        toolApproval: { transfer: 'user-approval' },
      },
      { name: 'bank' },
    );
    expect(suspended(await perTool.run('pay')).actions).toHaveLength(2);
    expect(ran).toEqual([]);

    const model = scriptedLanguageModel(twoTransfers);
    const generic = continuable(
      {
        model,
        tools: { transfer },
        toolApproval: ({ toolCall }: { toolCall: { input: { amount: number } } }) =>
          toolCall.input.amount > 100 ? { type: 'denied', reason: 'too much' } : 'approved',
      },
      { name: 'bank' },
    );
    expect((await generic.run('pay')).status).toBe('completed');
    expect(ran).toEqual([5]);
    const results = lastToolResults(model.requests[1]!.messages);
    expect(results.map((result) => result.isError ?? false)).toEqual([false, true]);
    expect(JSON.stringify(results[1]!.output)).toContain('denied this call: too much');
  });
});

describe('tools', () => {
  it('makes a tool without execute a human tool, checking answers against its outputSchema', async () => {
    const model = scriptedLanguageModel([
      { toolCalls: [{ name: 'ask_manager', args: { question: 'Budget?' } }] },
      'ok',
    ]);
    const agent = continuable(
      {
        model,
        tools: {
          ask_manager: tool({
            inputSchema: z.object({ question: z.string() }),
            outputSchema: z.object({ budget: z.number() }),
          }),
        },
      },
      { name: 'planner' },
    );
    const paused = suspended(await agent.run('plan'));
    expect(paused.actions[0]).toMatchObject({ kind: 'input', request: { question: 'Budget?' } });
    const id = paused.actions[0]!.id;
    expect(
      isContinuationError(
        await failure(
          agent.resume(paused.continuation, { [id]: { type: 'input', value: { budget: 'lots' } } }),
        ),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      (await agent.resume(paused.continuation, { [id]: { type: 'input', value: { budget: 9 } } })).status,
    ).toBe('completed');
    expect(lastToolResults(model.requests[1]!.messages)[0]!.output).toEqual({ budget: 9 });
  });

  it('passes the SDK tool options to execute, and lets a tool ask a human through getToolContext', async () => {
    const calls: Array<{ toolCallId: string; messages: number; signal: boolean; context: unknown }> = [];
    const sent: string[] = [];
    const agent = continuable(
      {
        model: scriptedLanguageModel([{ toolCalls: [{ name: 'refund', args: { order: 'A1' } }] }, 'ok']),
        experimental_context: { tenant: 't1' },
        tools: {
          refund: tool({
            inputSchema: z.object({ order: z.string() }),
            execute: async ({ order }, options) => {
              calls.push({
                toolCallId: options.toolCallId,
                messages: options.messages.length,
                signal: options.abortSignal instanceof AbortSignal,
                context: options.experimental_context,
              });
              const ctx = getToolContext(options);
              const amount = await ctx.requestInput<number>({ question: `How much for ${order}?` });
              sent.push(`${order}:${amount}:${ctx.idempotencyKey}`);
              return { refunded: amount };
            },
          }),
        },
      },
      { name: 'support' },
    );
    const controller = new AbortController();
    const paused = suspended(await agent.run('refund A1', { signal: controller.signal }));
    expect(paused.actions[0]).toMatchObject({ kind: 'input', request: { question: 'How much for A1?' } });
    expect(sent).toEqual([]);
    const done = await agent.resume(paused.continuation, {
      [paused.actions[0]!.id]: { type: 'input', value: 30 },
    });
    expect(done.status).toBe('completed');
    expect(sent).toEqual([`A1:30:${paused.continuation.runId}:call_1_0`]);
    expect(calls[0]).toEqual({
      toolCallId: 'call_1_0',
      messages: 2,
      signal: true,
      context: { tenant: 't1' },
    });
    expect(() => getToolContext({})).toThrow(/continuable/);
  });

  it("sends the model what the tool's toModelOutput makes of its result, and takes a streaming tool's last value", async () => {
    const model = scriptedLanguageModel([
      {
        toolCalls: [
          { name: 'weather', args: { city: 'Oslo' } },
          { name: 'progress', args: {} },
        ],
      },
      'ok',
    ]);
    const agent = continuable(
      new ToolLoopAgent({
        model,
        tools: {
          weather: tool({
            inputSchema: z.object({ city: z.string() }),
            execute: async ({ city }) => ({ city, celsius: 4 }),
            toModelOutput: ({ output }) => ({ type: 'text', value: `${output.city}: ${output.celsius} C` }),
          }),
          progress: tool({
            inputSchema: z.object({}),
            async *execute() {
              yield { done: 1 };
              yield { done: 2 };
            },
          }),
        },
      }),
      { name: 'weather' },
    );
    const done = await agent.run('weather?');
    expect(done.status).toBe('completed');
    const toolMessage = model.doGenerateCalls[1]!.prompt.find((message) => message.role === 'tool')!;
    expect(
      toolMessage.content.map((part) => (part.type === 'tool-result' ? part.output : undefined)),
    ).toEqual([
      { type: 'text', value: 'Oslo: 4 C' },
      { type: 'json', value: { done: 2 } },
    ]);
    // The continuation keeps the tool's own result; toModelOutput is applied on the way to the model.
    if (done.status === 'completed')
      expect(done.messages[2]!.content).toMatchObject([
        { output: { city: 'Oslo', celsius: 4 } },
        { output: { done: 2 } },
      ]);
  });

  it('runs a continuable agent as a tool of a plain ToolLoopAgent, and refuses to lose its suspension', async () => {
    const child = (needsApproval: boolean) =>
      continuable(
        {
          model: scriptedLanguageModel([{ toolCalls: [{ name: 'step', args: {} }] }, 'child done']),
          tools: { step: tool({ inputSchema: z.object({}), needsApproval, execute: async () => 'stepped' }) },
        },
        { name: 'child' },
      );
    const parent = (needsApproval: boolean) =>
      new ToolLoopAgent({
        model: scriptedLanguageModel([
          { toolCalls: [{ name: 'child', args: { input: 'go' } }] },
          'parent done',
        ]),
        tools: { child: agentTool(child(needsApproval)) },
      });
    const plain = await parent(false).generate({ prompt: 'go' });
    expect(plain.text).toBe('parent done');
    expect(plain.steps[0]!.toolResults[0]!.output).toBe('child done');

    const lost = await parent(true).generate({ prompt: 'go' });
    const error = lost.steps[0]!.content.find((part) => part.type === 'tool-error');
    expect(String((error as { error?: unknown } | undefined)?.error)).toMatch(/cannot wait for it/);
  });
});

describe('model settings reach the model', () => {
  it('passes provider options, call settings and instructions as system messages; prepareStep sees the run step; onStepFinish runs per step', async () => {
    const steps: number[] = [];
    const finished: string[] = [];
    const model = scriptedLanguageModel([{ toolCalls: [{ name: 'noop', args: {} }] }, 'done']);
    const agent = continuable(
      new ToolLoopAgent({
        model,
        instructions: {
          role: 'system',
          content: 'Be brief.',
          providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        },
        temperature: 0.2,
        providerOptions: { openai: { reasoningEffort: 'low' } },
        prepareStep: ({ stepNumber }) => {
          steps.push(stepNumber);
          return {};
        },
        onStepFinish: ({ finishReason }) => {
          finished.push(finishReason);
        },
        tools: { noop: tool({ inputSchema: z.object({}), execute: async () => 'ok' }) },
      }),
      { name: 'tuned' },
    );
    expect((await agent.run('hi')).status).toBe('completed');
    const call = model.doGenerateCalls[0]!;
    expect(call.temperature).toBe(0.2);
    expect(call.providerOptions).toEqual({ openai: { reasoningEffort: 'low' } });
    expect(call.prompt[0]).toEqual({
      role: 'system',
      content: 'Be brief.',
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    });
    expect(call.tools?.map((spec) => spec.name)).toEqual(['noop']);
    expect(steps).toEqual([0, 1]);
    expect(finished).toEqual(['tool-calls', 'stop']);
  });

  it("gives the SDK's tool-call repair the whole history", async () => {
    const seen: number[] = [];
    const ran: string[] = [];
    const agent = continuable(
      {
        model: scriptedLanguageModel([
          { toolCalls: [{ name: 'lookup', args: { id: 'a' } }] },
          { toolCalls: [{ name: 'lookup', args: { wrong: true } }] },
          'done',
        ]),
        tools: {
          lookup: tool({
            inputSchema: z.object({ id: z.string() }),
            execute: async ({ id }) => ran.push(id) && id,
          }),
        },
        experimental_repairToolCall: async ({
          toolCall,
          messages,
        }: {
          toolCall: { input: string };
          messages: unknown[];
        }) => {
          seen.push(messages.length);
          return { ...toolCall, input: JSON.stringify({ id: 'repaired' }) };
        },
      },
      { name: 'repairing' },
    );
    expect((await agent.run('look')).status).toBe('completed');
    expect(ran).toEqual(['a', 'repaired']);
    expect(seen).toEqual([3]);
  });

  it('sends the same request a plain generateText step sends', async () => {
    const settings = () => ({
      model: scriptedLanguageModel(['hello']),
      system: 'Be brief.',
      tools: {
        noop: tool({
          description: 'Nothing',
          inputSchema: z.object({ n: z.number().int() }),
          execute: async () => 1,
        }),
      },
    });
    const direct = settings();
    await generateText({ ...direct, prompt: 'hi', stopWhen: stepCountIs(1) });
    const ours = settings();
    await continuable(ours, { name: 'same' }).run('hi');
    expect(ours.model.doGenerateCalls[0]).toEqual(direct.model.doGenerateCalls[0]);
  });
});

describe('errors', () => {
  const agent = (script: Parameters<typeof scriptedLanguageModel>[0], toolErrors?: 'model' | 'throw') => {
    const ran: string[] = [];
    const model = scriptedLanguageModel(script);
    const built = continuable(
      {
        model,
        tools: {
          lookup: tool({
            inputSchema: z.object({ id: z.string() }),
            execute: async ({ id }) => ran.push(id) && `found ${id}`,
          }),
          explode: tool({
            inputSchema: z.object({}),
            execute: async (): Promise<string> => {
              throw new Error('database down');
            },
          }),
          pay: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => ran.push('pay') }),
        },
      },
      { name: 'errors', ...(toolErrors ? { toolErrors } : {}) },
    );
    return { agent: built, model, ran };
  };

  it('refuses bad construction input with a typed error', () => {
    expect(
      isContinuationError(
        catchSync(() => continuable(null as never, { name: 'x' })),
        'INVALID_OPERATION',
      ),
    ).toBe(true);
    expect(
      isContinuationError(
        catchSync(() => continuable({ model: scriptedLanguageModel([]) }, { name: '' })),
        'INVALID_OPERATION',
      ),
    ).toBe(true);
    expect(
      isContinuationError(
        catchSync(() =>
          continuable({ model: scriptedLanguageModel([]), tools: { bad: {} as never } }, { name: 'x' }),
        ),
        'INVALID_OPERATION',
      ),
    ).toBe(true);
  });

  it('refuses bad continuations and decisions with a typed error, and runs nothing', async () => {
    const { agent: built, ran } = agent([{ toolCalls: [{ name: 'pay', args: {} }] }, 'ok']);
    const paused = suspended(await built.run('pay'));
    const text = JSON.stringify(paused.continuation);
    expect(isContinuationError(await failure(built.resume(text.slice(0, 40))), 'INVALID_JSON')).toBe(true);
    expect(
      isContinuationError(
        await failure(built.resume(text.replace('"version":1', '"version":99'))),
        'UNSUPPORTED_VERSION',
      ),
    ).toBe(true);
    expect(
      isContinuationError(
        await failure(built.resume(paused.continuation, { nope: { type: 'approve' } })),
        'UNKNOWN_ACTION',
      ),
    ).toBe(true);
    expect(
      isContinuationError(
        await failure(
          built.resume(paused.continuation, { [paused.actions[0]!.id]: { type: 'input', value: 1 } }),
        ),
        'WRONG_DECISION_KIND',
      ),
    ).toBe(true);
    const other = continuable({ model: scriptedLanguageModel([]), tools: {} }, { name: 'someone-else' });
    expect(isContinuationError(await failure(other.resume(paused.continuation)), 'AGENT_MISMATCH')).toBe(
      true,
    );
    const changed = continuable(
      {
        model: scriptedLanguageModel([]),
        tools: { pay: tool({ inputSchema: z.object({ amount: z.number() }), execute: async () => 1 }) },
      },
      { name: 'errors' },
    );
    expect(isContinuationError(await failure(changed.resume(paused.continuation)), 'AGENT_CHANGED')).toBe(
      true,
    );
    expect(ran).toEqual([]);
  });

  it('tells the model about an unknown tool and a tool that throws, and goes on', async () => {
    const {
      agent: built,
      model,
      ran,
    } = agent([
      {
        toolCalls: [
          { name: 'no_such_tool', args: {} },
          { name: 'explode', args: {} },
          { name: 'lookup', args: { id: 'a' } },
        ],
      },
      'recovered',
    ]);
    const done = await built.run('go');
    expect(done).toMatchObject({ status: 'completed', output: 'recovered' });
    const results = lastToolResults(model.requests[1]!.messages);
    expect(results.map((result) => result.isError ?? false)).toEqual([true, true, false]);
    expect(String(results[0]!.output)).toMatch(/Unknown tool "no_such_tool"/);
    expect(JSON.stringify(results[1]!.output)).toContain('database down');
    expect(ran).toEqual(['a']);
  });

  it("throws a tool's error when toolErrors is 'throw'", async () => {
    const { agent: built } = agent([{ toolCalls: [{ name: 'explode', args: {} }] }, 'never'], 'throw');
    expect(String(await failure(built.run('go')))).toContain('database down');
  });

  it('reports a failed model call with the last good continuation', async () => {
    const model = scriptedLanguageModel([{ toolCalls: [{ name: 'lookup', args: { id: 'a' } }] }]);
    const built = continuable(
      {
        model,
        maxRetries: 0,
        tools: { lookup: tool({ inputSchema: z.object({ id: z.string() }), execute: async () => 'A' }) },
      },
      { name: 'flaky' },
    );
    const error = await failure(built.run('go'));
    expect(isContinuationError(error, 'MODEL_ERROR')).toBe(true);
    const continuation = (error as { continuation: { step: number; messages: unknown[] } }).continuation;
    expect(continuation.step).toBe(1);
    expect(continuation.messages).toHaveLength(3);
  });
});

function catchSync(fn: () => unknown): unknown {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error;
  }
}
