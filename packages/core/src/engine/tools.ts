/**
 * Tools as the engine sees them: a name, a JSON Schema for the model, a validator, an optional
 * approval rule and an optional `execute` (none means a human answers).
 */
import type { z } from 'zod';
import { ContinuationError } from '../errors';
import type { AllowedDecision } from '../format/format';
import type { JsonObject, JsonValue } from '../format/json';
import type { Message } from '../format/messages';
import type { ToolDeadline } from '../people/deadlines';
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
   * True when this call ran before and goes on from where it waited (a human's answer, a
   * sub-agent's suspension): the tool runs again from its start, and what it did before its first
   * `requestInput` or `runAgent` was done the first time. False on the call's first run.
   *
   * @example
   * ```ts
   * execute: async (args, ctx) => {
   *   if (!ctx.replaying) await audit.log('handed off', ctx.idempotencyKey);
   *   return ctx.runAgent(billing, args.question);
   * }
   * ```
   */
  replaying: boolean;
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

/** A tool's human-in-the-loop policy: see {@link ToolDefinition.policy}. */
export interface ToolPolicy {
  description?: string;
  allowedDecisions?: AllowedDecision[];
}

const DECISIONS: readonly AllowedDecision[] = ['approve', 'edit', 'reject', 'input'];

/**
 * Refuse, when the agent is defined, a tool policy that could never be obeyed: an empty or unknown
 * list of allowed decisions, or a description that is not text.
 */
export function checkToolPolicy(tool: ToolDefinition): void {
  const policy = tool.policy;
  if (policy === undefined) return;
  const refuse = (why: string) =>
    new ContinuationError('INVALID_OPERATION', `The policy of tool "${tool.name}" ${why}.`);
  if (policy.description !== undefined && typeof policy.description !== 'string')
    throw refuse('has a description that is not a string');
  const allowed = policy.allowedDecisions;
  if (allowed === undefined) return;
  if (!Array.isArray(allowed) || allowed.length === 0)
    throw refuse('allows no decision: give at least one of approve, edit, reject, input');
  const unknown = allowed.filter((each) => !DECISIONS.includes(each));
  if (unknown.length > 0)
    throw refuse(
      `allows unknown decisions (${unknown.map(String).join(', ')}); known: ${DECISIONS.join(', ')}`,
    );
}

/** The policy fields a pending entry of `tool` carries, copied so the entry owns them. */
export function policyFields(tool: ToolDefinition): {
  description?: string;
  allowedDecisions?: AllowedDecision[];
} {
  const policy = tool.policy;
  if (!policy) return {};
  return {
    ...(policy.description === undefined ? {} : { description: policy.description }),
    ...(policy.allowedDecisions === undefined
      ? {}
      : { allowedDecisions: [...new Set(policy.allowedDecisions)] }),
  };
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
  /**
   * The human-in-the-loop policy of this tool's approvals and input requests, kept in the pending
   * entry so that every reader (the console, links, chat routes, another process) obeys it: what
   * the human is told, and the decisions allowed (`edit` is an approval with edited arguments).
   * A decision outside them is refused with `DECISION_NOT_ALLOWED` before anything runs.
   *
   * @example
   * ```ts
   * { name: 'transfer', needsApproval: true, policy: { description: 'Payments over 1,000 EUR', allowedDecisions: ['approve', 'reject'] } }
   * ```
   */
  policy?: ToolPolicy;
  /**
   * `false` for a tool whose side effect cannot be de-duplicated (even by `ctx.idempotencyKey`): it
   * must never run twice. Under a checkpoint log, its start is recorded before its body runs; when
   * its worker stops before its result is recorded, recovery does not run it again but suspends
   * the run with an action `inDoubt` for a person (approve runs it again, `input` gives the result
   * it had, reject does not run it). Costs one log append per start. Idempotent by default.
   *
   * @example
   * ```ts
   * { name: 'wire_transfer', idempotent: false, execute: ({ to, amount }) => bank.wire(to, amount) }
   * ```
   */
  idempotent?: boolean;
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
 * Validate with a zod schema, as a {@link Validation}: through its Standard Schema face
 * (`~standard`), so zod itself is never imported here (any Standard Schema works).
 * Refusals read as zod's `prettifyError` writes them: one `✖ message` line per issue, then where.
 *
 * @example
 * ```ts
 * const validate = zodValidator(z.object({ to: z.string() }));
 * validate({ to: 1 }); // { ok: false, message: '✖ Invalid input: expected string, received number\n  → at to' }
 * ```
 */
export function zodValidator<S extends z.ZodType>(
  schema: S,
): (value: unknown) => Validation<z.output<S>> | Promise<Validation<z.output<S>>> {
  const standard = standardOf(schema);
  return (value) => {
    const result = standard.validate(value);
    return result instanceof Promise
      ? result.then((settled) => toValidation<z.output<S>>(settled))
      : toValidation<z.output<S>>(result);
  };
}

/**
 * JSON Schema of a zod schema, in the form models accept (draft 7, the input side). Uses
 * the schema's own `toJSONSchema()` (zod 4) or its Standard JSON Schema (`~standard.jsonSchema`),
 * so zod itself is never imported here.
 *
 * @example
 * ```ts
 * const tool: ToolDefinition = { name: 'x', inputSchema: zodJsonSchema(z.object({ id: z.string() })) };
 * ```
 */
export function zodJsonSchema(schema: z.ZodType): JsonSchema {
  const own = (schema as unknown as { toJSONSchema?: (params: object) => JsonSchema }).toJSONSchema;
  let json: JsonSchema | undefined;
  if (typeof own === 'function') {
    json = own.call(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
  } else {
    const standard = standardOf(schema) as StandardProps & {
      jsonSchema?: { input(params: object): JsonSchema };
    };
    json = standard.jsonSchema?.input({ target: 'draft-07', libraryOptions: { unrepresentable: 'any' } });
  }
  if (!json) {
    throw new TypeError(
      'A tool schema must be a zod 4 schema or implement Standard JSON Schema (`~standard.jsonSchema`).',
    );
  }
  const { $schema: _, ...rest } = json;
  return rest;
}

interface StandardIssue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
}

interface StandardProps {
  validate(value: unknown): StandardResult | Promise<StandardResult>;
}

type StandardResult = { value: unknown; issues?: undefined } | { issues: readonly StandardIssue[] };

function standardOf(schema: unknown): StandardProps {
  const standard = (schema as { '~standard'?: StandardProps } | null)?.['~standard'];
  if (typeof standard?.validate !== 'function') {
    throw new TypeError('A tool schema must implement Standard Schema (`~standard`), as zod 4 schemas do.');
  }
  return standard;
}

function toValidation<T>(result: StandardResult): Validation<T> {
  if (!result.issues) return { ok: true, value: result.value as T };
  const issues = [...result.issues].sort((a, b) => (a.path?.length ?? 0) - (b.path?.length ?? 0));
  const lines: string[] = [];
  for (const issue of issues) {
    lines.push(`✖ ${issue.message}`);
    if (issue.path?.length) lines.push(`  → at ${dotPath(issue.path)}`);
  }
  return { ok: false, message: lines.join('\n') };
}

/** A path as zod's `prettifyError` prints it: `a.b[0]["c d"]`. */
function dotPath(path: ReadonlyArray<PropertyKey | { key: PropertyKey }>): string {
  let text = '';
  for (const segment of path) {
    const key = typeof segment === 'object' ? segment.key : segment;
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'symbol' || /[^\w$]/.test(key)) text += `[${JSON.stringify(String(key))}]`;
    else text += text ? `.${key}` : key;
  }
  return text;
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
  /** See {@link ToolDefinition.policy}. */
  policy?: ToolPolicy;
  /** See {@link ToolDefinition.idempotent}. */
  idempotent?: boolean;
  execute: (args: z.output<S>, ctx: ToolContext) => Result | Promise<Result>;
}): ToolDefinition<z.output<S>, Result> {
  return {
    name: options.name,
    ...(options.description === undefined ? {} : { description: options.description }),
    inputSchema: zodJsonSchema(options.parameters),
    validate: zodValidator(options.parameters),
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.idempotent === undefined ? {} : { idempotent: options.idempotent }),
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
  /** See {@link ToolDefinition.policy}. */
  policy?: ToolPolicy;
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
    ...(options.policy === undefined ? {} : { policy: options.policy }),
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
  /** See {@link ToolDefinition.policy}. */
  policy?: ToolPolicy;
}

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
  const parameters = options.inputSchema ?? options.parameters;
  const toInput = options.toInput ?? ((args: { input: Input }) => args.input);
  return {
    name: options.name ?? agent.name,
    description: options.description ?? agent.description ?? `Delegate a task to the ${agent.name} agent.`,
    inputSchema: parameters ? zodJsonSchema(parameters) : DEFAULT_AGENT_SCHEMA,
    validate: parameters ? zodValidator(parameters) : defaultAgentArgs,
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    execute: (args, ctx) => ctx.runAgent(agent, toInput(args)),
    agent,
  };
}

/** The arguments of an `agentTool` without its own schema: `{ input: string }`. */
const DEFAULT_AGENT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The task for the sub-agent' } },
  required: ['input'],
};

function defaultAgentArgs(args: unknown): Validation<{ input: string }> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return {
      ok: false,
      message: `✖ Invalid input: expected object, received ${args === null ? 'null' : Array.isArray(args) ? 'array' : typeof args}`,
    };
  }
  const input = (args as Record<string, unknown>).input;
  if (typeof input !== 'string') {
    return {
      ok: false,
      message: `✖ Invalid input: expected string, received ${input === undefined ? 'undefined' : input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input}\n  → at input`,
    };
  }
  return { ok: true, value: { input } };
}
