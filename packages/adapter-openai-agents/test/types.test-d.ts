/** Type tests (checked by tsc, not run): what `continuable`, `agentTool` and `humanTool` infer. */
import type { ContinuableAgent, EngineAgent, RunResult, ToolContext } from '@agent-continuations/core';
import { Agent, type FunctionTool, tool } from '@openai/agents';
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import {
  agentTool,
  continuable,
  continuationContext,
  humanTool,
  type OpenAIAgentsContinuable,
} from '../src/index';

const billing = new Agent({ name: 'billing' });
const agent = new Agent({ name: 'desk', handoffs: [billing] });
const wrapped = continuable(agent, { maxTurns: 5, context: { userId: 'u1' } });
expectTypeOf(wrapped).toEqualTypeOf<OpenAIAgentsContinuable>();
expectTypeOf(wrapped).toExtend<EngineAgent>();
expectTypeOf(wrapped).toExtend<ContinuableAgent<string, string>>();
expectTypeOf(wrapped.run('hi')).resolves.toEqualTypeOf<RunResult<string>>();
expectTypeOf(wrapped.agent).toEqualTypeOf<Agent<any, any>>();

// @ts-expect-error: `maxTurns` is a number
continuable(agent, { maxTurns: '5' });

// The sub-agent tool is the SDK's own function tool, for the SDK's agents and Runner.
expectTypeOf(wrapped.asTool({ toolName: 'desk' })).toExtend<FunctionTool<any, any, string>>();
expectTypeOf(agentTool(wrapped, { name: 'desk' })).toExtend<FunctionTool<unknown, any, string>>();
new Agent({
  name: 'root',
  tools: [
    wrapped.asTool(),
    agentTool(wrapped),
    humanTool({ name: 'ask', parameters: z.object({ q: z.string() }) }),
  ],
});

// Inside a tool the continuation facilities are the core's, or undefined under the SDK's Runner.
tool({
  name: 'pay',
  description: 'Pay',
  parameters: z.object({ amount: z.number() }),
  execute: async ({ amount }, runContext) => {
    const ctx = continuationContext(runContext);
    expectTypeOf(ctx).toEqualTypeOf<ToolContext | undefined>();
    return amount;
  },
});
