/**
 * `humanTool`: a tool a human answers. The model calls it like any tool; the run suspends with an
 * `input` action, and the human's answer (checked against `response`) is the tool's result.
 */
import { ContinuationError, humanTool as coreHumanTool } from '@agent-continuations/core';
import { type FunctionTool, tool } from '@openai/agents';
import type { z } from 'zod';
import { registerEngineTool } from './tools';

/**
 * A tool of an `@openai/agents` agent that a human answers; only a continuable agent can run it.
 *
 * @example
 * ```ts
 * const askManager = humanTool({
 *   name: 'ask_manager',
 *   parameters: z.object({ question: z.string() }),
 *   response: z.object({ approved: z.boolean() }),
 * });
 * const agent = continuable(new Agent({ name: 'expenses', tools: [askManager] }));
 * ```
 */
export function humanTool<S extends z.ZodObject, R extends z.ZodType>(options: {
  name: string;
  description?: string;
  parameters: S;
  response?: R;
}): FunctionTool<unknown, S, string> {
  const made = tool({
    name: options.name,
    description: options.description ?? '',
    parameters: options.parameters as z.ZodObject,
    errorFunction: null,
    execute: () => {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `Tool "${options.name}" waits for a human, which the SDK's Runner cannot do: wrap the agent with continuable().`,
      );
    },
  });
  return registerEngineTool(made, coreHumanTool(options));
}
