/** Type tests (checked by tsc, not run): what `tool` and `createAgent` infer. */
import type { EngineAgent, RunResult, ToolContext, ToolDefinition } from '@agent-continuations/core';
import type OpenAI from 'openai';
import { zodFunction, zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
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

// A json_schema response format types the completed output as parse() would.
const structured = createAgent({
  client,
  model: 'm',
  name: 's',
  modelSettings: { response_format: zodResponseFormat(z.object({ city: z.string() }), 'weather') },
});
expectTypeOf(structured.run('hi')).resolves.toEqualTypeOf<RunResult<{ city: string }>>();
const responses = createAgent({
  client,
  model: 'm',
  name: 'r',
  api: 'responses',
  modelSettings: { text: { format: zodTextFormat(z.object({ n: z.number() }), 'n') } },
});
expectTypeOf(responses.run('hi')).resolves.toEqualTypeOf<RunResult<{ n: number }>>();

// runTools-shaped tools and zodFunction tools are accepted as they are.
createAgent({
  client,
  model: 'm',
  name: 't',
  tools: [
    zodFunction({ name: 'wind', parameters: z.object({ city: z.string() }), function: ({ city }) => city }),
    {
      type: 'function',
      function: { name: 'time', parameters: {}, description: 'Time', function: (args: string) => args },
    },
  ],
  maxChatCompletions: 5,
});
