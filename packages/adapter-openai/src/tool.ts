/**
 * Tools for OpenAI agents: zod-typed ones, and existing plain OpenAI function-tool definitions
 * with a handler, so an existing loop's tool list moves over unchanged.
 */
import {
  ContinuationError,
  defineTool,
  type JsonSchema,
  type ToolContext,
  type ToolDefinition,
} from '@agent-continuations/core';
import { zodFunction } from 'openai/helpers/zod';
import type { z } from 'zod';

/** An engine tool, optionally sent to OpenAI with `strict: true` (Structured Outputs for arguments). */
export type OpenAIToolDefinition<Args = any, Result = unknown> = ToolDefinition<Args, Result> & {
  strict?: boolean;
};

/** A plain OpenAI function tool (Chat Completions shape) with its handler. */
export interface ChatFunctionTool<Args = any> {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean | null };
  needsApproval?: ToolDefinition<Args>['needsApproval'];
  execute?: (args: Args, ctx: ToolContext) => unknown;
}

/** A plain OpenAI function tool (Responses shape) with its handler. */
export interface ResponsesFunctionTool<Args = any> {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: JsonSchema | null;
  strict?: boolean | null;
  needsApproval?: ToolDefinition<Args>['needsApproval'];
  execute?: (args: Args, ctx: ToolContext) => unknown;
}

/** Anything `createAgent` accepts as a tool. */
export type OpenAIAgentTool = OpenAIToolDefinition | ChatFunctionTool | ResponsesFunctionTool;

/**
 * Define a tool with a zod schema for its arguments. `ctx` offers `requestInput` (ask a human),
 * `runAgent` (call a sub-agent) and an `idempotencyKey`.
 *
 * @example
 * ```ts
 * const transfer = tool({
 *   name: 'transfer',
 *   description: 'Transfer money between accounts',
 *   parameters: z.object({ to: z.string(), amount: z.number().positive() }),
 *   needsApproval: ({ amount }) => amount > 100,
 *   execute: async ({ to, amount }, ctx) => bank.transfer(to, amount, { idempotencyKey: ctx.idempotencyKey }),
 * });
 * ```
 */
export function tool<S extends z.ZodType, Result>(options: {
  name: string;
  description?: string;
  parameters: S;
  needsApproval?: ToolDefinition<z.output<S>>['needsApproval'];
  execute: (args: z.output<S>, ctx: ToolContext) => Result | Promise<Result>;
  /**
   * Send the tool with `strict: true`, its schema made by the SDK's own zod helper (`zodFunction`),
   * so the model's arguments always match it. Strict mode needs every property required.
   */
  strict?: boolean;
}): OpenAIToolDefinition<z.output<S>, Result> {
  const { strict, ...rest } = options;
  const definition = defineTool(rest);
  if (!strict) return definition;
  const sdkTool = zodFunction({
    name: options.name,
    parameters: options.parameters as never,
    ...(options.description === undefined ? {} : { description: options.description }),
  });
  return { ...definition, inputSchema: sdkTool.function.parameters as JsonSchema, strict: true };
}

/**
 * Turn any accepted tool into the engine's form. A plain function tool's arguments must be a JSON
 * object (malformed JSON from the model arrives as a string and fails here, as an error result the
 * model sees); its handler checks the rest. Without `execute` it is a human tool.
 *
 * @example
 * ```ts
 * const lookup = toEngineTool({
 *   type: 'function',
 *   function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'string' } } } },
 *   execute: ({ id }) => accounts.get(id),
 * });
 * ```
 */
export function toEngineTool(definition: OpenAIAgentTool): OpenAIToolDefinition {
  if (!('type' in definition) || definition.type !== 'function') return definition as OpenAIToolDefinition;
  const fn = 'function' in definition ? definition.function : definition;
  if (!fn.name) throw new ContinuationError('INVALID_OPERATION', 'A function tool needs a name.');
  const definitionWithHandler = definition as ChatFunctionTool | ResponsesFunctionTool;
  return {
    name: fn.name,
    ...(fn.description ? { description: fn.description } : {}),
    inputSchema: fn.parameters ?? { type: 'object', properties: {} },
    validate: (args) =>
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? { ok: true, value: args }
        : { ok: false, message: `expected a JSON object of arguments, got ${JSON.stringify(args)}` },
    ...(definitionWithHandler.needsApproval === undefined
      ? {}
      : { needsApproval: definitionWithHandler.needsApproval }),
    ...(definitionWithHandler.execute ? { execute: definitionWithHandler.execute } : {}),
    ...(fn.strict ? { strict: true } : {}),
  };
}
