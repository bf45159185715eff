/**
 * A sub-agent is a whole run: its failures, predicate suspensions, drift and steps behave like the
 * root's, at every depth (docs/design.md section 4).
 */
import {
  agentTool,
  type Continuation,
  createContinuableAgent,
  defineTool,
  everyTurns,
  isContinuationError,
  listActions,
  type ModelPort,
  onAbort,
  parseContinuation,
  type RunEvent,
  type RunResult,
  serializeContinuation,
} from '@agent-continuations/core';
import {
  completed,
  reportResults,
  type Script,
  scriptedModel,
  suspended,
} from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validationVisits } from '../src/format/validate';

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the run to fail');
    },
    (error: unknown) => error,
  );
}

/** A model that fails while `outage.down` is set, else follows the script. */
function flaky(script: Script, outage: { down: boolean }): ModelPort {
  const model = scriptedModel(script);
  return {
    async generate(request) {
      if (outage.down) throw new Error('503 Service Unavailable');
      return model.generate(request);
    },
  };
}

interface Options {
  depth: number;
  counts: Record<string, number>;
  outage?: { down: boolean };
  leafExtra?: Partial<Parameters<typeof createContinuableAgent>[0]>;
  /** Add an optional field to the leaf tool's schema (a compatible change). */
  changedLeaf?: boolean;
  leafScript?: Script;
}

/**
 * A chain of `depth` agents: the root calls level 1, ... the leaf (level depth-1, or the root at
 * depth 1) calls `pay` (approval needed), then `notify` (no approval), then answers.
 */
function chain({ depth, counts, outage, leafExtra, changedLeaf, leafScript }: Options) {
  const pay = defineTool({
    name: 'pay',
    parameters: changedLeaf
      ? z.object({ amount: z.number().max(1000), memo: z.string().optional() })
      : z.object({ amount: z.number().max(1000) }),
    needsApproval: true,
    execute: async ({ amount }, ctx) => {
      counts.pay = (counts.pay ?? 0) + 1;
      counts[`key:${ctx.idempotencyKey}`] = (counts[`key:${ctx.idempotencyKey}`] ?? 0) + 1;
      return { paid: amount };
    },
  });
  const notify = defineTool({
    name: 'notify',
    parameters: z.object({}),
    execute: async () => {
      counts.notify = (counts.notify ?? 0) + 1;
      return 'sent';
    },
  });
  const script: Script = leafScript ?? [
    { toolCalls: [{ name: 'pay', args: { amount: 10 } }] },
    { toolCalls: [{ name: 'notify', args: {} }] },
    reportResults,
  ];
  const leafModel = outage ? flaky(script, outage) : scriptedModel(script);
  let agent = createContinuableAgent({
    name: `level${depth - 1}`,
    model: leafModel,
    tools: [pay, notify],
    ...leafExtra,
  });
  for (let level = depth - 2; level >= 0; level--) {
    agent = createContinuableAgent({
      name: `level${level}`,
      model: scriptedModel([
        { toolCalls: [{ name: `level${level + 1}`, args: { input: 'go on' } }] },
        reportResults,
      ]),
      tools: [agentTool(agent)],
    });
  }
  return agent;
}

describe.each([2, 3])('a sub-agent at depth %i', (depth) => {
  const chainIds = (id: string) => id.split('/').slice(0, -1);

  it('surfaces a model error at the root with the whole tree; the retry runs nothing twice', async () => {
    const counts: Record<string, number> = {};
    const outage = { down: false };
    const first = suspended(await chain({ depth, counts, outage }).run('go'));
    const action = first.actions[0]!;
    outage.down = true;
    const error = await caught(
      chain({ depth, counts, outage }).resume(first.continuation, { [action.id]: { type: 'approve' } }),
    );
    expect(isContinuationError(error, 'MODEL_ERROR')).toBe(true);
    const failure = error as { continuation: Continuation; at: string[]; message: string };
    expect(failure.at).toEqual(chainIds(action.id));
    expect(failure.message).toContain('503');
    expect(counts.pay).toBe(1);
    expect(listActions(failure.continuation)).toEqual([]);

    // The parent never saw the failure as a tool result, and the saved tree resumes as it is.
    outage.down = false;
    const text = serializeContinuation(failure.continuation);
    const done = completed(await chain({ depth, counts, outage }).resume(text, {}));
    expect(counts.pay).toBe(1);
    expect(counts.notify).toBe(1);
    const [key] = Object.keys(counts).filter((name) => name.startsWith('key:'));
    expect(counts[key!]).toBe(1);
    expect(key).toBe(`key:${first.continuation.runId}/${chainIds(action.id).join('/')}:${action.toolCallId}`);
    expect(done.output).not.toContain('model call failed');
    expect(done.decisions).toHaveLength(1);
  });

  it("surfaces a tool's error under toolErrors: 'throw' as TOOL_ERROR with the tree; resuming retries the call", async () => {
    const counts: Record<string, number> = {};
    let failures = 1;
    const leafScript: Script = [{ toolCalls: [{ name: 'fragile', args: {} }] }, reportResults];
    const fragile = defineTool({
      name: 'fragile',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        counts[ctx.idempotencyKey] = (counts[ctx.idempotencyKey] ?? 0) + 1;
        if (failures-- > 0) throw new Error('disk full');
        return 'ok';
      },
    });
    const make = () =>
      chain({ depth, counts, leafScript, leafExtra: { tools: [fragile], toolErrors: 'throw' } });
    const error = await caught(make().run('go'));
    expect(isContinuationError(error, 'TOOL_ERROR')).toBe(true);
    const failure = error as { continuation: Continuation; at: string[]; message: string };
    expect(failure.message).toContain('disk full');
    expect(failure.at).toHaveLength(depth - 1);
    const done = completed(await make().resume(serializeContinuation(failure.continuation), {}));
    expect(done.output).toContain('ok');
    // The same call, retried under the same idempotency key.
    expect(Object.values(counts)).toEqual([2]);
  });

  it('suspends the root when the sub-agent suspends by predicate; resume(c, {}) continues the child', async () => {
    const counts: Record<string, number> = {};
    const make = () => chain({ depth, counts, leafExtra: { suspendWhen: everyTurns(1) } });
    const first = suspended(await make().run('go'));
    // The leaf made its first model call, then stopped before its second.
    expect(first.actions.map((action) => action.toolName)).toEqual(['pay']);
    const approved = suspended(
      await make().resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } }),
    );
    expect(counts.pay).toBe(1);
    expect(approved.actions).toEqual([]);
    const prefix = chainIds(first.actions[0]!.id).join('/');
    expect(approved.continuation.suspendedBy).toEqual({
      type: 'predicate',
      predicates: [`${prefix}/everyTurns(1)`],
    });

    let next: RunResult<string> = approved;
    let rounds = 0;
    while (next.status === 'suspended') {
      expect(next.actions).toEqual([]);
      next = await make().resume(serializeContinuation(next.continuation), {});
      if (++rounds > 5) throw new Error('the run does not move on');
    }
    completed(next);
    expect(counts).toMatchObject({ pay: 1, notify: 1 });
  });

  it('checks drift at every level: a changed leaf is refused before anything runs, unless allowChangedAgent', async () => {
    const counts: Record<string, number> = {};
    const first = suspended(await chain({ depth, counts }).run('go'));
    const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
    const changed = chain({ depth, counts, changedLeaf: true });
    const error = await caught(changed.resume(first.continuation, decisions));
    expect(isContinuationError(error, 'AGENT_CHANGED')).toBe(true);
    expect(counts.pay ?? 0).toBe(0);

    const done = completed(await changed.resume(first.continuation, decisions, { allowChangedAgent: true }));
    expect(done.output).toBeDefined();
    expect(counts.pay).toBe(1);
  });

  it('checks drift in a sub-agent resumed without decisions', async () => {
    const counts: Record<string, number> = {};
    const make = (changedLeaf: boolean) =>
      chain({ depth, counts, changedLeaf, leafExtra: { suspendWhen: everyTurns(1) } });
    const first = suspended(await make(false).run('go'));
    const approved = suspended(
      await make(false).resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } }),
    );
    const before = { ...counts };
    const error = await caught(make(true).resume(approved.continuation, {}));
    expect(isContinuationError(error, 'AGENT_CHANGED')).toBe(true);
    expect(counts).toEqual(before);
    completed(await make(true).resume(approved.continuation, {}, { allowChangedAgent: true }));
  });

  it("a checkpoint taken inside the sub-agent is the whole tree's, and resumes without running a recorded call again", async () => {
    const counts: Record<string, number> = {};
    const first = suspended(await chain({ depth, counts }).run('go'));
    const checkpoints: Array<{ path: string[] | undefined; continuation: Continuation }> = [];
    const onEvent = (event: RunEvent) => {
      if (event.type === 'tool-result')
        checkpoints.push({ path: event.path, continuation: event.checkpoint() });
    };
    await chain({ depth, counts }).resume(
      first.continuation,
      { [first.actions[0]!.id]: { type: 'approve' } },
      { onEvent },
    );
    expect(counts).toMatchObject({ pay: 1, notify: 1 });
    // The first tool result is the leaf's pay call, seen from the root with the path to the leaf.
    const { path, continuation } = checkpoints[0]!;
    expect(path).toEqual(chainIds(first.actions[0]!.id));
    expect(continuation.agent.name).toBe('level0');
    // As if the process died right after pay: recovery runs notify, never pay again.
    completed(await chain({ depth, counts }).resume(serializeContinuation(continuation), {}));
    expect(counts).toMatchObject({ pay: 1, notify: 2 });
  });

  it("streams the sub-agents' text and tool events, tagged with their path", async () => {
    const counts: Record<string, number> = {};
    const first = suspended(await chain({ depth, counts }).run('go'));
    const stream = chain({ depth, counts }).stream({
      continuation: first.continuation,
      decisions: { [first.actions[0]!.id]: { type: 'approve' } },
    });
    const seen: string[] = [];
    for await (const event of stream) {
      if (event.type === 'tool-result') seen.push(`${event.toolName}@${(event.path ?? []).length}`);
      if (event.type === 'text-delta' && event.path) seen.push(`text@${event.path.length}`);
    }
    completed(await stream.result);
    expect(seen).toContain(`pay@${depth - 1}`);
    expect(seen).toContain(`notify@${depth - 1}`);
    expect(seen).toContain(`text@${depth - 1}`);
  });
});

describe('edited arguments', () => {
  it('the model reads the arguments that ran; the audit trail keeps the ones it asked for', async () => {
    const counts: Record<string, number> = {};
    const agent = chain({ depth: 1, counts });
    const first = suspended(await agent.run('go'));
    const leafModel = scriptedModel([
      { toolCalls: [{ name: 'pay', args: { amount: 10 } }] },
      { toolCalls: [{ name: 'notify', args: {} }] },
      reportResults,
    ]);
    const again = createContinuableAgent({
      name: 'level0',
      model: leafModel,
      tools: [...agent.tools.values()],
    });
    const done = completed(
      await again.resume(first.continuation, {
        [first.actions[0]!.id]: { type: 'approve', args: { amount: 7 }, by: 'ann' },
      }),
    );
    const sent = leafModel.calls[0]!.messages;
    const call = sent.flatMap((message) =>
      message.role === 'assistant' && typeof message.content !== 'string'
        ? message.content.filter((part) => part.type === 'tool-call')
        : [],
    )[0];
    expect(call).toMatchObject({ toolName: 'pay', args: { amount: 7 } });
    expect(done.decisions).toMatchObject([
      { type: 'approve', by: 'ann', args: { amount: 10 }, editedArgs: { amount: 7 } },
    ]);
  });
});

describe('the step limit', () => {
  it('suspends a runaway loop at maxSteps; resume(c, {}) lets it go on', async () => {
    let calls = 0;
    const looping = defineTool({
      name: 'again',
      parameters: z.object({}),
      execute: async () => ++calls,
    });
    const agent = createContinuableAgent({
      name: 'loop',
      model: scriptedModel(() => ({ toolCalls: [{ name: 'again', args: {} }] })),
      tools: [looping],
    });
    const first = suspended(await agent.run('go'));
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['maxSteps'] });
    expect(first.continuation.step).toBe(100);
    expect(calls).toBe(100);
    const second = suspended(await agent.resume(first.continuation, {}));
    expect(second.continuation.step).toBe(200);
  });

  it('bounds a sub-agent the same way, and the root reports the path', async () => {
    const leaf = createContinuableAgent({
      name: 'leaf',
      maxSteps: 3,
      model: scriptedModel(() => ({ toolCalls: [{ name: 'missing', args: {} }] })),
    });
    const root = createContinuableAgent({
      name: 'root',
      model: scriptedModel([{ toolCalls: [{ name: 'leaf', args: { input: 'x' } }] }, reportResults]),
      tools: [agentTool(leaf)],
    });
    const first = suspended(await root.run('go'));
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['call_1_0/maxSteps'] });
    expect(first.actions).toEqual([]);
  });

  it('refuses a maxSteps below 1', () => {
    expect(() => createContinuableAgent({ name: 'x', maxSteps: 0, model: scriptedModel([]) })).toThrow(
      /maxSteps/,
    );
  });
});

describe('agentTool options', () => {
  it('name, description, inputSchema and toInput shape the tool the model sees and the input the agent gets', async () => {
    const inputs: unknown[] = [];
    const payroll = createContinuableAgent({
      name: 'payroll',
      model: scriptedModel((request) => {
        inputs.push(request.messages[0]!.content);
        return 'ok';
      }),
    });
    const rootModel = scriptedModel([
      { toolCalls: [{ name: 'ask_payroll', args: { employee: 'E-7', question: 'Salary?' } }] },
      reportResults,
    ]);
    const root = createContinuableAgent({
      name: 'hr',
      model: rootModel,
      tools: [
        agentTool(payroll, {
          name: 'ask_payroll',
          description: 'Payroll questions about one employee',
          inputSchema: z.object({ employee: z.string(), question: z.string() }),
          toInput: ({ employee, question }: { employee: string; question: string }) =>
            `${question} (employee ${employee})`,
        }),
      ],
    });
    completed(await root.run('go'));
    expect(inputs).toEqual(['Salary? (employee E-7)']);
    const [spec] = rootModel.calls[0]!.tools;
    expect(spec).toMatchObject({ name: 'ask_payroll', description: 'Payroll questions about one employee' });
    expect(Object.keys((spec!.inputSchema as { properties: object }).properties)).toEqual([
      'employee',
      'question',
    ]);
  });
});

describe('a shutdown while a sub-agent runs', () => {
  it("onAbort on the root suspends the running sub-agent at its next step; the worker's resume goes on", async () => {
    const counts: Record<string, number> = {};
    const make = (shutdown: AbortSignal) => {
      const step = defineTool({
        name: 'step',
        parameters: z.object({ n: z.number() }),
        execute: async ({ n }, ctx) => {
          counts[ctx.idempotencyKey] = (counts[ctx.idempotencyKey] ?? 0) + 1;
          if (n === 1) controller.abort(); // SIGTERM lands while the child works
          return n;
        },
      });
      const child = createContinuableAgent({
        name: 'child',
        model: scriptedModel([
          { toolCalls: [{ name: 'step', args: { n: 1 } }] },
          { toolCalls: [{ name: 'step', args: { n: 2 } }] },
          reportResults,
        ]),
        tools: [step],
      });
      return createContinuableAgent({
        name: 'root',
        model: scriptedModel([{ toolCalls: [{ name: 'child', args: { input: 'work' } }] }, reportResults]),
        tools: [agentTool(child)],
        suspendWhen: [onAbort(shutdown)],
      });
    };
    let controller = new AbortController();
    const first = suspended(await make(controller.signal).run('go'));
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['call_1_0/onAbort'] });
    expect(first.actions).toEqual([]);
    expect(Object.values(counts)).toEqual([1]);

    controller = new AbortController();
    const done = completed(
      await make(controller.signal).resume(serializeContinuation(first.continuation), {}),
    );
    expect(done.output).toContain('child=');
    expect(Object.values(counts)).toEqual([1, 1]);
  });
});

describe('resuming a deep tree', () => {
  it('validates the tree once per resume, not once per level', async () => {
    const counts: Record<string, number> = {};
    const first = suspended(await chain({ depth: 8, counts }).run('go'));
    const text = serializeContinuation(first.continuation);
    const before = validationVisits();
    parseContinuation(text);
    const once = validationVisits() - before;
    const start = validationVisits();
    completed(
      await chain({ depth: 8, counts }).resume(text, { [first.actions[0]!.id]: { type: 'approve' } }),
    );
    expect(validationVisits() - start).toBe(once);
    expect(counts.pay).toBe(1);
  });
});

describe('streaming a sub-agent of another framework', () => {
  it('shows a child that cannot stream a step at a time: its text, tool calls and results, with their path', async () => {
    const counts: Record<string, number> = {};
    const engineChild = chain({
      depth: 1,
      counts,
      leafScript: [{ text: 'Looking.', toolCalls: [{ name: 'notify', args: {} }] }, 'All done.'],
    });
    // Only the protocol: no engine stream to hand the parent's stream.
    const plain = {
      name: engineChild.name,
      framework: 'other',
      run: engineChild.run,
      resume: engineChild.resume,
      checkDecisions: engineChild.checkDecisions,
    };
    const root = createContinuableAgent({
      name: 'root',
      model: scriptedModel([{ toolCalls: [{ name: 'level0', args: { input: 'go' } }] }, reportResults]),
      tools: [agentTool(plain, { name: 'level0' })],
    });
    const seen: string[] = [];
    const stream = root.stream('go');
    for await (const event of stream) {
      if (!event.path) continue;
      if (event.type === 'text-delta') seen.push(`text:${event.delta}`);
      if (event.type === 'tool-call') seen.push(`call:${event.toolCall.toolName}`);
      if (event.type === 'tool-result') seen.push(`result:${event.toolName}`);
    }
    completed(await stream.result);
    expect(seen).toEqual(['text:Looking.', 'call:notify', 'result:notify', 'text:All done.']);
    expect(counts.notify).toBe(1);
  });
});
