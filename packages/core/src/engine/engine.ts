/**
 * The agent loop of docs/design.md section 4, written once over a model port and engine tools, on the
 * agent shell every adapter shares. Adapters build on {@link createContinuableAgent}; users of the
 * core alone can too.
 */

import { ContinuationError, ModelCallError } from '../errors';
import type { PendingEntry, SuspendReason } from '../format/format';
import { addUsage, type Continuation } from '../format/format';
import { checkJson } from '../format/json';
import {
  type AssistantMessage,
  type Message,
  type ToolCallPart,
  textOf,
  toolCallIdsIn,
  toolCallsOf,
  uniqueToolCallIds,
} from '../format/messages';
import { withDeadlines } from '../people/deadlines';
import type { SealConfig } from '../trust/seal';
import { actionId } from './actions';
import { createAgentShell, type StreamInput } from './agent-shell';
import { type DecisionsByCall, decisionsByCall } from './children';
import type { ModelPort, ModelRequest, ModelResponse, ModelSegment, ToolSpec } from './model';
import { type SuspendWhen, toPredicates } from './predicates';
import type { Decisions, RunEvent, RunOptions, RunResult } from './protocol';
import { type RunState, snapshot } from './run-state';
import type { AgentStream, AgentStreamEvent } from './stream';
import { createStream } from './stream';
import { checkToolPolicy, type ToolDefinition } from './tools';
import { STREAMS_RUNS, settleTurn } from './turn';

export { DEFAULT_MAX_STEPS, type StreamInput } from './agent-shell';

/** Configuration of {@link createContinuableAgent}. */
export interface ContinuableAgentConfig {
  name: string;
  /** The adapter name recorded in continuations; `core` by default. */
  framework?: string;
  description?: string;
  /** The system prompt, sent on every model call and never stored in the transcript. */
  instructions?: string;
  model: ModelPort;
  tools?: readonly ToolDefinition[];
  /** Predicates checked before every model call; when one fires the run suspends. */
  suspendWhen?: SuspendWhen | readonly SuspendWhen[];
  /** On a rejected call: tell the model and go on (default), or end the run as rejected. */
  onReject?: 'continue' | 'end';
  /**
   * A tool that throws: its message goes to the model as an error result (default), or the run
   * throws a `ToolCallError` holding the last good continuation.
   */
  toolErrors?: 'model' | 'throw';
  /**
   * The most model calls one `run` or `resume` makes; then the run suspends (predicate
   * `maxSteps`), and `resume(continuation, {})` grants as many again. {@link DEFAULT_MAX_STEPS}
   * by default; `Infinity` for no limit.
   */
  maxSteps?: number;
  /**
   * Seal every continuation this agent emits (suspensions, and the state a failure carries), and
   * refuse to resume one that is unsealed (`SEAL_MISSING`) or altered (`SEAL_MISMATCH`), before
   * anything runs. `previous` secrets still verify, for rotation. Sub-agents resumed by this
   * agent's own runs, and records a store or checkpoint log marks as its own, are not re-checked.
   *
   * @example
   * ```ts
   * createContinuableAgent({ name, model, tools, seal: { secret: process.env.SEAL_SECRET!, keyId: '2026-12' } });
   * ```
   */
  seal?: SealConfig;
}

/** A {@link ContinuableAgent} made by the engine, which can also stream. */
export interface EngineAgent {
  readonly name: string;
  readonly framework: string;
  readonly description?: string;
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  run(input: string | Message[], options?: RunOptions): Promise<RunResult<string>>;
  resume(
    continuation: Continuation | string,
    decisions?: Decisions,
    options?: RunOptions,
  ): Promise<RunResult<string>>;
  checkDecisions(
    continuation: Continuation,
    decisions: Decisions,
    options?: Pick<RunOptions, 'allowChangedAgent'>,
  ): Promise<void>;
  /** Run or resume while yielding text deltas and tool events; the last event carries the result. */
  stream(input: StreamInput, options?: RunOptions): AgentStream<string>;
  /** The fingerprint continuations of this agent carry. */
  fingerprint(): Promise<string>;
  /** Marks an agent whose `stream` a streaming parent uses for its sub-agent runs. */
  readonly [STREAMS_RUNS]: true;
}

/**
 * Build a continuable agent from a model port and tools.
 *
 * @example
 * ```ts
 * const agent = createContinuableAgent({
 *   name: 'accounts',
 *   instructions: 'You help with bank accounts.',
 *   model,                       // a ModelPort: an adapter's, or a scripted one in tests
 *   tools: [lookupAccount, transfer],
 * });
 * const result = await agent.run('Send 50 EUR to Bob');
 * ```
 */
export function createContinuableAgent(config: ContinuableAgentConfig): EngineAgent {
  const framework = config.framework ?? 'core';
  const tools = new Map<string, ToolDefinition>();
  for (const tool of config.tools ?? []) {
    if (tools.has(tool.name))
      throw new ContinuationError('INVALID_OPERATION', `Two tools are named "${tool.name}".`);
    checkToolPolicy(tool);
    tools.set(tool.name, tool);
  }
  const specs: ToolSpec[] = [...tools.values()].map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema,
  }));
  const shell = createAgentShell({
    name: config.name,
    framework,
    instructions: config.instructions,
    tools,
    suspendWhen: config.suspendWhen,
    maxSteps: config.maxSteps,
    onReject: config.onReject,
    seal: config.seal,
  });
  const { predicates } = shell;

  async function start(
    input: string | Message[],
    options: RunOptions,
    sink?: StreamSink,
  ): Promise<RunResult<string>> {
    return drive(await shell.start(input, options), decisionsByCall({}), false, options, sink);
  }

  async function resume(
    input: Continuation | string,
    decisions: Decisions = {},
    options: RunOptions = {},
    sink?: StreamSink,
  ): Promise<RunResult<string>> {
    const opened = await shell.open(input, decisions, options);
    return (
      shell.rejection(opened) ?? drive(opened.state, opened.decisions, opened.fromPredicate, options, sink)
    );
  }

  /** One segment of a run, its model calls through the port's segment when the port opens one. */
  async function drive(
    state: RunState,
    decisions: DecisionsByCall,
    skipPredicates: boolean,
    options: RunOptions,
    sink: StreamSink | undefined,
  ): Promise<RunResult<string>> {
    const segment = config.model.openSegment?.();
    try {
      return await steps(segment ?? config.model, state, decisions, skipPredicates, options, sink);
    } finally {
      segment?.close();
    }
  }

  async function steps(
    model: ModelSegment | ModelPort,
    state: RunState,
    decisions: DecisionsByCall,
    skipPredicates: boolean,
    options: RunOptions,
    sink: StreamSink | undefined,
  ): Promise<RunResult<string>> {
    const emit = async (event: RunEvent) => {
      sink?.event(event);
      await options.onEvent?.(event);
    };
    const extra = toPredicates(options.suspendWhen);
    // What reaches sub-agents: the options of this run, with the predicates they inherit.
    const inherited = [...predicates, ...extra].filter((predicate) => predicate.inherited);
    const childOptions: RunOptions = inherited.length > 0 ? { ...options, suspendWhen: inherited } : options;
    const observe = async (event: RunEvent) => {
      await options.onEvent?.(event);
    };
    // The state of sub-agents still running, by call: every checkpoint holds all of them, so the
    // checkpoint one sub-agent takes keeps its siblings' progress too.
    const live = new Map<string, PendingEntry | (() => PendingEntry)>();
    const checkpoint = () => {
      const overrides = new Map<string, PendingEntry>();
      for (const [id, entry] of live) overrides.set(id, typeof entry === 'function' ? entry() : entry);
      return snapshot(state, { type: 'checkpoint' }, { overrides });
    };
    // Tool-call ids the transcript holds, kept as model calls add theirs (nothing else adds any).
    const taken = toolCallIdsIn(state.messages);
    let turnDecisions = decisions;
    // What the port validated in the model call just made, for the turn that follows it only.
    let validated: ReadonlyMap<ToolCallPart, unknown> | undefined;
    for (;;) {
      const calls = toolCallsOf(state.messages[state.messages.length - 1]);
      if (calls.length > 0) {
        await settleTurn(
          {
            state,
            tools,
            toolErrors: config.toolErrors ?? 'model',
            options: childOptions,
            emit,
            observe,
            checkpoint,
            live,
            ...(sink ? { forward: (event: AgentStreamEvent<unknown>) => sink.forward(event) } : {}),
            ...(validated ? { validated } : {}),
          },
          calls,
          turnDecisions,
        );
        turnDecisions = decisionsByCall({});
        validated = undefined;
        live.clear();
        if (state.pending.size > 0) {
          const dated = withDeadlines(
            state.pending.values(),
            state.agent.name,
            (name) => tools.get(name)?.deadline,
            options.deadlines,
            Date.now(),
          );
          if (dated) for (const [id, entry] of dated) state.pending.set(id, entry);
          return shell.suspend(snapshot(state, suspendReason(state)), emit);
        }
        state.messages.push({
          role: 'tool',
          content: calls.map((call) => {
            const done = state.done.get(call.toolCallId)!;
            return {
              type: 'tool-result' as const,
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              output: done.output,
              ...(done.isError ? { isError: true } : {}),
              ...(done.rejected ? { rejected: true as const } : {}),
            };
          }),
        });
        state.done.clear();
      }

      if (!skipPredicates && (predicates.length > 0 || extra.length > 0)) {
        const context = {
          runId: state.runId,
          step: state.step,
          usage: state.usage,
          messages: state.messages,
          segment: state.segment,
          now: Date.now(),
        };
        const fired: string[] = [];
        for (const predicate of [...predicates, ...extra])
          if (await predicate.check(context)) fired.push(predicate.name);
        if (fired.length > 0)
          return shell.suspend(snapshot(state, { type: 'predicate', predicates: fired }), emit);
      }
      skipPredicates = false;

      const request: ModelRequest = {
        ...(config.instructions === undefined ? {} : { instructions: config.instructions }),
        messages: state.messages,
        tools: specs,
        step: state.step,
        ...(options.signal ? { signal: options.signal } : {}),
      };
      // Outside the try: a refusal (a lost lease) is not the model's failure.
      await options.beforeStart?.({ type: 'model-call', runId: state.runId, step: state.step });
      let response: ModelResponse;
      try {
        response =
          sink && model.stream ? await sink.model(model.stream(request)) : await model.generate(request);
      } catch (error) {
        throw new ModelCallError(checkpoint(), error);
      }
      state.step += 1;
      state.usage = addUsage(state.usage, response.usage);
      // Repeated or empty tool-call ids would make two calls one action: each call runs once.
      const message = jsonArgs(uniqueToolCallIds(response.message, taken));
      state.messages.push(message);
      for (const call of toolCallsOf(message)) taken.add(call.toolCallId);
      validated = response.validatedArgs;
      await emit({
        type: 'model-call',
        runId: state.runId,
        step: state.step,
        message,
        usage: state.usage,
        checkpoint,
      });

      if (toolCallsOf(message).length === 0) {
        const output = textOf(message);
        await emit({
          type: 'complete',
          runId: state.runId,
          output,
          messages: state.messages,
          usage: state.usage,
        });
        return {
          status: 'completed',
          output,
          messages: state.messages,
          runId: state.runId,
          usage: state.usage,
          step: state.step,
          decisions: state.audit,
        };
      }
    }
  }

  return {
    name: config.name,
    framework,
    ...(config.description === undefined ? {} : { description: config.description }),
    tools,
    run: (input, options = {}) => shell.sealed(start(input, options)),
    resume: (continuation, decisions, options = {}) => shell.sealed(resume(continuation, decisions, options)),
    // A parent checks a child's decisions through this before anything runs: a child that cannot
    // resume (changed, renamed) must fail there, not later inside the parent's tool call.
    checkDecisions: shell.checkDecisions,
    fingerprint: shell.fingerprint,
    [STREAMS_RUNS]: true,
    stream: (input, options = {}) =>
      createStream<string>((sink) =>
        shell.dispatch(
          input,
          (fresh) => start(fresh, options, sink),
          (continuation, decisions) => resume(continuation, decisions, options, sink),
        ),
      ),
  };
}

/** How the engine feeds a stream: run events, and model deltas when the port streams. */
export interface StreamSink {
  event(event: RunEvent): void;
  model(events: AsyncIterable<import('./model').ModelStreamEvent>): Promise<ModelResponse>;
  forward(event: AgentStreamEvent<unknown>): void;
}

/**
 * A model's tool-call arguments that are not JSON the format can hold (nested past its depth
 * limit) would make the run's continuation unreadable: they become `null`, which the tool's
 * schema refuses, so the model is told and nothing runs with them.
 */
function jsonArgs(message: AssistantMessage): AssistantMessage {
  if (typeof message.content === 'string') return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-call') return part;
    try {
      checkJson(part.args, { code: 'INVALID_ARGS', what: 'Tool-call arguments' });
      return part;
    } catch {
      changed = true;
      return { ...part, args: null };
    }
  });
  return changed ? { ...message, content } : message;
}

/**
 * Why a turn with pending calls stops: the kinds it waits for; or, when it waits only for
 * sub-agents that stopped by a predicate, those predicates, each named with the path of the
 * sub-agent (`call_1/everyTurns(1)`), so workers resume it as they resume the root's own.
 */
function suspendReason(state: RunState): SuspendReason {
  const entries = [...state.pending.values()];
  const stopped = entries.flatMap((entry) =>
    entry.kind === 'agent' && entry.child.suspendedBy.type === 'predicate'
      ? [{ at: actionId([entry.toolCallId]), names: entry.child.suspendedBy.predicates }]
      : [],
  );
  if (stopped.length === entries.length) {
    return {
      type: 'predicate',
      predicates: stopped.flatMap(({ at, names }) => names.map((name) => `${at}/${name}`)),
    };
  }
  return { type: 'actions', kinds: [...new Set(entries.map((entry) => entry.kind))] };
}
