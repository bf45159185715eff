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
import type { z } from 'zod';
import { strictSchema } from './strict-schema';

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

/**
 * A tool in the shape `client.chat.completions.runTools()` takes: the handler in
 * `function.function`, with an optional `parse` for its raw arguments (`RunnableToolFunction`),
 * or a tool made by `zodFunction({ ..., function })`.
 */
export interface RunnableChatTool {
  type: 'function';
  function: {
    name?: string;
    description?: string;
    parameters?: object;
    strict?: boolean;
    /**
     * Called as `runTools` calls it: with the parsed arguments (or, without `parse`, their JSON
     * text), no runner (`undefined`: the engine drives the loop), and the agent's `toolContext`.
     */
    function: (args: any, runner: any, toolContext: any) => unknown;
    parse?: (input: string) => any;
  };
  needsApproval?: ToolDefinition['needsApproval'];
}

/** Anything `createAgent` accepts as a tool. */
export type OpenAIAgentTool =
  | OpenAIToolDefinition
  | ChatFunctionTool
  | ResponsesFunctionTool
  | RunnableChatTool;

/** How `runTools` tools run: the `toolContext` their handlers get. */
export interface RunnableOptions {
  /** The third argument of every `runTools` handler (`runTools({ toolContext })`). */
  toolContext?: unknown;
}

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
   * so the model's arguments always match it. Strict mode needs every property required. The
   * helper is loaded at the first strict tool, not with the adapter.
   */
  strict?: boolean;
}): OpenAIToolDefinition<z.output<S>, Result> {
  const { strict, ...rest } = options;
  const definition = defineTool(rest);
  if (!strict) return definition;
  return { ...definition, inputSchema: strictSchema(options), strict: true };
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
export function toEngineTool(
  definition: OpenAIAgentTool,
  options: RunnableOptions = {},
): OpenAIToolDefinition {
  if (!('type' in definition) || definition.type !== 'function') return definition as OpenAIToolDefinition;
  const runnable = runnableOf(definition);
  if (runnable) return runnableTool(definition as RunnableChatTool, runnable, options);
  const fn = ('function' in definition ? definition.function : definition) as ChatFunctionTool['function'];
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

/** A tool's `runTools` handler and argument parser, if it is in that shape. */
function runnableOf(
  definition: object,
): { handler: (...args: unknown[]) => unknown; parse?: (input: string) => unknown } | undefined {
  const tool = definition as {
    $brand?: unknown;
    $callback?: unknown;
    $parseRaw?: unknown;
    function?: { function?: unknown; parse?: unknown };
  };
  // `zodFunction({ ..., function })`: the SDK keeps the handler and parser out of sight.
  if (tool.$brand === 'auto-parseable-tool' && typeof tool.$callback === 'function') {
    return {
      handler: tool.$callback as (...args: unknown[]) => unknown,
      ...(typeof tool.$parseRaw === 'function'
        ? { parse: tool.$parseRaw as (input: string) => unknown }
        : {}),
    };
  }
  if (typeof tool.function?.function === 'function') {
    return {
      handler: tool.function.function as (...args: unknown[]) => unknown,
      ...(typeof tool.function.parse === 'function'
        ? { parse: tool.function.parse as (input: string) => unknown }
        : {}),
    };
  }
  return undefined;
}

/**
 * A `runTools` tool run the way `runTools` runs it: the arguments go through `parse` (the JSON
 * text otherwise), the handler gets them, no runner, and the `toolContext`; its result goes to the
 * model as text (a string as it is, anything else as JSON). A `parse` that throws gives the model
 * the error, and the handler does not run.
 */
function runnableTool(
  definition: RunnableChatTool,
  runnable: { handler: (...args: unknown[]) => unknown; parse?: (input: string) => unknown },
  options: RunnableOptions,
): OpenAIToolDefinition {
  const fn = definition.function;
  const name = fn.name || (fn.function as { name?: string }).name;
  if (!name)
    throw new ContinuationError('INVALID_OPERATION', 'A runTools tool needs a name (function.name).');
  const strict = fn.strict === true || (definition as { $brand?: unknown }).$brand === 'auto-parseable-tool';
  return {
    name,
    ...(fn.description ? { description: fn.description } : {}),
    inputSchema: (fn.parameters ?? { type: 'object', properties: {} }) as JsonSchema,
    validate: async (args) => {
      if (!runnable.parse) return { ok: true, value: args };
      try {
        return { ok: true, value: await runnable.parse(JSON.stringify(args)) };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
    ...(definition.needsApproval === undefined ? {} : { needsApproval: definition.needsApproval }),
    execute: async (args) => {
      // Without `parse`, a runTools handler gets the arguments' JSON text.
      const input = runnable.parse ? args : JSON.stringify(args);
      const result = await runnable.handler(input, undefined, options.toolContext);
      return typeof result === 'string'
        ? result
        : result === undefined
          ? 'undefined'
          : JSON.stringify(result);
    },
    ...(strict ? { strict: true } : {}),
  };
}
