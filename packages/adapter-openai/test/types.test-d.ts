/** Type tests (checked by tsc, not run): what `tool` and `createAgent` infer. */
import type { EngineAgent, RunResult, ToolContext, ToolDefinition } from '@agent-continuations/core';
import type OpenAI from 'openai';
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import { createAgent, type OpenAIAgentTool, type OpenAIToolDefinition, tool } from '../src/index';

const transfer = tool({
  name: 'transfer',
  parameters: z.object({ to: z.string(), amount: z.number() }),
  needsApproval: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ to: string; amount: number }>();
    return args.amount > 100;
  },
  execute: (args, ctx) => {
    expectTypeOf(args).toEqualTypeOf<{ to: string; amount: number }>();
    expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
    return { ok: true as const };
  },
});
expectTypeOf(transfer).toEqualTypeOf<OpenAIToolDefinition<{ to: string; amount: number }, { ok: true }>>();
expectTypeOf(transfer).toExtend<ToolDefinition<{ to: string; amount: number }, { ok: true }>>();
expectTypeOf(transfer).toExtend<OpenAIAgentTool>();

declare const client: OpenAI;
const agent = createAgent({ client, model: 'm', name: 'a', tools: [transfer] });
expectTypeOf(agent).toEqualTypeOf<EngineAgent>();
expectTypeOf(agent.run('hi')).resolves.toEqualTypeOf<RunResult<string>>();

// @ts-expect-error: `api` is 'chat' or 'responses'
createAgent({ client, model: 'm', name: 'a', api: 'assistants' });
