/**
 * Tools as the engine sees them: a name, a JSON Schema for the model, a validator, an optional
 * approval rule and an optional `execute` (none means a human answers).
 */
import { z } from 'zod';
import type { ToolDeadline } from './deadlines';
import type { JsonObject, JsonValue } from './json';
import type { Message } from './messages';
import type { ContinuableAgent } from './protocol';

/** A JSON Schema object, as sent to models. */
export type JsonSchema = { [key: string]: unknown };

/** The outcome of validating arguments or an answer. */
export type Validation<T> = { ok: true; value: T } | { ok: false; message: string };

/** What a tool sees while it runs. */
export interface ToolContext {
  runId: string;
  agentName: string;
  toolName: string;
  toolCallId: string;
  /**
   * `runId` + tool-call id: the same on every attempt of this call, also after a crash and
   * recovery, so a side effect can be de-duplicated by it.
   */
  idempotencyKey: string;
  metadata: JsonObject;
  messages: readonly Message[];
  signal?: AbortSignal;
  /**
   * Ask a human; the run suspends and, on resume, the tool runs again from its start and this call
   * returns the answer. Put side effects after it. Never catch the suspension it throws.
   *
   * @example
   * ```ts
   * execute: async ({ amount }, ctx) => {
   *   const reason = await ctx.requestInput<string>({ question: `Why pay ${amount}?` });
   *   return pay(amount, reason, { idempotencyKey: ctx.idempotencyKey });
   * }
   * ```
   */
  requestInput<T extends JsonValue = JsonValue>(request: JsonValue): Promise<T>;
  /**
   * Run a sub-agent as part of this tool. If it suspends, this run suspends too, holding the
   * child's continuation; on resume the child is resumed and this call returns its output.
   */
  runAgent<I, O>(agent: ContinuableAgent<I, O>, input: I): Promise<O>;
}

/** What `needsApproval` sees besides the arguments. */
export interface ApprovalContext {
  runId: string;
  agentName: string;
  toolCallId: string;
  metadata: JsonObject;
  messages: readonly Message[];
}

/** A tool in the engine's terms. Adapters convert their framework's tools into this. */
export interface ToolDefinition<Args = any, Result = unknown> {
  name: string;
  description?: string;
  /** JSON Schema of the arguments, sent to the model. */
  inputSchema: JsonSchema;
  /** Validate (and possibly transform) arguments from the model or from an edit. */
  validate?: (args: unknown) => Validation<Args> | Promise<Validation<Args>>;
  /** `true`, or a function of the arguments, to ask a human before the call runs. */
  needsApproval?: boolean | ((args: Args, ctx: ApprovalContext) => boolean | Promise<boolean>);
  /**
   * How long a human has to act on this tool's approval or input request: milliseconds from the
   * suspension, a `Date`, or a function of the arguments. Past it, `sweepDeadlines` applies its
   * default decision. The run's `deadlines` option is asked when this is absent.
   */
  deadline?: ToolDeadline;
  /** Run the tool; absent for a human tool, whose result is the human's answer. */
  execute?: (args: Args, ctx: ToolContext) => Result | Promise<Result>;
  /** For a human tool: JSON Schema of the answer, e.g. to build a form for it. */
  responseSchema?: JsonSchema;
  /** For a human tool: validate the answer. */
  validateResponse?: (value: unknown) => Validation<JsonValue> | Promise<Validation<JsonValue>>;
  /** Set by {@link agentTool}: the sub-agent, so decisions for it can be checked before anything runs. */
  agent?: ContinuableAgent<any, any>;
}

/**
 * Validate with a zod schema, as a {@link Validation}.
 *
 * @example
 * ```ts
 * const validate = zodValidator(z.object({ to: z.string() }));
 * validate({ to: 1 }); // { ok: false, message: '...' }
 * ```
 */
export function zodValidator<S extends z.ZodType>(schema: S): (value: unknown) => Validation<z.output<S>> {
  return (value) => {
    const result = schema.safeParse(value);
    if (result.success) return { ok: true, value: result.data };
    return { ok: false, message: z.prettifyError(result.error) };
  };
}

/**
 * JSON Schema of a zod schema, in the form models accept.
 *
 * @example
 * ```ts
 * const tool: ToolDefinition = { name: 'x', inputSchema: zodJsonSchema(z.object({ id: z.string() })) };
 * ```
 */
export function zodJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/**
 * Define a tool with a zod schema for its arguments.
 *
 * @example
 * ```ts
 * const transfer = defineTool({
 *   name: 'transfer',
 *   description: 'Transfer money',
 *   parameters: z.object({ to: z.string(), amount: z.number().positive() }),
 *   needsApproval: ({ amount }) => amount > 100,
 *   execute: async ({ to, amount }, ctx) => bank.transfer(to, amount, ctx.idempotencyKey),
 * });
 * ```
 */
export function defineTool<S extends z.ZodType, Result>(options: {
  name: string;
  description?: string;
  parameters: S;
  needsApproval?: ToolDefinition<z.output<S>>['needsApproval'];
  /** See {@link ToolDefinition.deadline}. */
  deadline?: ToolDeadline;
  execute: (args: z.output<S>, ctx: ToolContext) => Result | Promise<Result>;
}): ToolDefinition<z.output<S>, Result> {
  return {
    name: options.name,
    ...(options.description === undefined ? {} : { description: options.description }),
    inputSchema: zodJsonSchema(options.parameters),
    validate: zodValidator(options.parameters),
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    execute: options.execute,
  };
}

/**
 * Define a human tool: the model calls it with a question, the run suspends, and the human's
 * answer (validated against `response`) is the tool's result.
 *
 * @example
 * ```ts
 * const askManager = humanTool({
 *   name: 'ask_manager',
 *   parameters: z.object({ question: z.string() }),
 *   response: z.object({ answer: z.string() }),
 * });
 * ```
 */
export function humanTool<S extends z.ZodType, R extends z.ZodType>(options: {
  name: string;
  description?: string;
  parameters: S;
  response?: R;
  /** See {@link ToolDefinition.deadline}. */
  deadline?: ToolDeadline;
}): ToolDefinition<z.output<S>, z.output<R>> {
  return {
    name: options.name,
    ...(options.description === undefined ? {} : { description: options.description }),
    inputSchema: zodJsonSchema(options.parameters),
    validate: zodValidator(options.parameters),
    ...(options.response
      ? {
          validateResponse: zodValidator(options.response) as ToolDefinition['validateResponse'],
          responseSchema: zodJsonSchema(options.response),
        }
      : {}),
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
  };
}

/**
 * Options of {@link agentTool}: the same shape in every adapter (each may also accept its
 * framework's own name for the schema).
 */
export interface AgentToolOptions<Input> {
  /** The tool name the model calls; the agent's name by default. */
  name?: string;
  /** What the model reads about the tool; the agent's description by default. */
  description?: string;
  /** The arguments the model gives, as a zod schema; `{ input: string }` by default. */
  inputSchema?: z.ZodType;
  /** @deprecated The same as `inputSchema`. */
  parameters?: z.ZodType;
  /** Turn the tool's arguments into the agent's input; `args.input` by default. */
  toInput?: (args: any) => Input;
  /** Ask a human before the sub-agent runs: `true`, or a function of the arguments. */
  needsApproval?: ToolDefinition['needsApproval'];
  /** See {@link ToolDefinition.deadline}. */
  deadline?: ToolDeadline;
}

const defaultAgentParameters = z.object({ input: z.string().describe('The task for the sub-agent') });

/**
 * Present any {@link ContinuableAgent}, from any adapter, as a tool: nesting to any depth. When the
 * sub-agent suspends, the calling run suspends too, holding the child's continuation.
 *
 * @example
 * ```ts
 * const orchestrator = createContinuableAgent({
 *   name: 'hr',
 *   model,
 *   tools: [
 *     agentTool(payrollAgent, {
 *       name: 'ask_payroll',
 *       description: 'Payroll questions about one employee',
 *       inputSchema: z.object({ employee: z.string(), question: z.string() }),
 *       toInput: ({ employee, question }) => `${question} (employee ${employee})`,
 *     }),
 *   ],
 * });
 * ```
 */
export function agentTool<Input, Output>(
  agent: ContinuableAgent<Input, Output>,
  options: AgentToolOptions<Input> = {},
): ToolDefinition<any, Output> {
  const parameters = options.inputSchema ?? options.parameters ?? defaultAgentParameters;
  const toInput = options.toInput ?? ((args: { input: Input }) => args.input);
  return {
    name: options.name ?? agent.name,
    description: options.description ?? agent.description ?? `Delegate a task to the ${agent.name} agent.`,
    inputSchema: zodJsonSchema(parameters),
    validate: zodValidator(parameters),
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    execute: (args, ctx) => ctx.runAgent(agent, toInput(args)),
    agent,
  };
}
