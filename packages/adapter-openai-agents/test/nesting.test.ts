/**
 * Nesting: `continuable(sub).asTool()` sub-agents to depth 3, the approval three levels down
 * surfacing with its path and resuming every level from JSON in a fresh build of the agents; and
 * mixed chains with the raw-openai adapter, an OpenAI Agents level at each position.
 */
import { type ContinuableAgent, listActions, serializeContinuation } from '@agent-continuations/core';
import { createAgent, agentTool as openaiAgentTool, tool as openaiTool } from '@agent-continuations/openai';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, tool } from '@openai/agents';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { agentTool, continuable } from '../src/index';
import { sdkModel } from './harness';
import { type Counts, delegate, payrollChain, salaryParameters, salaryScript } from './support/payroll';

const server = setupScriptedOpenAIServer({ scripts: {} });

const count = (counts: Counts) => {
  counts.update_salary = (counts.update_salary ?? 0) + 1;
};

const sdkChain = (api: 'chat' | 'responses', counts: Counts) =>
  continuable(payrollChain({ api, server, counts }));

describe.each(['chat', 'responses'] as const)('asTool sub-agents to depth 3 (%s)', (api) => {
  it('the approval surfaces with its path, and resumes every level once from JSON', async () => {
    const counts: Counts = {};
    const first = await sdkChain(api, counts).run('Give Ada a raise to 3000');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.actions).toHaveLength(1);
    expect(first.actions[0]!.path.map((segment) => [segment.agent, segment.toolName])).toEqual([
      ['hr', 'payroll'],
      ['payroll', 'benefits'],
      ['benefits', 'update_salary'],
    ]);
    expect(first.continuation.pending[0]).toMatchObject({
      kind: 'agent',
      child: { agent: { name: 'payroll', framework: 'openai-agents' }, pending: [{ kind: 'agent' }] },
    });
    expect(counts).toEqual({});

    const done = await sdkChain(api, counts).resume(serializeContinuation(first.continuation), {
      [first.actions[0]!.id]: { type: 'approve', by: 'ann' },
    });
    expect(done).toMatchObject({
      status: 'completed',
      output: 'payroll said: benefits said: updated {"employeeId":"ada","salary":3000,"applied":true}',
    });
    expect(counts).toEqual({ update_salary: 1 });
  });

  it('a natively run SDK parent still runs the marked sub-agent as the SDK would', async () => {
    const counts: Counts = {};
    const hr = sdkChain(api, counts).agent;
    const { run } = await import('@openai/agents');
    const native = await run(hr, 'Give Ada a raise to 3000');
    // The SDK surfaces the nested approval as its own interruption: the marked tool is the SDK's asTool.
    expect(native.interruptions.map((item) => item.name)).toEqual(['update_salary']);
    expect(counts).toEqual({});
  });
});

/** A raw-openai adapter agent, over its own chat client. */
function openaiLevel(name: string, tools: Parameters<typeof createAgent>[0]['tools']) {
  return createAgent({
    // The raw adapter takes openai 6 or 7; this package tests with 7, the raw adapter's types are 6's.
    client: new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 }) as never,
    model: name,
    name,
    tools,
  });
}

/** An OpenAI Agents level. */
function agentsLevel(name: string, tools: Parameters<typeof continuable>[0]['tools']) {
  return continuable(new Agent({ name, model: sdkModel('chat', server, name), tools }));
}

/** A mixed chain of three; `kinds` says which adapter each level (root first) is built with. */
function mixedChain(kinds: readonly ('agents' | 'openai')[], counts: Counts): ContinuableAgent {
  const names = ['top', 'middle', 'leaf'];
  server.setScript('top', delegate('middle', 'raise ada'));
  server.setScript('middle', delegate('leaf', 'raise ada'));
  server.setScript('leaf', salaryScript);
  const execute = async (args: z.infer<typeof salaryParameters>) => {
    count(counts);
    return { ...args, applied: true };
  };
  let below: ContinuableAgent | undefined;
  for (let level = 2; level >= 0; level--) {
    const name = names[level]!;
    const kind = kinds[level]!;
    if (kind === 'agents') {
      const tools = below
        ? [agentTool(below, { name: below.name })]
        : [
            tool({
              name: 'update_salary',
              description: 'Change a salary',
              parameters: salaryParameters,
              needsApproval: true,
              execute,
            }),
          ];
      below = agentsLevel(name, tools);
    } else {
      const tools = below
        ? [openaiAgentTool(below, { name: below.name })]
        : [openaiTool({ name: 'update_salary', parameters: salaryParameters, needsApproval: true, execute })];
      below = openaiLevel(name, tools);
    }
  }
  return below!;
}

describe('mixed chains of depth 3 with the raw-openai adapter', () => {
  const chains: ('agents' | 'openai')[][] = [
    ['agents', 'openai', 'openai'],
    ['openai', 'agents', 'openai'],
    ['openai', 'openai', 'agents'],
    ['agents', 'openai', 'agents'],
    ['openai', 'agents', 'agents'],
  ];
  it.each(chains.map((kinds) => [kinds.join(' > '), kinds] as const))(
    '%s: the leaf approval surfaces and resumes once',
    async (_label, kinds) => {
      const counts: Counts = {};
      const first = await mixedChain(kinds, counts).run('raise ada');
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      expect(first.actions[0]!.path.map((segment) => segment.agent)).toEqual(['top', 'middle', 'leaf']);
      const frameworks = [first.continuation.agent.framework];
      let node = first.continuation;
      while (node.pending[0]?.kind === 'agent') {
        node = node.pending[0].child;
        frameworks.push(node.agent.framework);
      }
      expect(frameworks).toEqual(kinds.map((kind) => (kind === 'agents' ? 'openai-agents' : 'openai')));
      const done = await mixedChain(kinds, counts).resume(serializeContinuation(first.continuation), {
        [listActions(first.continuation)[0]!.id]: { type: 'approve' },
      });
      expect(done).toMatchObject({
        status: 'completed',
        output: 'middle said: leaf said: updated {"employeeId":"ada","salary":3000,"applied":true}',
      });
      expect(counts).toEqual({ update_salary: 1 });
    },
  );
});
