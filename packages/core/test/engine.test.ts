import {
  agentTool,
  type Continuation,
  createContinuableAgent,
  defineTool,
  isContinuationError,
  isRejected,
  type JsonValue,
  ModelCallError,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import {
  completed,
  lastToolResults,
  reportResults,
  type Script,
  scriptedModel,
  suspended,
} from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const transferParams = z.object({ to: z.string(), amount: z.number().positive() });

function bank(
  script: Script,
  counts: Record<string, number> = {},
  extra: Partial<Parameters<typeof createContinuableAgent>[0]> = {},
) {
  const transfer = defineTool({
    name: 'transfer',
    parameters: transferParams,
    needsApproval: ({ amount }) => amount > 100,
    execute: async ({ to, amount }, ctx) => {
      counts.transfer = (counts.transfer ?? 0) + 1;
      counts[`key:${ctx.idempotencyKey}`] = (counts[`key:${ctx.idempotencyKey}`] ?? 0) + 1;
      return { to, amount };
    },
  });
  const explode = defineTool({
    name: 'explode',
    parameters: z.object({}),
    execute: async () => {
      throw new Error('boom');
    },
  });
  return createContinuableAgent({
    name: 'bank',
    instructions: 'Move money.',
    model: scriptedModel(script),
    tools: [transfer, explode],
    ...extra,
  });
}

describe('the engine tells the model what went wrong and goes on', () => {
  it('an unknown tool, malformed arguments and a throwing tool become error results', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'no_such_tool', args: {} },
          { name: 'transfer', args: '{"to": "bob", "amount": ' },
          { name: 'transfer', args: { to: 'bob', amount: -1 } },
          { name: 'explode', args: {} },
        ],
      },
      reportResults,
    ]);
    const counts: Record<string, number> = {};
    const agent = bank([], counts, { model });
    const done = completed(await agent.run('go'));
    const results = lastToolResults(model.calls[1]!.messages);
    expect(results.map((r) => r.isError)).toEqual([true, true, true, true]);
    expect(results[0]!.output).toContain('Unknown tool "no_such_tool"');
    expect(results[1]!.output).toContain('Invalid arguments for tool "transfer"');
    expect(results[2]!.output).toContain('Invalid arguments for tool "transfer"');
    expect(results[3]!.output).toEqual({ error: 'boom' });
    expect(counts.transfer ?? 0).toBe(0);
    expect(done.output).toContain('done:');
  });

  it('a result that is not JSON becomes an error result instead of failing the run', async () => {
    const circular = defineTool({
      name: 'circular',
      parameters: z.object({}),
      execute: async () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'circular', args: {} }] }, reportResults]);
    const agent = createContinuableAgent({ name: 'c', model, tools: [circular] });
    completed(await agent.run('go'));
    const [result] = lastToolResults(model.calls[1]!.messages);
    expect(result!.isError).toBe(true);
    expect(JSON.stringify(result!.output)).toContain('not JSON');
  });

  it("toolErrors: 'throw' lets a tool's error end the run", async () => {
    const agent = bank([{ toolCalls: [{ name: 'explode', args: {} }] }], {}, { toolErrors: 'throw' });
    await expect(agent.run('go')).rejects.toThrow('boom');
  });

  it('a tool that swallows its suspension still suspends', async () => {
    const sneaky = defineTool({
      name: 'sneaky',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        try {
          await ctx.requestInput('really?');
        } catch {
          return 'swallowed';
        }
        return 'answered';
      },
    });
    const agent = createContinuableAgent({
      name: 'sneaky',
      model: scriptedModel([{ toolCalls: [{ name: 'sneaky', args: {} }] }, reportResults]),
      tools: [sneaky],
    });
    const first = suspended(await agent.run('go'));
    expect(first.actions[0]).toMatchObject({ kind: 'input', request: 'really?' });
  });
});

describe('model failures keep the work', () => {
  it('a failed model call throws ModelCallError holding the last good continuation', async () => {
    let failing = true;
    const counts: Record<string, number> = {};
    const script: Script = (request) => {
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      if (turn === 0) return { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 5 } }] };
      if (failing) throw new Error('HTTP 500');
      return reportResults(request);
    };
    const agent = bank(script, counts);
    const error = await caught(agent.run('pay'));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(isContinuationError(error, 'MODEL_ERROR')).toBe(true);
    const continuation = (error as ModelCallError).continuation;
    expect(counts.transfer).toBe(1);
    failing = false;
    const done = completed(await agent.resume(parseContinuation(serializeContinuation(continuation))));
    expect(counts.transfer).toBe(1);
    expect(done.output).toContain('transfer={"to":"bob","amount":5}');
  });
});

describe('resuming checks the agent', () => {
  const script: Script = [
    { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 500 } }] },
    reportResults,
  ];

  it('refuses a continuation of another agent', async () => {
    const first = suspended(await bank(script).run('pay'));
    const other = createContinuableAgent({ name: 'other', model: scriptedModel(script) });
    expect(isContinuationError(await caught(other.resume(first.continuation)), 'AGENT_MISMATCH')).toBe(true);
  });

  it('refuses a changed definition, naming what changed, unless allowed', async () => {
    const counts: Record<string, number> = {};
    const first = suspended(await bank(script, counts).run('pay'));
    const changed = bank(script, counts, { instructions: 'Move money carefully.' });
    const error = await caught(
      changed.resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } }),
    );
    expect(isContinuationError(error, 'AGENT_CHANGED')).toBe(true);
    expect((error as Error).message).toContain('the instructions changed');
    expect(counts.transfer ?? 0).toBe(0);
    const done = completed(
      await changed.resume(
        first.continuation,
        { [first.actions[0]!.id]: { type: 'approve' } },
        { allowChangedAgent: true },
      ),
    );
    expect(done.output).toContain('"amount":500');
    expect(counts.transfer).toBe(1);
  });

  it('names a missing tool that a pending action needs, before anything runs', async () => {
    const first = suspended(await bank(script).run('pay'));
    const lacking = createContinuableAgent({
      name: 'bank',
      framework: 'elsewhere',
      model: scriptedModel(script),
    });
    const error = await caught(
      lacking.resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } }),
    );
    expect(isContinuationError(error, 'UNKNOWN_TOOL')).toBe(true);
    expect((error as Error).message).toContain('"transfer"');
  });

  it('refuses a continuation whose run already ended', async () => {
    const first = suspended(await bank(script).run('pay'));
    const ended: Continuation = {
      ...first.continuation,
      pending: [],
      messages: [...first.continuation.messages.slice(0, 1), { role: 'assistant', content: 'all done' }],
    };
    expect(isContinuationError(await caught(bank(script).resume(ended)), 'NOT_RESUMABLE')).toBe(true);
  });
});

describe('human input inside tools', () => {
  it('replays earlier answers when a tool asks twice, and runs its side effect once', async () => {
    let sent = 0;
    const wire = defineTool({
      name: 'wire',
      parameters: z.object({ amount: z.number() }),
      execute: async ({ amount }, ctx) => {
        const iban = await ctx.requestInput<string>({ ask: 'iban' });
        const reference = await ctx.requestInput<string>({ ask: 'reference' });
        sent++;
        return { amount, iban, reference };
      },
    });
    const agent = createContinuableAgent({
      name: 'wirer',
      model: scriptedModel([{ toolCalls: [{ name: 'wire', args: { amount: 9 } }] }, reportResults]),
      tools: [wire],
    });
    const first = suspended(await agent.run('wire 9'));
    expect(first.actions[0]!.request).toEqual({ ask: 'iban' });
    const second = suspended(
      await agent.resume(first.continuation, { [first.actions[0]!.id]: { type: 'input', value: 'DE00' } }),
    );
    expect(second.actions[0]!.request).toEqual({ ask: 'reference' });
    expect(second.continuation.pending[0]!.journal).toEqual(['DE00']);
    const done = completed(
      await agent.resume(second.continuation, { [second.actions[0]!.id]: { type: 'input', value: 'R-1' } }),
    );
    expect(sent).toBe(1);
    expect(done.output).toContain('{"amount":9,"iban":"DE00","reference":"R-1"}');
  });

  it('ctx.replaying tells a call going on from a wait from its first run, for input and sub-agents', async () => {
    const seen: string[] = [];
    const helper = createContinuableAgent({
      name: 'helper',
      model: scriptedModel([{ toolCalls: [{ name: 'ask', args: {} }] }, reportResults]),
      tools: [
        defineTool({
          name: 'ask',
          parameters: z.object({}),
          execute: async (_args, ctx) => ctx.requestInput<string>({ ask: 'name' }),
        }),
      ],
    });
    // A tool that runs a sub-agent names it (as agentTool does), so its suspensions can be resumed.
    const both = {
      agent: helper,
      ...defineTool({
        name: 'both',
        parameters: z.object({}),
        execute: async (_args, ctx) => {
          seen.push(`start replaying=${ctx.replaying}`);
          const name = await ctx.requestInput<string>({ ask: 'team' });
          const found = await ctx.runAgent(helper, `find ${name}`);
          return { name, found };
        },
      }),
    };
    const agent = createContinuableAgent({
      name: 'lead',
      model: scriptedModel([{ toolCalls: [{ name: 'both', args: {} }] }, reportResults]),
      tools: [both],
    });
    const first = suspended(await agent.run('go'));
    const second = suspended(
      await agent.resume(first.continuation, { [first.actions[0]!.id]: { type: 'input', value: 'ops' } }),
    );
    expect(second.continuation.pending[0]!.kind).toBe('agent');
    completed(
      await agent.resume(second.continuation, { [second.actions[0]!.id]: { type: 'input', value: 'ann' } }),
    );
    expect(seen).toEqual(['start replaying=false', 'start replaying=true', 'start replaying=true']);
  });

  it('an approved tool that then asks for input is not asked to be approved again', async () => {
    let ran = 0;
    const close = defineTool({
      name: 'close_account',
      parameters: z.object({ id: z.string() }),
      needsApproval: true,
      execute: async ({ id }, ctx) => {
        const why = await ctx.requestInput<string>({ ask: 'reason' });
        ran++;
        return { closed: id, why };
      },
    });
    const agent = createContinuableAgent({
      name: 'closer',
      model: scriptedModel([{ toolCalls: [{ name: 'close_account', args: { id: 'A' } }] }, reportResults]),
      tools: [close],
    });
    const first = suspended(await agent.run('close A'));
    expect(first.actions[0]!.kind).toBe('approval');
    const second = suspended(
      await agent.resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } }),
    );
    expect(second.actions[0]!.kind).toBe('input');
    expect(second.continuation.pending[0]!.approved).toBe(true);
    completed(
      await agent.resume(second.continuation, {
        [second.actions[0]!.id]: { type: 'input', value: 'moved away' },
      }),
    );
    expect(ran).toBe(1);
  });
});

describe('nesting', () => {
  function chain(counts: Record<string, number>) {
    const pay = defineTool({
      name: 'pay',
      parameters: z.object({ amount: z.number().max(1000) }),
      needsApproval: true,
      execute: async ({ amount }, ctx) => {
        counts.pay = (counts.pay ?? 0) + 1;
        counts.key = ctx.idempotencyKey as unknown as number;
        return { paid: amount };
      },
    });
    const child = createContinuableAgent({
      name: 'child',
      model: scriptedModel([{ toolCalls: [{ name: 'pay', args: { amount: 10 } }] }, reportResults]),
      tools: [pay],
    });
    return createContinuableAgent({
      name: 'parent',
      model: scriptedModel([{ toolCalls: [{ name: 'child', args: { input: 'pay 10' } }] }, reportResults]),
      tools: [agentTool(child)],
    });
  }

  it('checks edited arguments of a nested action against the child tool schema before anything runs', async () => {
    const counts: Record<string, number> = {};
    const first = suspended(await chain(counts).run('go'));
    const id = first.actions[0]!.id;
    const error = await caught(
      chain(counts).resume(first.continuation, { [id]: { type: 'approve', args: { amount: 5000 } } }),
    );
    expect(isContinuationError(error, 'INVALID_ARGS')).toBe(true);
    expect(counts.pay ?? 0).toBe(0);
  });

  it('records nested decisions in the root audit trail and derives the child run id from the parent', async () => {
    const counts: Record<string, number> = {};
    const first = suspended(await chain(counts).run('go'));
    const child = first.continuation.pending[0]!;
    if (child.kind !== 'agent') throw new Error('expected an agent entry');
    expect(child.child.runId).toBe(`${first.continuation.runId}/call_1_0`);
    const events: string[] = [];
    const done = completed(
      await chain(counts).resume(
        first.continuation,
        { [first.actions[0]!.id]: { type: 'approve', by: 'ann', args: { amount: 7 } } },
        {
          onEvent: (event) => {
            events.push(event.path ? `${event.type} at ${event.path.join('/')}` : event.type);
          },
        },
      ),
    );
    expect(done.output).toContain('child="done: pay={\\"paid\\":7}"');
    expect(String(counts.key)).toBe(`${first.continuation.runId}/call_1_0:call_1_0`);
    // The child's steps reach the root's observers, tagged with the path to the child.
    expect(events).toEqual([
      'tool-result at call_1_0',
      'model-call at call_1_0',
      'tool-result',
      'model-call',
      'complete',
    ]);
    expect(done.decisions).toMatchObject([
      {
        actionId: first.actions[0]!.id,
        type: 'approve',
        by: 'ann',
        args: first.actions[0]!.args,
        editedArgs: { amount: 7 },
      },
    ]);
  });
});

describe('checkpoints', () => {
  it('a checkpoint taken after one of two calls resumes without running the recorded one again', async () => {
    const counts: Record<string, number> = {};
    const script: Script = [
      {
        toolCalls: [
          { name: 'transfer', args: { to: 'a', amount: 1 } },
          { name: 'transfer', args: { to: 'b', amount: 2 } },
        ],
      },
      reportResults,
    ];
    const checkpoints: Continuation[] = [];
    await bank(script, counts).run('pay', {
      onEvent: (event) => {
        if (event.type === 'tool-result' && checkpoints.length === 0) checkpoints.push(event.checkpoint());
      },
    });
    expect(counts.transfer).toBe(2);
    const [checkpoint] = checkpoints;
    expect(checkpoint!.suspendedBy).toEqual({ type: 'checkpoint' });
    expect(checkpoint!.done).toHaveLength(1);
    // As if the process died right after the first result was recorded:
    const recovered = completed(
      await bank(script, counts).resume(parseContinuation(serializeContinuation(checkpoint!))),
    );
    expect(counts.transfer).toBe(3);
    expect(counts[`key:${checkpoint!.runId}:call_1_0`]).toBe(1);
    expect(counts[`key:${checkpoint!.runId}:call_1_1`]).toBe(2);
    expect(recovered.output).toContain('"to":"a"');
    expect(recovered.output).toContain('"to":"b"');
  });
});

describe('streaming', () => {
  it('yields text deltas and tool events and ends with the same result as run', async () => {
    const agent = bank([
      { text: 'Paying now.', toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 5 } }] },
      'All paid, bob has it.',
    ]);
    const events: string[] = [];
    const stream = agent.stream('pay bob');
    let last: unknown;
    for await (const event of stream) {
      events.push(event.type === 'text-delta' ? `text:${event.delta}` : event.type);
      last = event;
    }
    expect(events).toEqual([
      'text:Paying ',
      'text:now.',
      'tool-call',
      'step',
      'tool-result',
      'text:All ',
      'text:paid, ',
      'text:bob ',
      'text:has ',
      'text:it.',
      'step',
      'result',
    ]);
    const result = await stream.result;
    expect(last).toEqual({ type: 'result', result });
    expect(completed(result).output).toBe('All paid, bob has it.');
  });

  it('streams a resume from a continuation with decisions', async () => {
    const counts: Record<string, number> = {};
    const agent = bank(
      [{ toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 500 } }] }, 'done'],
      counts,
    );
    const first = suspended(await agent.run('pay'));
    const stream = agent.stream({
      continuation: serializeContinuation(first.continuation),
      decisions: { [first.actions[0]!.id]: { type: 'approve' } },
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toContain('tool-result');
    expect(completed(await stream.result).output).toBe('done');
    expect(counts.transfer).toBe(1);
  });
});

describe('usage and steps', () => {
  it('accumulates usage and steps across suspend and resume', async () => {
    const agent = bank([{ toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 500 } }] }, 'done']);
    const first = suspended(await agent.run('pay'));
    expect(first.continuation.step).toBe(1);
    expect(first.continuation.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    const done = completed(
      await agent.resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } }),
    );
    expect(done.step).toBe(2);
    expect(done.usage).toEqual({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
  });

  it('keeps the instructions out of the transcript and sends them on every call', async () => {
    const model = scriptedModel(['hello']);
    const agent = createContinuableAgent({ name: 'x', instructions: 'Be brief.', model });
    const done = completed(await agent.run([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]));
    expect(model.calls[0]!.instructions).toBe('Be brief.');
    expect(done.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const json: JsonValue = JSON.parse(JSON.stringify(done.messages));
    expect(json).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    ]);
  });
});

describe('tool-call ids from the model', () => {
  it('repeated and empty ids become distinct actions; each approved call runs once with its own arguments', async () => {
    const counts: Record<string, number> = {};
    const make = () =>
      bank(
        [
          {
            toolCalls: [
              { id: 'dup', name: 'transfer', args: { to: 'bob', amount: 500 } },
              { id: 'dup', name: 'transfer', args: { to: 'eve', amount: 700 } },
              { id: '', name: 'transfer', args: { to: 'ann', amount: 900 } },
            ],
          },
          reportResults,
        ],
        counts,
      );
    const first = suspended(await make().run('pay three'));
    expect(first.actions.map((action) => [action.id, action.args])).toEqual([
      ['dup', { to: 'bob', amount: 500 }],
      ['dup~2', { to: 'eve', amount: 700 }],
      ['call', { to: 'ann', amount: 900 }],
    ]);
    const decisions = Object.fromEntries(
      first.actions.map((action) => [action.id, { type: 'approve' as const }]),
    );
    const done = completed(await make().resume(serializeContinuation(first.continuation), decisions));
    expect(counts.transfer).toBe(3);
    expect(Object.entries(counts).filter(([name]) => name.startsWith('key:'))).toHaveLength(3);
    for (const to of ['bob', 'eve', 'ann']) expect(done.output).toContain(to);
  });
});

describe('a rejection is data', () => {
  const twoTransfers: Script = [
    {
      toolCalls: [
        { name: 'transfer', args: { to: 'bob', amount: 500 } },
        { name: 'transfer', args: { to: 'eve', amount: 700 } },
      ],
    },
    reportResults,
  ];

  it('the rejected call is marked in `done` and in the transcript, and reads back so', async () => {
    const counts: Record<string, number> = {};
    const first = suspended(await bank(twoTransfers, counts).run('go'));
    const [bob, eve] = first.actions.map((action) => action.id);
    // Only bob's is decided: the turn waits for eve's, holding the rejection in `done`.
    const second = suspended(
      await bank(twoTransfers, counts).resume(first.continuation, {
        [bob!]: { type: 'reject', reason: 'no' },
      }),
    );
    const read = parseContinuation(serializeContinuation(second.continuation));
    expect(read.done).toEqual([expect.objectContaining({ toolCallId: bob, isError: true, rejected: true })]);
    expect(read.done.map(isRejected)).toEqual([true]);

    const done = completed(await bank(twoTransfers, counts).resume(read, { [eve!]: { type: 'approve' } }));
    expect(counts.transfer).toBe(1);
    const results = done.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
    expect(results.map((part) => [part.toolCallId, isRejected(part)])).toEqual([
      [bob, true],
      [eve, false],
    ]);
    expect(results[0]).toMatchObject({ isError: true, rejected: true });
    expect(results[1]).not.toHaveProperty('rejected');
  });

  it('a mark other than `true` is refused with a typed error naming where', async () => {
    const first = suspended(await bank(twoTransfers).run('go'));
    const second = suspended(
      await bank(twoTransfers).resume(first.continuation, { [first.actions[0]!.id]: { type: 'reject' } }),
    );
    const text = serializeContinuation(second.continuation);
    for (const forged of ['false', '"yes"', '1']) {
      expect(() => parseContinuation(text.replace('"rejected":true', `"rejected":${forged}`))).toThrow(
        expect.objectContaining({
          code: 'INVALID_CONTINUATION',
          message: expect.stringMatching(/^Invalid continuation at \$\.done\[0\]\.rejected: /),
        }),
      );
    }
  });
});

describe('what a continuation cannot hold', () => {
  const deep = (depth: number): JsonValue => {
    let value: JsonValue = 'bottom';
    for (let i = 0; i < depth; i++) value = { next: value };
    return value;
  };

  it("a tool's result nested past the depth limit is an error for the model; the run stays readable", async () => {
    const deepTool = defineTool({ name: 'deep', parameters: z.object({}), execute: async () => deep(600) });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'deep', args: {} },
          { name: 'transfer', args: { to: 'bob', amount: 500 } },
        ],
      },
      reportResults,
    ]);
    const agent = createContinuableAgent({ name: 'd', model, tools: [deepTool, ...bank([]).tools.values()] });
    const first = suspended(await agent.run('go'));
    const text = serializeContinuation(first.continuation);
    expect(parseContinuation(text).done[0]).toMatchObject({ toolName: 'deep', isError: true });
    completed(await agent.resume(text, { [first.actions[0]!.id]: { type: 'reject' } }));
  });

  it("a model's tool-call arguments nested past the depth limit never reach the tool", async () => {
    let ran = 0;
    const echo = defineTool({
      name: 'echo',
      parameters: z.object({ value: z.unknown() }),
      execute: async () => ++ran,
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'echo', args: { value: deep(600) } }] },
      reportResults,
    ]);
    const agent = createContinuableAgent({ name: 'd', model, tools: [echo] });
    const done = completed(await agent.run('go'));
    expect(ran).toBe(0);
    expect(done.output).toContain('Invalid arguments');
    expect(done.messages[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool-call', args: null }],
    });
  });
});
