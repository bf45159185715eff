/**
 * A human tool's question asked in one framework and answered in another: the answer is checked
 * against the resuming agent's response schema before anything runs, then becomes the tool's result.
 */
import type { SuspendedResult } from '@agent-continuations/core';
import { reportResults, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentSpec, buildAgent, FRAMEWORKS, type Framework } from '../src/frameworks';

const server = setupScriptedOpenAIServer({
  scripts: {},
  fallback: [
    { text: 'Let me ask.', toolCalls: [{ name: 'ask_manager', args: { question: 'Refund 49?' } }] },
    reportResults,
  ],
});
const asked = new Map<Framework, SuspendedResult>();

const spec = (model: string): AgentSpec => ({
  name: 'refund-desk',
  model,
  instructions: 'Ask the manager before refunds.',
  tools: [
    {
      kind: 'human',
      name: 'ask_manager',
      description: 'Ask the manager a question',
      parameters: z.object({ question: z.string() }),
      response: z.object({ answer: z.enum(['yes', 'no']) }),
    },
  ],
});

beforeAll(async () => {
  for (const from of FRAMEWORKS) {
    const result = await buildAgent(from, spec(`input:${from}`), server.baseURL).run('Refund order O-1001');
    if (result.status !== 'suspended')
      throw new Error(`${from}: expected a suspension, got ${result.status}`);
    asked.set(from, result);
  }
});

describe.each(FRAMEWORKS)('asked in %s', (from) => {
  it('is one input action with the question', () => {
    expect(
      asked.get(from)!.actions.map(({ id, kind, toolName, request }) => ({ id, kind, toolName, request })),
    ).toEqual([
      { id: 'call_1_0', kind: 'input', toolName: 'ask_manager', request: { question: 'Refund 49?' } },
    ]);
  });

  it.each(FRAMEWORKS)('answered in %s', async (to) => {
    const model = `input:${from}>${to}`;
    const agent = buildAgent(to, spec(model), server.baseURL);
    const continuation = asked.get(from)!.continuation;
    await expect(
      agent.resume(continuation, { call_1_0: { type: 'input', value: { answer: 'maybe' } } }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(server.requests.filter((request) => request.model === model)).toEqual([]);
    const done = await agent.resume(continuation, {
      call_1_0: { type: 'input', value: { answer: 'yes' }, by: 'cfo' },
    });
    expect(done).toMatchObject({ status: 'completed', output: 'done: ask_manager={"answer":"yes"}' });
  });
});
