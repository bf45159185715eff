/** Type tests (checked by tsc, not run): what `continuable`, `agentTool` and friends accept and infer. */
import type {
  AgentStream,
  ContinuableAgent,
  Decisions,
  RunResult,
  ToolContext,
} from '@agent-continuations/core';
import { type LanguageModel, type ModelMessage, type Tool, ToolLoopAgent, tool, type UIMessage } from 'ai';
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
expectTypeOf(fromAgent).toEqualTypeOf<VercelContinuableAgent>();
expectTypeOf(fromSettings).toExtend<ContinuableAgent<string | ModelMessage[], string>>();
expectTypeOf(fromAgent.run('hi')).resolves.toEqualTypeOf<RunResult<string>>();
expectTypeOf(fromAgent.run([{ role: 'user', content: 'hi' }])).resolves.toEqualTypeOf<RunResult<string>>();
expectTypeOf(fromAgent.stream('hi')).toEqualTypeOf<AgentStream<string>>();

// A continuable agent from any adapter becomes an AI SDK tool.
expectTypeOf(agentTool(fromAgent)).toExtend<Tool>();
new ToolLoopAgent({ model, tools: { sub: agentTool(fromAgent, { description: 'Delegate' }) } });

// @ts-expect-error: the name is required
continuable({ model }, {});

declare const messages: UIMessage[];
expectTypeOf(decisionsFromUIMessages(messages, [])).toEqualTypeOf<Decisions>();
expectTypeOf(toUIMessageStream(fromAgent.stream('hi'))).toExtend<ReadableStream>();
expectTypeOf(toModelMessages(toNeutralMessages([]))).toEqualTypeOf<ModelMessage[]>();
