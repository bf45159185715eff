import { type Continuation, isContinuationError, serializeContinuation } from '@agent-continuations/core';
import { type Counts, reportResults, transferTool } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph } from '../src';
import { conformanceTools } from './harness';
import { ScriptedChatModel } from './scripted-chat-model';

const script = [{ toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] }, reportResults];

function agent(counts: Counts, options: { name?: string; extraTool?: boolean } = {}) {
  const llm = new ScriptedChatModel(script);
  const tools = conformanceTools([transferTool(counts)]);
  if (options.extraTool) {
    tools.push(
      tool(async () => 'ok', {
        name: 'audit',
        description: 'Audit',
        schema: z.object({ id: z.string() }),
      }) as never,
    );
  }
  return {
    agent: fromGraph(createReactAgent({ llm, tools, version: 'v2' }), { name: options.name ?? 'accounts' }),
    llm,
  };
}

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('bad input: a typed error, and nothing runs', () => {
  const counts: Counts = {};
  let saved: Continuation;
  let id: string;
  beforeAll(async () => {
    const first = await agent(counts).agent.run('Send 50 to bob');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    saved = first.continuation;
    id = first.actions[0]!.id;
  });

  const cases: Array<[string, () => unknown, string, { name?: string; extraTool?: boolean }?]> = [
    ['truncated JSON', () => serializeContinuation(saved).slice(0, 200), 'INVALID_JSON'],
    ['another format', () => ({ ...saved, format: 'something-else' }), 'INVALID_FORMAT'],
    ['a newer version', () => ({ ...saved, version: 99 }), 'UNSUPPORTED_VERSION'],
    ['a missing field', () => ({ ...saved, messages: undefined }), 'INVALID_CONTINUATION'],
    [
      // In the format's own objects; inside the user's metadata such a key is data (core codec).
      'a prototype key',
      () => serializeContinuation(saved).replace('"usage":{', '"usage":{"__proto__":{"x":1},'),
      'UNSAFE_KEY',
    ],
    ['another agent', () => saved, 'AGENT_MISMATCH', { name: 'payroll' }],
    ['a changed agent (a tool was added)', () => saved, 'AGENT_CHANGED', { extraTool: true }],
    ['a state that is not ours', () => ({ ...saved, state: { checkpoints: 'nope' } }), 'STATE_MISMATCH'],
    [
      'a state whose interrupt ids were changed',
      () => {
        const state = JSON.parse(JSON.stringify(saved.state));
        for (const ref of Object.values(state.interrupts) as Array<{ id: string }>)
          ref.id = '0123456789abcdef0123456789abcdef';
        return { ...saved, state };
      },
      'STATE_MISMATCH',
    ],
  ];
  for (const [label, make, code, options] of cases) {
    it(label, async () => {
      const { agent: target, llm } = agent(counts, options);
      const error = await refusal(target.resume(make() as Continuation, { [id]: { type: 'approve' } }));
      expect(isContinuationError(error, code as never), `expected ${code}, got ${String(error)}`).toBe(true);
      expect(counts.transfer ?? 0).toBe(0);
      expect(llm.requests).toHaveLength(0);
    });
  }

  it('a decision for an action that is not pending', async () => {
    const error = await refusal(agent(counts).agent.resume(saved, { call_9_9: { type: 'approve' } }));
    expect(isContinuationError(error, 'UNKNOWN_ACTION')).toBe(true);
    expect(counts.transfer ?? 0).toBe(0);
  });
});
