/**
 * Limits, errors and drift as in every adapter: `maxTurns` suspends resumably where the SDK throws,
 * a failed model call hands back the last good continuation, a changed agent is refused on resume,
 * and what a continuable run cannot honour is refused at wrap time.
 */
import {
  type Continuation,
  isContinuationError,
  ModelCallError,
  serializeContinuation,
} from '@agent-continuations/core';
import { type Script, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, type AgentOptions, MaxTurnsExceededError, run, tool, webSearchTool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ContinuableOptions, continuable } from '../src/index';
import { sdkModel } from './harness';

const server = setupScriptedOpenAIServer({ scripts: {} });

/** Three lookups, one a turn, then the answer. */
const lookups: Script = [
  { toolCalls: [{ name: 'lookup', args: { id: 'A1' } }] },
  { toolCalls: [{ name: 'lookup', args: { id: 'A2' } }] },
  { toolCalls: [{ name: 'lookup', args: { id: 'A3' } }] },
  (request) => `balances: ${request.messages.filter((m) => m.role === 'tool').length}`,
];

function accounts(
  api: 'chat' | 'responses',
  model: string,
  ran: string[],
  extra: Partial<AgentOptions> = {},
) {
  server.setScript(model, lookups);
  const lookup = tool({
    name: 'lookup',
    description: 'Look up a balance',
    parameters: z.object({ id: z.string() }),
    execute: async ({ id }) => {
      ran.push(id);
      return { id, balance: 10 };
    },
  });
  return new Agent({
    name: 'accounts',
    instructions: 'You look up balances.',
    model: sdkModel(api, server, model),
    tools: [lookup],
    ...extra,
  });
}

describe.each(['chat', 'responses'] as const)('limits and errors (%s)', (api) => {
  it('maxTurns: the SDK throws and the run is lost; wrapped, the run suspends and resumes for as many again', async () => {
    const nativeRan: string[] = [];
    const native = run(accounts(api, `turns-native-${api}`, nativeRan), 'Balances?', { maxTurns: 2 });
    await expect(native).rejects.toBeInstanceOf(MaxTurnsExceededError);

    const ran: string[] = [];
    const agent = continuable(accounts(api, `turns-${api}`, ran), { maxTurns: 2 });
    const first = await agent.run('Balances?');
    if (first.status !== 'suspended') throw new Error('expected the limit to suspend the run');
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['maxTurns'] });
    expect(first.continuation.step).toBe(2);
    expect(first.actions).toEqual([]);
    expect(ran).toEqual(['A1', 'A2']);
    const done = await continuable(accounts(api, `turns-${api}`, ran), { maxTurns: 2 }).resume(
      serializeContinuation(first.continuation),
      {},
    );
    expect(done).toMatchObject({ status: 'completed', output: 'balances: 3' });
    expect(ran).toEqual(['A1', 'A2', 'A3']);
  });

  it('a failed model call is a ModelCallError holding the last good state, which resumes', async () => {
    const ran: string[] = [];
    const model = `fail-${api}`;
    const agent = continuable(accounts(api, model, ran));
    const failing = agent.run('Balances?', {
      onEvent: (event) => {
        if (event.type === 'tool-result' && ran.length === 2) server.fail(1, { status: 500 });
      },
    });
    const error = await failing.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect(isContinuationError(error, 'MODEL_ERROR')).toBe(true);
    const continuation = (error as ModelCallError).continuation as Continuation;
    expect(continuation.step).toBe(2);
    expect(ran).toEqual(['A1', 'A2']);
    const done = await continuable(accounts(api, model, ran)).resume(serializeContinuation(continuation));
    expect(done).toMatchObject({ status: 'completed', output: 'balances: 3' });
    expect(ran).toEqual(['A1', 'A2', 'A3']);
  });

  it('a continuation of a changed agent (instructions, tools, handoffs) is refused with AGENT_CHANGED, and nothing runs', async () => {
    const ran: string[] = [];
    const first = await continuable(accounts(api, `drift-${api}`, ran), { maxTurns: 1 }).run('Balances?');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const saved = serializeContinuation(first.continuation);
    const before = server.requests.length;
    const changed = [
      accounts(api, `drift-${api}`, ran, { instructions: 'You look up balances, politely.' }),
      accounts(api, `drift-${api}`, ran, { tools: [] }),
      accounts(api, `drift-${api}`, ran, { handoffs: [new Agent({ name: 'billing' })] }),
    ];
    for (const agent of changed) {
      const refused = await continuable(agent)
        .resume(saved, {})
        .catch((caught: unknown) => caught);
      expect(isContinuationError(refused, 'AGENT_CHANGED')).toBe(true);
    }
    expect(server.requests.length).toBe(before);
    expect(ran).toEqual(['A1']);
  });
});

describe('refused at wrap time', () => {
  const base = () => new Agent({ name: 'desk', instructions: 'Help.' });
  const refusals: [string, () => unknown, RegExp][] = [
    [
      'instructions as a function',
      () => continuable(base().clone({ instructions: () => 'Help.' })),
      /function/,
    ],
    [
      'structured output',
      () => continuable(new Agent({ name: 'desk', outputType: z.object({ a: z.string() }) })),
      /outputType/,
    ],
    [
      'toolUseBehavior',
      () => continuable(base().clone({ toolUseBehavior: 'stop_on_first_tool' })),
      /toolUseBehavior/,
    ],
    [
      'a forced tool choice',
      () => continuable(base().clone({ modelSettings: { toolChoice: 'required' } })),
      /toolChoice/,
    ],
    ['a hosted tool', () => continuable(base().clone({ tools: [webSearchTool()] })), /hosted_tool/],
    [
      'a plain asTool, whose own options a continuable run cannot read',
      () => continuable(base().clone({ tools: [base().clone({ name: 'sub' }).asTool({ toolName: 'sub' })] })),
      /continuable\(subAgent\)\.asTool/,
    ],
    [
      'an option it does not know',
      () => continuable(base(), { maxTurn: 3 } as ContinuableOptions),
      /maxTurn/,
    ],
    ['maxTurns below 1', () => continuable(base(), { maxTurns: 0 }), /maxTurns/],
  ];
  it.each(refusals)('%s', (_label, wrap, message) => {
    let caught: unknown;
    try {
      wrap();
    } catch (error) {
      caught = error;
    }
    expect(isContinuationError(caught, 'INVALID_OPERATION')).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });

  it('the same agent without them wraps', () => {
    expect(continuable(base()).name).toBe('desk');
  });
});
