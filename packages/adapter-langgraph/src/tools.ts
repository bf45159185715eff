/**
 * LangChain tools that suspend a LangGraph run the continuable way: approval for existing tools,
 * a human's answer inside a tool, and any `ContinuableAgent` as a tool.
 */
import {
  type ContinuableAgent,
  type Continuation,
  ContinuationError,
  isContinuationError,
  type JsonValue,
  type RunEvent,
  type RunOptions,
  type RunResult,
  resumesWithoutDecisions,
  textOf,
} from '@agent-continuations/core';
import { rejectionMessage } from '@agent-continuations/core/adapter-kit';
import { ToolMessage } from '@langchain/core/messages';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { type StructuredToolInterface, type ToolRunnableConfig, tool } from '@langchain/core/tools';
import { interrupt } from '@langchain/langgraph';
import { z } from 'zod';
import { type Children, recordChild, takeChild } from './children';
import { withEditedTurn } from './edited-args';
import { type OwnPayload, type OwnResume, toJson } from './interrupts';
import {
  ANSWERS_KEY,
  CAPTURE_KEY,
  CHILD_OPTIONS_KEY,
  CHILDREN_KEY,
  EVENTS_KEY,
  MARK,
  RUN_ID_KEY,
  WRAPS,
} from './keys';
import type { Capture } from './tool-guard';

/** Which calls need approval: all, the tools named, or a function of the call. */
export type ApprovalPolicy =
  | true
  | readonly string[]
  | ((call: { toolName: string; args: JsonValue }) => boolean | Promise<boolean>);

const AGENT = Symbol.for('agent-continuations.langgraph.agent');

/** The text a model gets when a human rejected its call: the core's words, as in every adapter. */
export const rejectionText: (reason?: string) => string = rejectionMessage;

/**
 * Add human approval to existing LangChain tools without rewriting them: a call that the policy
 * selects suspends the run as an `approval` action; approve runs the tool (with edited arguments
 * when given), reject returns the reason to the model as an error result.
 *
 * @example
 * ```ts
 * const tools = requireApproval([restartService, readLogs], ['restart_service']);
 * const graph = createReactAgent({ llm, tools, version: 'v2' });
 * const agent = fromGraph(graph, { name: 'ops' });
 * ```
 */
export function requireApproval<T extends StructuredToolInterface>(
  tools: readonly T[],
  policy: ApprovalPolicy = true,
): StructuredToolInterface[] {
  const selects = async (toolName: string, args: JsonValue) => {
    if (policy === true) return true;
    if (typeof policy === 'function') return policy({ toolName, args });
    return policy.includes(toolName);
  };
  return tools.map((original) => {
    if (policy !== true && typeof policy !== 'function' && !policy.includes(original.name)) return original;
    const wrapped = tool(
      async (args: unknown, config: ToolRunnableConfig) => {
        const call = callOf(config, original.name, args);
        if (!(await selects(original.name, call.args))) return original.invoke(args as never, config);
        const payload: OwnPayload = { [MARK]: 'approval', ...call };
        const answer = takeAnswer(config, call.toolCallId) ?? interrupt<OwnPayload, OwnResume>(payload);
        if (answer.type === 'reject') {
          return new ToolMessage({
            content: rejectionText(answer.reason),
            tool_call_id: call.toolCallId,
            name: original.name,
            status: 'error',
          });
        }
        const edited = answer.type === 'approve' ? answer.args : undefined;
        const output = await original.invoke((edited ?? args) as never, config);
        // The model reads the arguments that ran (the audit trail keeps the ones it asked for).
        return edited === undefined
          ? output
          : withEditedTurn(config, call.toolCallId, original.name, output, edited);
      },
      { name: original.name, description: original.description, schema: original.schema as z.ZodObject },
    );
    const agent = (original as { [AGENT]?: ContinuableAgent<any, any> })[AGENT];
    if (agent) Object.assign(wrapped, { [AGENT]: agent });
    // The tool whose body runs once approved: the tool guard checks the lease right before it.
    Object.assign(wrapped, { [WRAPS]: original });
    return wrapped as unknown as StructuredToolInterface;
  });
}

/**
 * Ask a human from inside a LangChain tool: the run suspends with an `input` action, and on
 * resume the tool runs again from its start and this call returns the answer. Pass the tool's
 * own `config` (its second argument). Put side effects after it. A rejected request throws, and
 * the model gets the reason as the tool's error.
 *
 * @example
 * ```ts
 * const refund = tool(async ({ orderId }, config) => {
 *   const { amount } = requestInput<{ amount: number }>({ question: `Refund how much for ${orderId}?` }, config);
 *   return payments.refund(orderId, amount);
 * }, { name: 'refund', description: 'Refund an order', schema: z.object({ orderId: z.string() }) });
 * ```
 */
export function requestInput<T extends JsonValue = JsonValue>(
  request: JsonValue,
  config: ToolRunnableConfig,
): T {
  const call = callOf(config, 'unknown', {});
  const answer =
    takeAnswer(config, call.toolCallId) ??
    interrupt<OwnPayload, OwnResume | JsonValue>({
      [MARK]: 'input',
      ...call,
      request: toJson(request),
    });
  if (isOwnResume(answer)) {
    if (answer.type === 'reject') throw new Error(rejectionText(answer.reason));
    if (answer.type === 'input') return answer.value as T;
  }
  return answer as T;
}

const RESPONSE = Symbol.for('agent-continuations.langgraph.response');

/**
 * A tool a human answers: the model calls it, the run suspends with an `input` action whose
 * request is the call's arguments, and the human's answer (checked against `response` before
 * anything runs) is the tool's result.
 *
 * @example
 * ```ts
 * const askManager = humanTool({
 *   name: 'ask_manager',
 *   description: 'Ask the manager a question',
 *   schema: z.object({ question: z.string() }),
 *   response: z.object({ answer: z.string() }),
 * });
 * ```
 */
export function humanTool(options: {
  name: string;
  description: string;
  schema: z.ZodObject;
  response?: z.ZodType;
}): StructuredToolInterface {
  const made = tool(
    async (args: unknown, config: ToolRunnableConfig) => {
      const answer = requestInput(toJson(args), config);
      return typeof answer === 'string' ? answer : JSON.stringify(answer);
    },
    { name: options.name, description: options.description, schema: options.schema },
  );
  Object.assign(made, { [RESPONSE]: options.response ?? z.unknown() });
  return made as unknown as StructuredToolInterface;
}

/** The answer schema of a tool made by {@link humanTool}, if it is one. */
export function responseOf(value: unknown): z.ZodType | undefined {
  return (value as { [RESPONSE]?: z.ZodType } | undefined)?.[RESPONSE];
}

/** Options of {@link agentTool}. */
export interface AgentToolOptions<Input> {
  /** The tool name; defaults to the agent's name. */
  name?: string;
  description?: string;
  /** The arguments the model gives, as a zod object schema; `{ input: string }` by default (the core's name). */
  inputSchema?: z.ZodObject;
  /** The same as `inputSchema`, under LangChain's name for it. */
  schema?: z.ZodObject;
  /** Turn the tool's arguments into the agent's input; defaults to `args.input`. */
  toInput?: (args: any) => Input;
}

/**
 * Any `ContinuableAgent`, from any adapter, as a LangChain tool. When the agent suspends, the
 * graph suspends too and the agent's continuation nests in the graph's as a pending `agent` entry;
 * decisions for its actions resume it, and its output becomes the tool's result.
 *
 * @example
 * ```ts
 * const graph = createReactAgent({ llm, tools: [agentTool(billingAgent)], version: 'v2' });
 * const support = fromGraph(graph, { name: 'support' });
 * ```
 */
export function agentTool<Input, Output>(
  agent: ContinuableAgent<Input, Output>,
  options: AgentToolOptions<Input> = {},
): StructuredToolInterface {
  const schema =
    options.inputSchema ??
    options.schema ??
    z.object({ input: z.string().describe('The task for the sub-agent') });
  const toInput = options.toInput ?? ((args: { input: Input }) => args.input);
  const name = options.name ?? agent.name;
  const made = tool(
    async (args: unknown, config: ToolRunnableConfig) => {
      const call = callOf(config, name, args);
      const configurable = (config.configurable ?? {}) as Record<string, unknown>;
      const children = (configurable[CHILDREN_KEY] ?? {}) as Children;
      // Each decision for the child is applied once, however often LangGraph re-runs this task.
      const saved = takeChild(children, call.toolCallId);
      // Nothing was decided for the child, and it waits for a human: wait again without running
      // it. A child stopped by a predicate or a failure goes on with no decisions.
      if (saved && !saved.decisions && !resumesWithoutDecisions(saved.continuation)) {
        interrupt<OwnPayload, unknown>(agentPayload(call, saved.continuation));
      }
      const runId = `${String(configurable[RUN_ID_KEY] ?? 'run')}/${call.toolCallId}`;
      // The child's steps and tool results reach this run's observers and stream, with their path.
      const forward = configurable[EVENTS_KEY] as
        | ((on: typeof call, event: RunEvent) => Promise<void>)
        | undefined;
      const childOptions: RunOptions = {
        ...(configurable[CHILD_OPTIONS_KEY] as RunOptions | undefined),
        ...(config.signal ? { signal: config.signal } : {}),
        ...(forward ? { onEvent: (event: RunEvent) => forward(call, event) } : {}),
      };
      let result: RunResult<Output>;
      try {
        // The child is a run of its own: keep the parent's LangGraph context away from it.
        result = await outsideGraph(() =>
          saved
            ? agent.resume(saved.continuation, saved.decisions ?? {}, childOptions)
            : agent.run(toInput(args as { input: Input }), { ...childOptions, runId }),
        );
      } catch (error) {
        // The child failed: so does this run, one level up, the call holding the child's last
        // good state (the one its error carries, else the one it was resumed from).
        const last = (isContinuationError(error) && error.continuation) || saved?.continuation;
        const capture = configurable[CAPTURE_KEY] as Capture | undefined;
        if (!capture || !last) throw error;
        capture.childFailures.push({ toolCallId: call.toolCallId, toolName: call.toolName, error });
        interrupt<OwnPayload, unknown>(agentPayload(call, last));
        throw error;
      }
      if (result.status === 'suspended') {
        if (saved) recordChild(children, call.toolCallId, result.continuation);
        interrupt<OwnPayload, unknown>(agentPayload(call, result.continuation));
      }
      if (result.status === 'rejected') {
        const why = result.rejection.reason ? ` (${result.rejection.reason})` : '';
        throw new Error(
          `The ${agent.name} agent stopped: a human rejected its ${result.rejection.toolName} call${why}.`,
        );
      }
      if (result.status !== 'completed') throw new Error(`The ${agent.name} agent did not finish.`);
      const output = result.output as unknown;
      return typeof output === 'string' ? output : JSON.stringify(output ?? textOf(result.messages.at(-1)));
    },
    {
      name,
      description: options.description ?? agent.description ?? `Delegate a task to the ${agent.name} agent.`,
      schema,
    },
  );
  Object.assign(made, { [AGENT]: agent });
  return made as unknown as StructuredToolInterface;
}

/**
 * The interrupt payload of a waiting sub-agent. The child's continuation travels as its JSON text:
 * LangGraph revives anything in a checkpoint shaped like a serialized LangChain object (a
 * LangGraph child's own state holds such values, e.g. `{ lc: 2, type: 'undefined' }`), which
 * would change the continuation after the child sealed it, and its seal would no longer match.
 */
function agentPayload(
  call: { toolCallId: string; toolName: string; args: JsonValue },
  child: Continuation,
): OwnPayload {
  return { [MARK]: 'agent', ...call, child: JSON.stringify(child) };
}

/** The sub-agent behind a tool made by {@link agentTool}, if any. */
export function agentOf(value: unknown): ContinuableAgent<any, any> | undefined {
  return (value as { [AGENT]?: ContinuableAgent<any, any> } | undefined)?.[AGENT];
}

/** Run `fn` with no LangChain context, so a nested graph run does not take its parent's config. */
export function outsideGraph<T>(fn: () => Promise<T>): Promise<T> {
  return AsyncLocalStorageProviderSingleton.getInstance().run(undefined, fn) as Promise<T>;
}

function callOf(
  config: ToolRunnableConfig,
  toolName: string,
  args: unknown,
): { toolCallId: string; toolName: string; args: JsonValue } {
  const call = config.toolCall;
  if (!call?.id) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'This tool must be called by a LangGraph tool node (with a tool call id) to suspend the run.',
    );
  }
  return { toolCallId: call.id, toolName: call.name ?? toolName, args: toJson(call.args ?? args) };
}

/** A decision given before the graph asked (a continuation from another adapter), taken once. */
function takeAnswer(config: ToolRunnableConfig, toolCallId: string): OwnResume | undefined {
  const answers = config.configurable?.[ANSWERS_KEY] as Map<string, OwnResume> | undefined;
  const answer = answers?.get(toolCallId);
  if (answer) answers!.delete(toolCallId);
  return answer;
}

function isOwnResume(value: unknown): value is OwnResume {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['approve', 'reject', 'input'].includes((value as { type?: string }).type ?? '')
  );
}
