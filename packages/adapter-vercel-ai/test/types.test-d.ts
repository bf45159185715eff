/** Type tests (checked by tsc, not run): what `continuable`, `agentTool` and friends accept and infer. */
import type {
  AgentStream,
  ContinuableAgent,
  Decisions,
  RunResult,
  ToolContext,
} from '@agent-continuations/core';
import {
  createAgentUIStreamResponse,
  type LanguageModel,
  type ModelMessage,
  Output,
  type Tool,
  ToolLoopAgent,
  tool,
  type UIMessage,
} from 'ai';
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import {
  agentTool,
  continuable,
  decisionsFromUIMessages,
  getToolContext,
  toModelMessages,
  toNeutralMessages,
  toUIMessageStream,
  type VercelContinuableAgent,
} from '../src/index';

declare const model: LanguageModel;
const lookup = tool({
  inputSchema: z.object({ id: z.string() }),
  execute: async ({ id }, options) => {
    expectTypeOf(getToolContext(options)).toEqualTypeOf<ToolContext>();
    return { id };
  },
});

const fromAgent = continuable(new ToolLoopAgent({ model, tools: { lookup } }), { name: 'a' });
const fromSettings = continuable(
  { model, system: 'Be brief', tools: { lookup }, temperature: 0 },
  { name: 'b' },
);
expectTypeOf(fromAgent).toEqualTypeOf<VercelContinuableAgent<string, never>>();
expectTypeOf(fromSettings).toExtend<ContinuableAgent<string | ModelMessage[], string>>();
expectTypeOf(fromAgent.run('hi')).resolves.toEqualTypeOf<RunResult<string>>();
expectTypeOf(fromAgent.run([{ role: 'user', content: 'hi' }])).resolves.toEqualTypeOf<RunResult<string>>();
expectTypeOf(fromAgent.stream('hi')).toExtend<AgentStream<string>>();

// Structured output types the completed result; call options type run()'s `options`.
const structured = continuable(
  new ToolLoopAgent({
    model,
    output: Output.object({ schema: z.object({ city: z.string() }) }),
    callOptionsSchema: z.object({ userId: z.string() }),
    prepareCall: ({ options, ...settings }) => ({ ...settings, instructions: `User ${options.userId}` }),
  }),
  { name: 's' },
);
expectTypeOf(structured.run('hi', { options: { userId: 'u1' } })).resolves.toEqualTypeOf<
  RunResult<{ city: string }>
>();
// @ts-expect-error: call options are checked against callOptionsSchema
structured.run('hi', { options: { userId: 1 } });
expectTypeOf(
  continuable({ model, output: Output.object({ schema: z.object({ n: z.number() }) }) }, { name: 'o' }).run(
    'x',
  ),
).resolves.toEqualTypeOf<RunResult<{ n: number }>>();

// Where the SDK takes a ToolLoopAgent, it takes a continuable one.
createAgentUIStreamResponse({ agent: fromAgent, uiMessages: [] });
expectTypeOf(fromAgent.generate({ prompt: 'hi' })).resolves.toHaveProperty('result');

// A continuable agent from any adapter becomes an AI SDK tool.
expectTypeOf(agentTool(fromAgent)).toExtend<Tool>();
new ToolLoopAgent({ model, tools: { sub: agentTool(fromAgent, { description: 'Delegate' }) } });

// @ts-expect-error: the name is required
continuable({ model }, {});

declare const messages: UIMessage[];
expectTypeOf(decisionsFromUIMessages(messages, [])).toEqualTypeOf<Decisions>();
expectTypeOf(toUIMessageStream(fromAgent.stream('hi'))).toExtend<ReadableStream>();
expectTypeOf(toModelMessages(toNeutralMessages([]))).toEqualTypeOf<ModelMessage[]>();
