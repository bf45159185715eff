/**
 * AI SDK tools as engine tools: the same schema, validation, approval rule and `execute`, with
 * the SDK's tool options (`toolCallId`, `messages`, `abortSignal`, context). A tool without
 * `execute` becomes a human tool whose answer is its result.
 */
import {
  type ContinuableAgent,
  ContinuationError,
  type JsonSchema,
  type JsonValue,
  type ToolContext,
  type ToolDefinition,
  type ToolPolicy,
} from '@agent-continuations/core';
import { asSchema, type FlexibleSchema, jsonSchema, type ModelMessage, type Tool, tool } from 'ai';
import { type AnySettings, approvalStatus, toolOptionsContext } from './compat';
import { inputSchemaOf } from './input-schemas';
import { toModelMessages } from './messages';

const AGENT = Symbol.for('agent-continuations.vercel-ai.agent');
const contexts = new WeakMap<object, ToolContext>();

/** What {@link agentTool} attaches to the SDK tool it makes. */
interface AgentBinding {
  agent: ContinuableAgent<any, any>;
  toInput: (args: any) => unknown;
}

/**
 * The continuation context of a tool call, from the options the AI SDK passes to `execute`:
 * ask a human with `requestInput`, run a sub-agent with `runAgent`, de-duplicate side effects
 * with `idempotencyKey`. Throws outside a run of a `continuable()` agent.
 *
 * @example
 * ```ts
 * const refund = tool({
 *   inputSchema: z.object({ order: z.string() }),
 *   execute: async ({ order }, options) => {
 *     const ctx = getToolContext(options);
 *     const { amount } = await ctx.requestInput<{ amount: number }>({ question: `Refund how much for ${order}?` });
 *     return payments.refund(order, amount, { idempotencyKey: ctx.idempotencyKey });
 *   },
 * });
 * ```
 */
export function getToolContext(options: object): ToolContext {
  const ctx = contexts.get(options);
  if (!ctx) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'getToolContext() works only inside a tool run by a continuable() agent; wrap the agent with continuable().',
    );
  }
  return ctx;
}

/** Options of {@link agentTool}. */
export interface AgentToolOptions<Input> {
  description?: string;
  /** The arguments the model gives; `{ input: string }` by default. */
  inputSchema?: FlexibleSchema<any>;
  /** Turn the arguments into the sub-agent's input; `args.input` by default. */
  toInput?: (args: any) => Input;
  /** Ask a human before the sub-agent runs. */
  needsApproval?: boolean | ((args: any) => boolean | Promise<boolean>);
}

const defaultAgentInput = jsonSchema<{ input: string }>(
  {
    type: 'object',
    properties: { input: { type: 'string', description: 'The task for the sub-agent' } },
    required: ['input'],
    additionalProperties: false,
  },
  {
    validate: (value) =>
      typeof value === 'object' && value !== null && typeof (value as { input?: unknown }).input === 'string'
        ? { success: true, value: { input: (value as { input: string }).input } }
        : { success: false, error: new TypeError('expected an object with a string "input"') },
  },
);

/**
 * Any {@link ContinuableAgent}, from any adapter, as an AI SDK tool. Inside a `continuable()`
 * agent a suspension of the sub-agent suspends the whole run, and its actions surface at the top
 * with the sub-agent's own tool names and arguments; resuming resumes the sub-agent.
 *
 * @example
 * ```ts
 * const orchestrator = continuable(
 *   new ToolLoopAgent({ model, tools: { research: agentTool(researcher, { description: 'Research a topic' }) } }),
 *   { name: 'orchestrator' },
 * );
 * ```
 */
export function agentTool<Input, Output>(
  agent: ContinuableAgent<Input, Output>,
  options: AgentToolOptions<Input> = {},
): Tool<any, Output> {
  const toInput = options.toInput ?? ((args: { input: Input }) => args.input);
  const made = tool({
    description: options.description ?? agent.description ?? `Delegate a task to the ${agent.name} agent.`,
    inputSchema: options.inputSchema ?? defaultAgentInput,
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    execute: async (args: any): Promise<Output> => {
      // Only reached when the parent is a plain AI SDK agent: it cannot hold a suspended child.
      const result = await agent.run(toInput(args));
      if (result.status === 'completed') return result.output;
      throw new ContinuationError(
        'INVALID_OPERATION',
        `The ${agent.name} agent ${result.status === 'suspended' ? 'suspended' : 'was rejected'}; a parent that is not continuable() cannot wait for it. Wrap the parent with continuable().`,
      );
    },
  } as unknown as Tool<any, Output>);
  Object.defineProperty(made, AGENT, { value: { agent, toInput } satisfies AgentBinding });
  return made;
}

/** Convert the SDK tools of an agent to engine tools (schemas resolved, so this is async). */
export async function toEngineTools(
  settings: AnySettings,
  policies: Readonly<Record<string, ToolPolicy>> = {},
): Promise<ToolDefinition[]> {
  const tools = settings.tools ?? {};
  return Promise.all(
    Object.entries(tools).map(async ([name, sdkTool]) => {
      const definition = await toEngineTool(settings, name, sdkTool);
      if (Object.hasOwn(policies, name)) definition.policy = policies[name]!;
      return definition;
    }),
  );
}

/** Refuse a policy for a tool the agent does not have: it would be dropped. */
export function checkPolicies(settings: AnySettings, policies: Readonly<Record<string, ToolPolicy>>): void {
  const unknown = Object.keys(policies).filter((name) => !Object.hasOwn(settings.tools ?? {}, name));
  if (unknown.length > 0) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `continuable() has policies for tools the agent does not have: ${unknown.join(', ')}.`,
    );
  }
}

async function toEngineTool(settings: AnySettings, name: string, sdkTool: Tool): Promise<ToolDefinition> {
  // The same schema object the model port gives the SDK: one validator for both.
  const schema = inputSchemaOf(sdkTool.inputSchema);
  const inputSchema = (await schema.jsonSchema) as JsonSchema;
  const binding = (sdkTool as { [AGENT]?: AgentBinding })[AGENT];
  // Calls an `ai@7` policy denied, remembered between the approval check and `execute`.
  const denied = new Map<string, string | undefined>();
  const definition: ToolDefinition = {
    name,
    ...(sdkTool.description === undefined ? {} : { description: sdkTool.description }),
    inputSchema,
    validate: async (value) => {
      if (!schema.validate) return { ok: true, value };
      const result = await schema.validate(value);
      return result.success
        ? { ok: true, value: result.value }
        : { ok: false, message: errorMessage(result.error) };
    },
    // A rule that is no function, with no ai@7 policy, is the same for every call.
    needsApproval:
      settings.toolApproval === undefined && typeof sdkTool.needsApproval !== 'function'
        ? sdkTool.needsApproval === true
        : async (args, ctx) => {
            const status = await approvalStatus(settings, name, sdkTool, args, {
              toolCallId: ctx.toolCallId,
              messages: () => toModelMessages(ctx.messages),
            });
            if (typeof status === 'object') denied.set(`${ctx.runId}:${ctx.toolCallId}`, status.deny);
            return status === 'ask';
          },
  };
  // A call an `ai@7` policy denied never runs: the model gets the policy's reason as an error.
  const refuseIfDenied = (ctx: ToolContext) => {
    if (denied.size === 0) return;
    const key = `${ctx.runId}:${ctx.toolCallId}`;
    if (!denied.has(key)) return;
    const reason = denied.get(key);
    denied.delete(key);
    throw new Error(`The tool approval policy denied this call${reason ? `: ${reason}` : '.'}`);
  };
  if (binding) {
    definition.agent = binding.agent;
    definition.execute = (args, ctx) => {
      refuseIfDenied(ctx);
      return ctx.runAgent(binding.agent, binding.toInput(args));
    };
    return definition;
  }
  const execute = sdkTool.execute;
  if (!execute) {
    if (sdkTool.outputSchema) {
      const output = asSchema(sdkTool.outputSchema);
      definition.validateResponse = async (value) => {
        if (!output.validate) return { ok: true, value: value as JsonValue };
        const result = await output.validate(value);
        return result.success
          ? { ok: true, value: result.value as JsonValue }
          : { ok: false, message: errorMessage(result.error) };
      };
    }
    return definition;
  }
  // What the tool's options carry besides the call: the same for every call of this agent.
  const toolContext = toolOptionsContext(settings, name);
  definition.execute = async (args, ctx) => {
    refuseIfDenied(ctx);
    let messages: ModelMessage[] | undefined;
    const options = {
      toolCallId: ctx.toolCallId,
      // Converted when the tool reads them: most tools never do, and the history grows every step.
      get messages() {
        messages ??= toModelMessages(ctx.messages);
        return messages;
      },
      ...(ctx.signal ? { abortSignal: ctx.signal } : {}),
      ...toolContext,
    };
    contexts.set(options, ctx);
    return lastValue(await execute(args, options as never));
  };
  return definition;
}

/** A streaming tool yields preliminary outputs; its result is the last one, as in the SDK. */
async function lastValue(value: unknown): Promise<unknown> {
  if (value === null || typeof value !== 'object' || !(Symbol.asyncIterator in value)) return value;
  let last: unknown;
  for await (const item of value as AsyncIterable<unknown>) last = item;
  return last;
}

/** A validation error in words; schema issues (zod, standard schema) as `path: message` lines. */
function errorMessage(error: unknown): string {
  const issues = (error as { issues?: unknown } | undefined)?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    return issues
      .map((issue: { path?: unknown[]; message?: string }) => {
        const path = Array.isArray(issue.path) && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        return `${path}${issue.message ?? 'invalid'}`;
      })
      .join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}
