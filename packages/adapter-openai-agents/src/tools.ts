/**
 * An `@openai/agents` agent's tools as engine tools. A function tool runs through its own
 * `invoke` (the SDK's parsing, validation, timeout and error function), and its `needsApproval`
 * decides approvals. A sub-agent tool (`continuable(sub).asTool()`, or `agentTool` over an agent of
 * any adapter) becomes the core's agent tool, so the sub-agent's suspension nests in the parent's.
 */
import {
  type ContinuableAgent,
  ContinuationError,
  agentTool as coreAgentTool,
  type JsonValue,
  type ToolContext,
  type ToolDefinition,
} from '@agent-continuations/core';
import { type Agent, type FunctionTool, RunContext, type Tool } from '@openai/agents';
import { prepareFunctionToolInput } from '@openai/agents-core/utils/internal';

/** Sub-agent tools this adapter made, with the continuable agent each one runs. */
const subAgents = new WeakMap<object, ContinuableAgent<any, any>>();

/** Tools this adapter made whose engine form is given whole (human tools). */
const engineForms = new WeakMap<object, ToolDefinition>();

/** Engine contexts of the SDK run contexts handed to tools while they run. */
const contexts = new WeakMap<object, ToolContext>();

/** Mark an SDK tool as running `agent` as a sub-agent. */
export function registerSubAgent<T extends object>(tool: T, agent: ContinuableAgent<any, any>): T {
  subAgents.set(tool, agent);
  return tool;
}

/** Mark an SDK tool as standing for an engine tool (a human tool) under a continuable agent. */
export function registerEngineTool<T extends object>(tool: T, definition: ToolDefinition): T {
  engineForms.set(tool, definition);
  return tool;
}

/**
 * The run's continuation facilities inside an `@openai/agents` tool's `execute`: `requestInput`
 * (ask a human and suspend), `runAgent`, `idempotencyKey`. Undefined when the SDK itself runs the tool.
 *
 * @example
 * ```ts
 * const pay = tool({
 *   name: 'pay',
 *   description: 'Pay an amount',
 *   parameters: z.object({ amount: z.number() }),
 *   execute: async ({ amount }, runContext) => {
 *     const ctx = continuationContext(runContext);
 *     const reason = await ctx?.requestInput({ question: `Why pay ${amount}?` });
 *     return bank.pay(amount, { idempotencyKey: ctx?.idempotencyKey, reason });
 *   },
 * });
 * ```
 */
export function continuationContext(runContext: unknown): ToolContext | undefined {
  return typeof runContext === 'object' && runContext !== null ? contexts.get(runContext) : undefined;
}

/** What the tools of one agent need from the wrap. */
export interface ToolOptions {
  /** The `context` of `run(agent, input, { context })`, handed to tools and `needsApproval`. */
  context?: unknown;
}

/**
 * The engine tools of an SDK agent, and which of them the model gets with `strict: true`.
 *
 * @example
 * ```ts
 * const { tools, strict } = toEngineTools(agent, { context: { userId: 'u1' } });
 * ```
 */
export function toEngineTools(
  agent: Agent<any, any>,
  options: ToolOptions,
): { tools: ToolDefinition[]; strict: Set<string> } {
  const strict = new Set<string>();
  const tools = agent.tools.map((tool: Tool<any>) => {
    if (tool.type !== 'function') {
      refuse(
        `Agent "${agent.name}" has a ${tool.type} tool "${(tool as { name?: string }).name ?? ''}"; a continuable agent runs function tools only: remove it, or wrap its work in a function tool.`,
      );
    }
    if (tool.strict) strict.add(tool.name);
    const form = engineForms.get(tool);
    if (form) return form;
    const child = subAgents.get(tool);
    if (child) return subAgentTool(tool, child, options);
    if (typeof (tool as { on?: unknown }).on === 'function') {
      refuse(
        `Agent "${agent.name}": tool "${tool.name}" is a sub-agent made by agent.asTool(), whose own approvals could not suspend the run; make it with continuable(subAgent).asTool({ ... }) instead.`,
      );
    }
    if ((tool.inputGuardrails?.length ?? 0) > 0 || (tool.outputGuardrails?.length ?? 0) > 0) {
      refuse(
        `Agent "${agent.name}": tool "${tool.name}" has tool guardrails, which a continuable agent does not run; remove them or check inside execute.`,
      );
    }
    return functionTool(tool, options);
  });
  return { tools, strict };
}

function functionTool(tool: FunctionTool<any, any, any>, options: ToolOptions): ToolDefinition {
  return {
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.parameters as Record<string, unknown>,
    // The tool's own parser checks model and edited arguments alike; `invoke` parses them again.
    validate: (args) => {
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return { ok: false, message: `expected a JSON object of arguments, got ${JSON.stringify(args)}` };
      const parsed = prepareFunctionToolInput(tool, JSON.stringify(args))?.result;
      if (parsed && !parsed.success) return { ok: false, message: messageOf(parsed.error) };
      return { ok: true, value: args };
    },
    needsApproval: approvalOf(tool, options),
    execute: async (args, ctx) => {
      const runContext = new RunContext(options.context);
      // A suspension (requestInput, runAgent) must pass the SDK's error function untouched.
      let suspension: { error: unknown } | undefined;
      const recorded = <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
        (async (...a: A) => {
          try {
            return await fn(...a);
          } catch (error) {
            suspension = { error };
            throw error;
          }
        }) as (...a: A) => Promise<R>;
      contexts.set(runContext, {
        ...ctx,
        requestInput: recorded(ctx.requestInput.bind(ctx)) as ToolContext['requestInput'],
        runAgent: recorded(ctx.runAgent.bind(ctx)) as ToolContext['runAgent'],
      });
      const input = JSON.stringify(args);
      const output = await tool.invoke(runContext, input, {
        toolCall: { type: 'function_call', callId: ctx.toolCallId, name: tool.name, arguments: input },
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      if (suspension) throw suspension.error;
      return toJson(output);
    },
  };
}

function subAgentTool(
  tool: FunctionTool<any, any, any>,
  child: ContinuableAgent<any, any>,
  options: ToolOptions,
): ToolDefinition {
  return {
    ...coreAgentTool(child, {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
    }),
    // The model sees the schema the SDK's own tool sends, so a wrapped run asks what a native one does.
    inputSchema: tool.parameters as Record<string, unknown>,
    needsApproval: approvalOf(tool, options),
  };
}

/** The tool's `needsApproval`, given the parsed arguments as under the SDK's Runner. */
function approvalOf(
  tool: FunctionTool<any, any, any>,
  options: ToolOptions,
): ToolDefinition['needsApproval'] {
  return (args: unknown, ctx) => {
    const parsed = prepareFunctionToolInput(tool, JSON.stringify(args))?.result;
    const input = parsed?.success ? parsed.value : args;
    return tool.needsApproval(new RunContext(options.context), input as never, ctx.toolCallId);
  };
}

function messageOf(error: unknown): string {
  const issues = (error as { issues?: { message: string; path?: PropertyKey[] }[] } | undefined)?.issues;
  if (Array.isArray(issues))
    return issues
      .map((issue) => `✖ ${issue.message}${issue.path?.length ? `\n  → at ${issue.path.join('.')}` : ''}`)
      .join('\n');
  return error instanceof Error ? error.message : String(error);
}

/** A tool's output as JSON: strings as they are, other values as their JSON. */
function toJson(output: unknown): JsonValue {
  if (output === undefined) return null;
  if (typeof output === 'string') return output;
  return JSON.parse(JSON.stringify(output)) as JsonValue;
}

function refuse(message: string): never {
  throw new ContinuationError('INVALID_OPERATION', message);
}
