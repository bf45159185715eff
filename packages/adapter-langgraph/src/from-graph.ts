/**
 * `fromGraph`: an existing compiled LangGraph graph (a custom `StateGraph` with a messages channel,
 * `createReactAgent`, or langchain's `createAgent`) as a `ContinuableAgent`, with no change to the
 * graph. Each run uses a private in-memory checkpointer; a suspension carries what that
 * checkpointer holds, so a resume needs no external store, thread or process. Given the app's
 * checkpointer (or compiled with one), a run also lives on the app's thread: see
 * {@link FromGraphOptions.checkpointer}.
 */
import {
  type ContinuableAgent,
  type Continuation,
  ContinuationError,
  checkAllowed,
  type Decision,
  type Decisions,
  type JsonObject,
  type Message,
  type RunOptions,
  type SealConfig,
  type SuspendedResult,
  type SuspendWhen,
  type ToolDefinition,
  toolCallsOf,
} from '@agent-continuations/core';
import { createAgentShell, queuedRun, type RunState } from '@agent-continuations/core/adapter-kit';
import { BaseCheckpointSaver, Command, DeltaChannel, type MemorySaver } from '@langchain/langgraph';
import { type Children, childrenOf } from './children';
import { actionsById, splitDecisions } from './decision-routing';
import { type ChunkSink, type GraphStream, SINK, type StreamMode } from './drive-graph';
import { type GraphState, importState, newestRootId, rootCheckpointId } from './graph-state';
import { type InterruptResume, type OwnResume, ownResume, resumeValues } from './interrupts';
import { toLangChainMessages } from './messages';
import { upgradePolicies } from './policies';
import { PrivateSaver, ThreadSaver } from './private-saver';
import {
  type GraphHandle,
  type GraphRunOptions,
  type GraphRunResult,
  runSegment,
  type SegmentInput,
} from './run-graph';
import { toolDefinition } from './tool-definition';
import { guardToolNodes } from './tool-guard';

/** Options of {@link fromGraph}. */
export interface FromGraphOptions {
  /** The agent's name, recorded in its continuations. */
  name: string;
  description?: string;
  /** Predicates checked at LangGraph's step boundaries, before a model call; when one fires the run suspends. */
  suspendWhen?: SuspendWhen | readonly SuspendWhen[];
  /** The state key of the messages channel; `messages` by default. */
  messagesKey?: string;
  /**
   * The node that calls the model, for resuming a continuation made by another adapter while
   * tool calls wait; found by name (`agent`, `model_request`, `model`, `llm`, `chatbot`, `call_model`) when left out.
   */
  modelNode?: string;
  /**
   * The graph's system prompt, when it should count in the agent's fingerprint: LangGraph graphs
   * do not expose their prompt, so a changed prompt is detected on resume (`AGENT_CHANGED`) only
   * when given here. Tool names and schemas always count.
   */
  instructions?: string;
  /**
   * Seal every continuation this agent emits (suspensions, and the last good state of a failure)
   * and refuse, on resume, one that is unsealed (`SEAL_MISSING`) or altered (`SEAL_MISMATCH`)
   * before anything runs; `previous` secrets still verify.
   *
   * @example
   * ```ts
   * fromGraph(graph, { name: 'ops', seal: { secret: process.env.SEAL_SECRET!, keyId: '2026-12' } });
   * ```
   */
  seal?: SealConfig;
  /**
   * LangGraph's step budget (supersteps) for each `run` or `resume`; a run's own `recursionLimit`
   * option wins. Reaching it suspends the run (predicate `recursionLimit`) from its last
   * checkpoint, and `resume(continuation, {})` goes on. Unbounded when left out: `maxSteps` bounds runs.
   */
  recursionLimit?: number;
  /**
   * The most model calls one `run` or `resume` makes, as in every adapter; then the run suspends
   * (predicate `maxSteps`), and `resume(continuation, {})` grants as many again. The core's
   * `DEFAULT_MAX_STEPS` (100) by default; `Infinity` for no limit.
   *
   * @example
   * ```ts
   * const agent = fromGraph(graph, { name: 'researcher', maxSteps: 20 });
   * const result = await agent.run('Find the cheapest flight');
   * if (result.status === 'suspended' && result.continuation.suspendedBy.type === 'predicate') {
   *   await agent.resume(result.continuation, {}); // 20 model calls more
   * }
   * ```
   */
  maxSteps?: number;
  /** On a rejected call: tell the model and go on (default), or end the run as rejected. */
  onReject?: 'continue' | 'end';
  /**
   * The resume value a plain `interrupt()` of this graph gets for a decision (payloads this
   * adapter does not know: not its own wrappers', the middleware's or a `HumanInterrupt`). By
   * default an input's value as is, and a reject as `{ type: 'reject', rejected: true, reason?, message }`.
   *
   * @example
   * ```ts
   * fromGraph(graph, {
   *   name: 'editor',
   *   interruptResume: (decision) => (decision.type === 'reject' ? { action: 'cancel' } : { action: 'continue' }),
   * });
   * ```
   */
  interruptResume?: InterruptResume;
  /**
   * Thread mode: the app's own checkpointer (`MemorySaver`, `SqliteSaver`, `PostgresSaver`, ...),
   * which every run and resume writes its checkpoints to, on the app's thread, as LangGraph
   * would; the graph's own compiled checkpointer when left out. The app's `getState` and
   * `getStateHistory` show the run, tools see the app's `thread_id`, and a run on a thread goes
   * on from the thread's newest checkpoint. A continuation stays a self-contained export of the
   * thread: it resumes in another process, in another framework's adapter, or after the app's
   * saver is gone, and resuming it writes back to its thread. Pass `false` to run on a private
   * saver only, even when the graph was compiled with one.
   *
   * @example
   * ```ts
   * const checkpointer = SqliteSaver.fromConnString('threads.db');
   * const agent = fromGraph(createAgent({ model, tools, checkpointer }), { name: 'ops' });
   * const first = await agent.run('Restart web-1', { configurable: { thread_id: 'ticket-42' } });
   * await graph.getState({ configurable: { thread_id: 'ticket-42' } }); // the waiting run
   * ```
   */
  checkpointer?: BaseCheckpointSaver | false;
  /**
   * The thread a thread-mode run writes to, for every run of this agent. By default the run's
   * `configurable.thread_id`; on resume, the thread the continuation was made on; otherwise the
   * run id, so runs never share a thread by accident.
   */
  threadId?: string;
}

/** Options of a wrapped graph's `stream`: those of `run` and `resume`, and LangGraph's stream settings. */
export interface GraphStreamOptions extends GraphRunOptions {
  /** LangGraph's stream mode, or several (then each chunk is `[mode, chunk]`); `values` by default. */
  streamMode?: StreamMode | StreamMode[];
  /** Subgraphs' chunks too, each prefixed with its namespace, as LangGraph does. */
  subgraphs?: boolean;
}

/**
 * A wrapped graph: a {@link ContinuableAgent} whose runs are LangGraph runs. `run` and `resume`
 * also take LangGraph's run config (`configurable`, `context`), and a completed result also
 * carries the graph's final `state` and its `structuredResponse`.
 */
export interface GraphAgent extends ContinuableAgent<string | Message[], string> {
  run(input: string | Message[], options?: GraphRunOptions): Promise<GraphRunResult>;
  resume(
    continuation: Continuation | string,
    decisions?: Decisions,
    options?: GraphRunOptions,
  ): Promise<GraphRunResult>;
  /**
   * Run (an input) or resume (`{ continuation, decisions }`) while streaming LangGraph's own
   * chunks, as `graph.stream` yields them for `streamMode` (`values` by default; a list gives
   * `[mode, chunk]`; `subgraphs: true` prefixes the namespace). Sub-agents run by `agentTool`
   * stream their steps and tool results in the `custom` mode, with `path`. Await `result` for the
   * run's result (a suspension included).
   *
   * @example
   * ```ts
   * const stream = agent.stream('Restart web-1', { streamMode: 'updates' });
   * for await (const update of stream) console.log(update);
   * const result = await stream.result; // completed, or suspended with a continuation
   * ```
   */
  stream(
    input: string | Message[] | { continuation: Continuation | string; decisions?: Decisions },
    options?: GraphStreamOptions,
  ): GraphStream<GraphRunResult>;
  /** The fingerprint continuations of this agent carry: its tool names and schemas. */
  fingerprint(): Promise<string>;
  /**
   * A continuation of a thread paused natively (see {@link continuationFromThread}).
   *
   * @example
   * ```ts
   * const { continuation, actions } = await agent.fromThread('ticket-42');
   * ```
   */
  fromThread(threadId: string, options?: FromThreadOptions): Promise<SuspendedResult>;
}

/** Options of {@link continuationFromThread}. */
export interface FromThreadOptions {
  /** The checkpointer the thread is saved in; the agent's (or its graph's) by default. */
  checkpointer?: BaseCheckpointSaver;
  /** The continuation's run id; a new one by default. */
  runId?: string;
  /** Metadata the continuation carries. */
  metadata?: JsonObject;
}

/**
 * Turn a thread that a LangGraph app paused before it adopted continuations (by `interrupt()`,
 * the human-in-the-loop middleware, several parallel interrupts, or a static breakpoint) into a
 * continuation: its actions are the thread's pending interrupts, keyed by tool-call id where a
 * tool call asked. Nothing runs. Resuming the continuation goes on on the thread, in any process,
 * and writes back to it; `NOT_FOUND` when the saver holds no such thread, `INVALID_OPERATION` when
 * the thread is not paused.
 *
 * @example
 * ```ts
 * const agent = fromGraph(graph, { name: 'ops', checkpointer });
 * const { continuation, actions } = await continuationFromThread(agent, 'ticket-42');
 * await runtime.resume(continuation, { [actions[0]!.id]: { type: 'approve', by: 'ann' } });
 * ```
 */
export function continuationFromThread(
  agent: GraphAgent,
  threadId: string,
  options?: FromThreadOptions,
): Promise<SuspendedResult> {
  return agent.fromThread(threadId, options);
}

type Wrappable =
  | GraphHandle
  | { graph: GraphHandle; invoke: GraphHandle['invoke']; stream?: GraphHandle['stream'] };

const MODEL_NODES = ['agent', 'model_request', 'model', 'llm', 'chatbot', 'call_model'];

/**
 * Wrap a compiled graph as a continuable agent.
 *
 * @example
 * ```ts
 * const graph = createReactAgent({ llm, tools: requireApproval(tools, ['restart_service']), version: 'v2' });
 * const ops = fromGraph(graph, { name: 'ops' });
 * const first = await ops.run('Restart web-1');
 * if (first.status === 'suspended') {
 *   const saved = serializeContinuation(first.continuation); // any store, any process
 *   const done = await ops.resume(saved, { [first.actions[0]!.id]: { type: 'approve', by: 'ann' } });
 * }
 * ```
 */
export function fromGraph(graph: Wrappable, options: FromGraphOptions): GraphAgent {
  const handle: GraphHandle = 'nodes' in graph ? graph : graph.graph;
  const source = graph as { stream?: GraphHandle['stream'] };
  const runner = {
    invoke: (input: unknown, config: Record<string, unknown>) => graph.invoke(input, config),
    ...(source.stream
      ? { stream: (input: unknown, config: Record<string, unknown>) => source.stream!(input, config) }
      : {}),
  };
  const toolNodes = guardToolNodes(handle);
  const nodeNames = Object.keys(handle.nodes).sort();
  const messagesKey = options.messagesKey ?? 'messages';
  const channels = (handle as { channels?: Record<string, unknown> }).channels ?? {};
  if (!(messagesKey in channels)) {
    // Input and output go through the messages channel: without it a run would drop its input.
    const known = Object.keys(channels).filter((name) => !name.startsWith('__') && !name.includes(':'));
    throw new ContinuationError(
      'INVALID_OPERATION',
      `The graph has no "${messagesKey}" channel, which fromGraph reads and writes the conversation through (its channels: ${known.join(', ') || 'none'}). Add a messages channel (e.g. MessagesAnnotation), or name yours with the \`messagesKey\` option.`,
      { details: { messagesKey, channels: known } },
    );
  }
  const keepHistory = Object.values(channels).some((channel) => channel instanceof DeltaChannel);
  const tools = new Map<string, ToolDefinition>();
  for (const node of toolNodes.values())
    for (const lc of node.tools ?? []) tools.set(lc.name, toolDefinition(lc));
  // The rules every adapter shares: step limit, drift, seal, decision checks, onReject.
  const shell = createAgentShell({
    name: options.name,
    framework: 'langgraph',
    instructions: options.instructions,
    tools,
    suspendWhen: options.suspendWhen,
    maxSteps: options.maxSteps,
    onReject: options.onReject,
    seal: options.seal,
    upgrade: upgradePolicies,
    // A call the model made needs a tool of that name here (other entries wait on nodes or subgraphs).
    canSettle: (entry, continuation) =>
      !toolCallsOf(continuation.messages.at(-1)).some((call) => call.toolCallId === entry.toolCallId) ||
      tools.has(entry.toolName),
  });
  const modelNode = options.modelNode ?? MODEL_NODES.find((name) => name in handle.nodes);
  const compiled = (handle as { checkpointer?: unknown }).checkpointer;
  const target =
    options.checkpointer === false
      ? undefined
      : (options.checkpointer ?? (compiled instanceof BaseCheckpointSaver ? compiled : undefined));

  /** The thread of a run: the option's, the run's `configurable`, the continuation's, or the run id. */
  const threadOf = (runOptions: GraphRunOptions, runId: string, made?: string): string => {
    const given = options.threadId ?? runOptions.configurable?.thread_id ?? made ?? runId;
    if (typeof given !== 'string' || given.length === 0) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `A LangGraph thread id is a non-empty string (got ${JSON.stringify(given)}).`,
        { details: { option: 'thread_id' } },
      );
    }
    return given;
  };
  const saverFor = (): PrivateSaver =>
    target ? new ThreadSaver(target, keepHistory) : new PrivateSaver(keepHistory);

  const segment = (
    saver: MemorySaver,
    threadId: string,
    input: unknown,
    extra: Partial<SegmentInput> = {},
  ): SegmentInput => ({
    saver,
    threadId,
    thread: saver instanceof ThreadSaver,
    input,
    children: childrenOf(),
    predicates: shell.predicates,
    skipFirstCheck: false,
    messagesKey,
    nodeNames,
    keepHistory,
    foreignResume: modelNode !== undefined,
    suspend: shell.suspend,
    ...(options.recursionLimit === undefined ? {} : { recursionLimit: options.recursionLimit }),
    ...extra,
  });

  async function run(input: string | Message[], runOptions: GraphRunOptions = {}): Promise<GraphRunResult> {
    refuseState(runOptions);
    const state = await shell.start(input, runOptions);
    const messages = toLangChainMessages(state.messages);
    const threadId = threadOf(runOptions, state.runId);
    const saver = saverFor();
    // On the app's thread, the run goes on from the thread's newest checkpoint, as LangGraph's does.
    if (saver instanceof ThreadSaver) await saver.load(threadId, waitingNamespaces(saver.target, threadId));
    return runSegment(
      runner,
      handle,
      state,
      segment(saver, threadId, { [messagesKey]: messages }),
      runOptions,
    );
  }

  /** The checkpoint namespaces of the thread's waiting subgraphs, as `source` holds them. */
  function waitingNamespaces(source: BaseCheckpointSaver, threadId: string) {
    return async (root: { pendingWrites?: Array<[string, string, unknown]> }): Promise<string[]> => {
      if (!root.pendingWrites?.some(([, channel]) => channel === '__interrupt__')) return [];
      const snapshot = await handle.getState(
        { configurable: { thread_id: threadId, __pregel_checkpointer: source } },
        { subgraphs: true },
      );
      const found: string[] = [];
      const walk = (tasks: ReadonlyArray<{ state?: unknown }>) => {
        for (const task of tasks) {
          const sub = task.state as
            | { config?: { configurable?: { checkpoint_ns?: string } }; tasks?: Array<{ state?: unknown }> }
            | undefined;
          const ns = sub?.config?.configurable?.checkpoint_ns;
          if (typeof ns === 'string' && ns !== '') found.push(ns);
          if (sub?.tasks) walk(sub.tasks);
        }
      };
      walk(snapshot.tasks as ReadonlyArray<{ state?: unknown }>);
      return found;
    };
  }

  /**
   * A continuation of a thread the app's saver holds paused (by `interrupt()`, the
   * human-in-the-loop middleware, or a static breakpoint): its actions are the thread's pending
   * interrupts, and resuming it goes on on the thread.
   */
  async function fromThread(
    threadId: string,
    threadOptions: FromThreadOptions = {},
  ): Promise<SuspendedResult> {
    const source = threadOptions.checkpointer ?? target;
    if (!source) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        'continuationFromThread needs the checkpointer the thread is saved in: pass it, or wrap a graph compiled with one.',
      );
    }
    const saver = new ThreadSaver(source, keepHistory);
    const newest = await saver.load(threadId, waitingNamespaces(source, threadId));
    if (newest === undefined) {
      throw new ContinuationError('NOT_FOUND', `The checkpointer holds no thread "${threadId}".`, {
        details: { threadId },
      });
    }
    const state = await shell.start([], {
      ...(threadOptions.runId === undefined ? {} : { runId: threadOptions.runId }),
      ...(threadOptions.metadata === undefined ? {} : { metadata: threadOptions.metadata }),
    });
    const result = await runSegment(
      runner,
      handle,
      state,
      segment(saver, threadId, null, { inspect: true }),
      {},
    );
    if (result.status !== 'suspended') {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `The thread "${threadId}" is not paused: it waits for no interrupt and has no step left to run.`,
        { details: { threadId } },
      );
    }
    return result;
  }

  /** In thread mode: whether the continuation's thread went on without it (a native resume). */
  async function movedOn(continuation: Continuation): Promise<boolean> {
    if (!target || continuation.agent.framework !== 'langgraph' || continuation.state === undefined)
      return false;
    const { thread: made, checkpoints } = continuation.state as { thread?: unknown; checkpoints?: unknown };
    // Views ask this of every listed record: the checkpoint ids are read as they are, not imported
    // (a state too malformed to read them from is refused when it is resumed).
    if (!Array.isArray(checkpoints)) return false;
    const threadId = options.threadId ?? (typeof made === 'string' ? made : continuation.runId);
    const ours = newestRootId(checkpoints.filter(isCheckpointRef));
    return (await movedFrom(new ThreadSaver(target, keepHistory), threadId, ours)) !== undefined;
  }

  async function resume(
    raw: Continuation | string,
    decisions: Decisions = {},
    runOptions: GraphRunOptions = {},
  ): Promise<GraphRunResult> {
    refuseState(runOptions);
    // The resume preamble: the seal, drift at every depth, the decisions against what is pending.
    const opened = await shell.open(raw, decisions, runOptions);
    const { continuation, state: context } = opened;
    const native = continuation.agent.framework === 'langgraph' && continuation.state !== undefined;
    const made = native ? (continuation.state as { thread?: unknown }).thread : undefined;
    const threadId = threadOf(runOptions, continuation.runId, typeof made === 'string' ? made : undefined);
    const saver = saverFor();
    const imported = native
      ? importState(continuation.state!, threadId, nodeNames, keepHistory, continuation, saver)
      : undefined;
    if (imported && saver instanceof ThreadSaver) await refuseMovedThread(saver, threadId, imported.state);
    const refs = imported?.state.interrupts ?? {};
    const { direct, children } = splitDecisions(continuation, decisions, refs);
    const rejected = shell.rejection(opened);
    if (rejected) return rejected;
    const { fromPredicate } = opened;
    if (imported) {
      const values = resumeValues(direct, refs, actionsById(continuation), options.interruptResume);
      const input = Object.keys(values).length > 0 ? new Command({ resume: values }) : null;
      return runSegment(
        runner,
        handle,
        context,
        segment(imported.saver, threadId, input, { children, skipFirstCheck: fromPredicate }),
        runOptions,
      );
    }
    return resumeForeign(
      continuation,
      context,
      new Map(Object.entries(decisions)),
      { saver, threadId, children, fromPredicate },
      runOptions,
    );
  }

  /**
   * A continuation made by another adapter (or without state): rebuild the graph's state from the
   * neutral messages, run, and answer the decided actions as the graph asks for them again.
   */
  async function resumeForeign(
    continuation: Continuation,
    context: RunState,
    decided: Map<string, Decision>,
    on: { saver: PrivateSaver; threadId: string; children: Children; fromPredicate: boolean },
    runOptions: GraphRunOptions,
  ): Promise<GraphRunResult> {
    const { saver, threadId, children, fromPredicate } = on;
    const messages = toLangChainMessages(ownExtrasOnly(continuation.messages));
    const waiting = toolCallsOf(continuation.messages.at(-1)).length > 0;
    let input: unknown = { [messagesKey]: messages };
    if (waiting) {
      if (!modelNode) {
        throw new ContinuationError(
          'STATE_MISMATCH',
          'Cannot tell which node of this graph calls the model, to resume the waiting tool calls; pass `modelNode` to fromGraph.',
        );
      }
      await handle.updateState(
        { configurable: { thread_id: threadId, __pregel_checkpointer: saver } },
        { [messagesKey]: messages },
        modelNode,
      );
      input = null;
    }
    // Decisions for sub-agents made by agentTool reach them through `children`, and this
    // adapter's own approval and input wrappers take theirs from `answers` (each once, so a task
    // that LangGraph re-runs does not apply it twice); the rest are answered when the graph asks.
    const unanswered = new Map(decided);
    const answers = new Map<string, OwnResume>();
    for (const entry of continuation.pending) {
      const decision = decided.get(entry.toolCallId);
      if (decision && entry.kind !== 'agent') answers.set(entry.toolCallId, ownResume(decision));
    }
    const given = [...answers.keys()];
    let result = await runSegment(
      runner,
      handle,
      context,
      segment(saver, threadId, input, { children, answers, skipFirstCheck: fromPredicate }),
      runOptions,
    );
    // Each round answers the actions the graph asked for again; it ends when none is decided.
    while (result.status === 'suspended') {
      // A decision a wrapper took is spent: a later question of the same call is a new one.
      for (const id of given) if (!answers.has(id)) unanswered.delete(id);
      const state = result.continuation.state as unknown as GraphState;
      const entries = actionsById(result.continuation);
      const now = new Map([...unanswered].filter(([id]) => entries.has(id) && id in state.interrupts));
      if (now.size === 0) break;
      for (const id of now.keys()) unanswered.delete(id);
      // The graph's policy is known only now that it asked: still before the call runs.
      for (const [id, decision] of now) checkAllowed(entries.get(id)!, decision);
      const values = resumeValues(now, state.interrupts, entries, options.interruptResume);
      const next: RunState = {
        ...context,
        step: result.continuation.step,
        usage: result.continuation.usage,
        done: new Map(result.continuation.done.map((entry) => [entry.toolCallId, entry])),
      };
      result = await runSegment(
        runner,
        handle,
        next,
        segment(saver, threadId, new Command({ resume: values }), { children, answers }),
        runOptions,
      );
    }
    return result;
  }

  function stream(
    input: string | Message[] | { continuation: Continuation | string; decisions?: Decisions },
    streamOptions: GraphStreamOptions = {},
  ): GraphStream<GraphRunResult> {
    const { streamMode = 'values', subgraphs = false, ...runOptions } = streamOptions;
    return queuedRun((push) => {
      const sink: ChunkSink = {
        modes: Array.isArray(streamMode) ? streamMode : [streamMode],
        single: !Array.isArray(streamMode),
        subgraphs,
        push,
      };
      const withSink = { ...runOptions, [SINK]: sink };
      return shell.dispatch(
        input,
        (fresh) => run(fresh, withSink),
        (continuation, decisions) => resume(continuation, decisions, withSink),
      );
    });
  }

  return {
    name: options.name,
    framework: 'langgraph',
    ...(options.description === undefined ? {} : { description: options.description }),
    run: (input, runOptions) => shell.sealed(run(input, runOptions)),
    resume: (raw, decisions, runOptions) => shell.sealed(resume(raw, decisions, runOptions)),
    stream,
    // A parent checks a child's decisions through this before anything runs.
    checkDecisions: shell.checkDecisions,
    upgrade: upgradePolicies,
    movedOn,
    fingerprint: shell.fingerprint,
    fromThread: (threadId, threadOptions) => shell.sealed(fromThread(threadId, threadOptions)),
  };
}

/**
 * A continuation resumes its thread only from where the thread is: when the app's saver holds a
 * newer checkpoint (the thread was resumed natively, or this continuation was resumed already),
 * resuming it would run its decided calls again, so it is refused before anything runs.
 */
/** The thread's newest checkpoint when it is newer than the continuation's own (`ours`): it moved on. */
async function movedFrom(
  saver: ThreadSaver,
  threadId: string,
  ours: string | undefined,
): Promise<{ ours: string; newest: string } | undefined> {
  const newest = await saver.newest(threadId);
  return ours !== undefined && newest !== undefined && newest > ours ? { ours, newest } : undefined;
}

async function refuseMovedThread(saver: ThreadSaver, threadId: string, state: GraphState): Promise<void> {
  const moved = await movedFrom(saver, threadId, rootCheckpointId(state));
  if (!moved) return;
  const { ours, newest } = moved;
  throw new ContinuationError(
    'STATE_MISMATCH',
    `The thread "${threadId}" has moved on since this continuation was made (its newest checkpoint is ${newest}, the continuation's ${ours}): it was resumed already, natively or from this continuation. Read the thread's state, or make a new continuation of it with continuationFromThread.`,
    { details: { threadId, checkpoint: ours, threadCheckpoint: newest } },
  );
}

/**
 * The core's `state` run option keeps adapter-native data in every continuation; this adapter's
 * continuations carry the graph's own checkpoints there, so it is refused before anything runs.
 */
function refuseState(runOptions: RunOptions): void {
  if (runOptions.state === undefined) return;
  throw new ContinuationError(
    'INVALID_OPERATION',
    "fromGraph does not take the `state` run option: a LangGraph continuation's `state` holds the graph's own checkpoints. Keep your data in the graph's channels, or in `metadata`.",
    { details: { option: 'state' } },
  );
}

/**
 * Another adapter's provider extras have no LangChain form (chat models would send them to the
 * provider as content blocks), so a continuation rebuilt from neutral messages keeps only the
 * `providerMetadata.langchain` entries and drops the rest.
 */
function ownExtrasOnly(messages: readonly Message[]): Message[] {
  const keepOwn = <T extends { providerMetadata?: JsonObject }>(value: T): T => {
    if (!value.providerMetadata) return value;
    const { providerMetadata, ...rest } = value;
    const own = providerMetadata.langchain;
    return (own === undefined ? rest : { ...rest, providerMetadata: { langchain: own } }) as T;
  };
  return messages.map((message) => {
    const top = keepOwn(message);
    if (typeof top.content === 'string') return top;
    const parts = (top.content as Array<{ providerMetadata?: JsonObject }>).map(keepOwn);
    return { ...top, content: parts } as Message;
  });
}

/** A saved checkpoint's namespace and id, as a LangGraph state lists them. */
function isCheckpointRef(value: unknown): value is { ns: string; id: string } {
  const ref = value as { ns?: unknown; id?: unknown } | null;
  return typeof ref === 'object' && ref !== null && typeof ref.ns === 'string' && typeof ref.id === 'string';
}
