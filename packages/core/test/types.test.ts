/**
 * Pins the inference of the public generics; `pnpm typecheck` fails when it drifts.
 */
import {
  agentTool,
  type ContinuableAgent,
  createContinuableAgent,
  defineTool,
  humanTool,
  type RunResult,
  type ToolContext,
  type ToolDefinition,
} from '@agent-continuations/core';
import { scriptedModel } from '@agent-continuations/testing';
import { expectTypeOf, it } from 'vitest';
import { z } from 'zod';

it('defineTool infers arguments and result from the zod schema and execute', () => {
  const transfer = defineTool({
    name: 'transfer',
    parameters: z.object({ to: z.string(), amount: z.number().default(1) }),
    needsApproval: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ to: string; amount: number }>();
      return args.amount > 10;
    },
    execute: async (args, ctx) => {
      expectTypeOf(args).toEqualTypeOf<{ to: string; amount: number }>();
      expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
      return { ok: true as const };
    },
  });
  expectTypeOf(transfer).toEqualTypeOf<ToolDefinition<{ to: string; amount: number }, { ok: true }>>();
});

it('humanTool results are the response schema', () => {
  const ask = humanTool({
    name: 'ask',
    parameters: z.object({ q: z.string() }),
    response: z.object({ a: z.string() }),
  });
  expectTypeOf(ask).toEqualTypeOf<ToolDefinition<{ q: string }, { a: string }>>();
});

it('agents are ContinuableAgents with string output, and agentTool keeps the output type', async () => {
  const agent = createContinuableAgent({ name: 'a', model: scriptedModel(['hi']) });
  expectTypeOf(agent).toMatchTypeOf<
    ContinuableAgent<string | import('@agent-continuations/core').Message[], string>
  >();
  expectTypeOf(agent.run('x')).resolves.toEqualTypeOf<RunResult<string>>();
  expectTypeOf(agentTool(agent)).toEqualTypeOf<ToolDefinition<any, string>>();
  const result = await agent.run('x');
  if (result.status === 'completed') expectTypeOf(result.output).toEqualTypeOf<string>();
  if (result.status === 'suspended') expectTypeOf(result.actions[0]!.id).toEqualTypeOf<string>();
});
