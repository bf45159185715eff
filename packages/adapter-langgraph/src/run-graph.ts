/**
 * One segment of a graph run: invoke the graph against a private saver, then read back either the
 * final answer or everything a continuation needs.
 */
import {
  addUsage,
  type CompletedResult,
  type Continuation,
  ContinuationError,
  type DoneEntry,
  emptyUsage,
  type JsonValue,
  ModelCallError,
  type RunEvent,
  type RunOptions,
  type RunResult,
  type SuspendedResult,
  type SuspendPredicate,
  type ToolCallPart,
  type ToolResultPart,
  textOf,
  toolCallsOf,
} from '@agent-continuations/core';
import {
  applyDeadlines,
  markRejections,
  newContinuation,
  type RunState,
  toPredicates,
} from '@agent-continuations/core/adapter-kit';
import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { BaseMessage, ToolMessage } from '@langchain/core/messages';
import {
  GraphRecursionError,
  isGraphDrained,
  isUnknownInterruptError,
  type MemorySaver,
} from '@langchain/langgraph';
import type { Children } from './children';
import { type ChunkSink, childForwarder, driveGraph, type HeldChunk, releaseHeld, SINK } from './drive-graph';
import { exportState } from './graph-state';
import { type LevelReader, mapInterrupts, type OwnResume, type SnapshotLike, toJson } from './interrupts';
import {
  ANSWERS_KEY,
  BEFORE_START_KEY,
  CAPTURE_KEY,
  CHILD_OPTIONS_KEY,
  CHILDREN_KEY,
  DONE_KEY,
  EDITS_KEY,
  EVENTS_KEY,
  MESSAGES_KEY,
  RUN_ID_KEY,
} from './keys';
import { fromLangChainMessages, neutralMessages, toolResultPart } from './messages';
import { PrivateSaver } from './private-saver';
import { ModelCallCounter, PredicateControl } from './step-control';
import { stepObserver } from './step-events';
import { interruptedCall, oneTaskSuspension, pendingReason, raiseChildFailure } from './suspension';
import type { Capture } from './tool-guard';
import { outsideGraph } from './tools';

/** The wrapped graph, as far as the adapter uses it. */
export interface GraphHandle {
  invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>;
  stream?(input: unknown, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: Record<string, unknown>, options?: { subgraphs?: boolean }): Promise<StateSnapshotLike>;
  updateState(config: Record<string, unknown>, values: unknown, asNode?: string): Promise<unknown>;
  nodes: Record<string, { bound?: unknown }>;
  interruptBefore?: unknown;
  interruptAfter?: unknown;
}

interface StateSnapshotLike extends SnapshotLike {
  next: readonly string[];
}

/** Options of a wrapped graph's `run` and `resume`: the core's, plus LangGraph's run config. */
export interface GraphRunOptions extends RunOptions {
  /**
   * LangGraph's `config.configurable` for this call (user ids, thread settings): nodes and tools
   * read it as they do natively. Not stored in the continuation: pass it again to `resume`.
   */
  configurable?: Record<string, unknown>;
  /** LangGraph's runtime `context` for this call (graphs with a `contextSchema`); pass it again to `resume`. */
  context?: unknown;
  /** LangChain callback handlers for this call (tracing, token streaming), beside the adapter's own. */
  callbacks?: readonly BaseCallbackHandler[];
  /** LangChain run tags for this call (tracing). */
  tags?: readonly string[];
  /**
   * LangGraph's step budget (supersteps) for this call, instead of the `fromGraph` option's.
   * Reaching it suspends the run (predicate `recursionLimit`) at its last checkpoint; pass it
   * again to `resume`, which goes on with as many steps again.
   */
  recursionLimit?: number;
}

/** A completed run of a wrapped graph: the core's result plus the graph's own final state. */
export interface GraphCompletedResult extends CompletedResult<string> {
  /** The graph's final state, every channel, as LangGraph's `invoke` returns it. */
  state: Record<string, unknown>;
  /** `createReactAgent`'s (or any graph's) `structuredResponse` channel, with `responseFormat`. */
  structuredResponse?: unknown;
}

/** What a wrapped graph's `run` and `resume` return. */
export type GraphRunResult = GraphCompletedResult | Exclude<RunResult<string>, { status: 'completed' }>;

/** What one segment is started with. */
export interface SegmentInput {
  saver: MemorySaver;
  threadId: string;
  /** Thread mode: the saver also writes to the app's checkpointer, after every step, as LangGraph does. */
  thread?: boolean;
  /** Only read what the saver holds (a thread paused before adoption): the graph does not run. */
  inspect?: boolean;
  /** The graph input: new messages, a `Command`, or null to go on from the saved checkpoint. */
  input: unknown;
  children: Children;
  /** Answers for this adapter's own wrappers that the graph has not asked yet, by tool-call id. */
  answers?: Map<string, OwnResume>;
  predicates: readonly SuspendPredicate[];
  /** Resuming from a predicate suspension: do not fire again at the first boundary. */
  skipFirstCheck: boolean;
  messagesKey: string;
  nodeNames: string[];
  /** The agent shell's suspension: sealed when the agent seals, told to observers first. */
  suspend(made: Continuation, emit?: (event: RunEvent) => unknown): Promise<SuspendedResult>;
  /** The graph can resume from neutral messages (its model node is known). */
  foreignResume?: boolean;
  /** The graph has delta channels: the state carries each namespace's whole checkpoint chain. */
  keepHistory: boolean;
  /** The `fromGraph` option's recursion limit, when given. */
  recursionLimit?: number;
}

/**
 * Run one segment; returns the run's result. A streamed chunk naming LangGraph interrupts is
 * pushed once the segment knows which actions answer them.
 */
export async function runSegment(
  graph: { invoke: GraphHandle['invoke']; stream?: GraphHandle['stream'] },
  handle: GraphHandle,
  context: RunState,
  segment: SegmentInput,
  options: GraphRunOptions,
): Promise<GraphRunResult> {
  const held: HeldChunk[] = [];
  const sink = (options as { [SINK]?: ChunkSink })[SINK];
  let result: GraphRunResult | undefined;
  try {
    result = await driveSegment(graph, handle, context, segment, options, held);
    return result;
  } finally {
    const waiting = result?.status === 'suspended' ? result : undefined;
    const refs = (waiting?.continuation.state as { interrupts?: Record<string, { id: string }> } | undefined)
      ?.interrupts;
    releaseHeld(held, sink, waiting?.actions ?? [], (toolCallId) => refs?.[toolCallId]?.id);
  }
}

async function driveSegment(
  graph: { invoke: GraphHandle['invoke']; stream?: GraphHandle['stream'] },
  handle: GraphHandle,
  context: RunState,
  segment: SegmentInput,
  options: GraphRunOptions,
  held: HeldChunk[],
): Promise<GraphRunResult> {
  const counter = new ModelCallCounter();
  const capture: Capture = {
    results: new Map(),
    interrupted: new Map(),
    byInterrupt: new Map(),
    childFailures: [],
  };
  const done: Record<string, ToolResultPart> = {};
  for (const entry of context.done.values()) done[entry.toolCallId] = doneToPart(entry);
  const startedAt = Date.now();
  const beforeModelCall = () => counter.outstanding.size === 0;
  // The agent's predicates and this call's; the inherited ones (such as onAbort) reach sub-agents.
  const predicates = [...segment.predicates, ...toPredicates(options.suspendWhen)];
  const inherited = predicates.filter((predicate) => predicate.inherited);
  const control = new PredicateControl(predicates, segment.skipFirstCheck, beforeModelCall, () => ({
    runId: context.runId,
    step: context.step + counter.calls,
    usage: addUsage(context.usage, counter.usage),
    // Converted only when a predicate reads them.
    get messages() {
      return fromLangChainMessages(counter.lastInput);
    },
    segment: { startedAt, step: context.step, usage: context.usage },
    now: Date.now(),
  }));
  counter.onSettled = () => control.prepare();
  await control.prepare();
  const configurable: Record<string, unknown> = {
    // The caller's own run config first: the adapter's keys (thread, checkpointer) are its own.
    ...options.configurable,
    thread_id: segment.threadId,
    __pregel_checkpointer: segment.saver,
    // LangGraph's own strict mode as well: a resume value for an interrupt that is not pending fails.
    __pregel_strict_resume: true,
    [DONE_KEY]: done,
    [CHILDREN_KEY]: segment.children,
    ...(segment.answers ? { [ANSWERS_KEY]: segment.answers } : {}),
    [CAPTURE_KEY]: capture,
    [RUN_ID_KEY]: context.runId,
    [MESSAGES_KEY]: segment.messagesKey,
    [EDITS_KEY]: editsOf(context),
    ...(options.beforeStart ? { [BEFORE_START_KEY]: options.beforeStart } : {}),
    [CHILD_OPTIONS_KEY]: {
      ...(options.allowChangedAgent ? { allowChangedAgent: true } : {}),
      ...(inherited.length > 0 ? { suspendWhen: inherited } : {}),
      ...(options.deadlines ? { deadlines: options.deadlines } : {}),
      ...(options.beforeStart ? { beforeStart: options.beforeStart } : {}),
    },
  };
  const sink = (options as { [SINK]?: ChunkSink })[SINK];
  const config = {
    configurable,
    callbacks: [counter, ...(options.callbacks ?? [])],
    ...(options.tags ? { tags: [...options.tags] } : {}),
    control,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.context === undefined ? {} : { context: options.context }),
    // LangGraph's limit only when one is given: otherwise maxSteps bounds the run, as in every adapter.
    recursionLimit: options.recursionLimit ?? segment.recursionLimit ?? Number.MAX_SAFE_INTEGER,
    // The private saver is read only when the segment ends: LangGraph writes it once, on exit
    // (also when a step fails), instead of serializing the whole state after every step. A graph
    // with delta channels keeps its chain, and a stream of checkpoints gets each one.
    ...(perStepCheckpoints(segment, sink) ? {} : { durability: 'exit' }),
  };
  let failure: { error: unknown } | undefined;
  let outOfSteps = false;
  // An observer gets a model-call or tool-result event, with a checkpoint, after each step.
  let latest: Record<string, unknown> = {};
  const stepEvents = options.onEvent && stepObserver(context, counter, segment.messagesKey, options.onEvent);
  const observe = async (values: Record<string, unknown>) => {
    latest = values;
    await stepEvents?.(values);
  };
  const forward = childForwarder(context, counter, capture, segment.messagesKey, sink, options, () => latest);
  if (forward) configurable[EVENTS_KEY] = forward;
  try {
    if (!segment.inspect) {
      await outsideGraph(() =>
        driveGraph(graph, segment.input, config, options.onEvent ? observe : undefined, sink, held),
      );
    }
  } catch (error) {
    if (isUnknownInterruptError(error)) {
      throw new ContinuationError(
        'STATE_MISMATCH',
        `The continuation's LangGraph state does not wait for the interrupts answered: ${error.message}`,
        {
          cause: error,
        },
      );
    }
    // A failed model call keeps the run: the checkpoint before it is the last good state.
    if (counter.isModelError(error)) failure = { error };
    // LangGraph's recursion limit stops the run at its last checkpoint: a suspension, resumable.
    else if (error instanceof GraphRecursionError) outOfSteps = true;
    else if (!isGraphDrained(error)) throw error;
  }
  const stateConfig = { configurable: { thread_id: segment.threadId, __pregel_checkpointer: segment.saver } };
  // Both reads below deserialize the same checkpoints: the private saver does it once for both.
  const read = <T>(fn: () => Promise<T>) =>
    segment.saver instanceof PrivateSaver ? segment.saver.reading(fn) : fn();
  const [snapshot, root] = await read(async () => {
    const state = await handle.getState(stateConfig, { subgraphs: true });
    const tuple = await segment.saver.getTuple({
      configurable: { ...stateConfig.configurable, checkpoint_ns: '' },
    });
    return [state, tuple] as const;
  });
  const step = context.step + counter.calls;
  const usage = addUsage(context.usage, counter.usage);
  // A rejection's tool message is the graph's; the mark says what it was, as every adapter's does.
  const messages = markRejections(neutralMessages(snapshot.values, segment.messagesKey), context.audit);
  if (failure) {
    const continuation = newContinuation(context, {
      messages,
      pending: [],
      done: [],
      step,
      usage,
      suspendedBy: { type: 'checkpoint' },
      state: exportState(
        segment.saver,
        segment.threadId,
        segment.nodeNames,
        {},
        segment.keepHistory,
        [],
        segment.thread ? segment.threadId : undefined,
      ) as never,
    });
    throw new ModelCallError(continuation, failure.error);
  }
  const together = [...capture.interrupted.values()].find((calls) => calls.length > 1);
  if (together) {
    const counted = { step, usage };
    const made = oneTaskSuspension(context, counted, messages, together, capture, done, segment);
    return suspended(made, segment, options);
  }
  const mapped = mapInterrupts(
    snapshot,
    levelReader(context, segment.messagesKey),
    [],
    (task) => sentToolCall(root?.checkpoint)(task) ?? interruptedCall(task, capture),
  );

  if (mapped.pending.length === 0 && snapshot.next.length === 0) {
    const output = textOf(messages.at(-1));
    const result = {
      status: 'completed' as const,
      output,
      messages,
      runId: context.runId,
      usage,
      step,
      decisions: context.audit,
      // The graph's own final state (every channel), as LangGraph's invoke returns it.
      state: snapshot.values,
      ...('structuredResponse' in snapshot.values
        ? { structuredResponse: snapshot.values.structuredResponse }
        : {}),
    };
    await options.onEvent?.({ type: 'complete', runId: context.runId, output, messages, usage });
    return result;
  }

  // Results LangGraph already applied for a turn that still waits go to `done`, as in every adapter.
  let turnAt = messages.length - 1;
  while (turnAt >= 0 && messages[turnAt]!.role !== 'assistant') turnAt--;
  const calls = turnAt >= 0 ? toolCallsOf(messages[turnAt]) : [];
  const applied = new Map<string, ToolResultPart>();
  const pendingIds = new Set(mapped.pending.map((entry) => entry.toolCallId));
  const written = writtenResults(root?.pendingWrites ?? [], segment.messagesKey);
  const trailing = messages.slice(turnAt + 1);
  if (calls.length > 0 && mapped.pending.length > 0 && trailing.every((message) => message.role === 'tool')) {
    messages.splice(turnAt + 1);
    for (const message of trailing) for (const part of message.content) applied.set(part.toolCallId, part);
  }
  const doneEntries: DoneEntry[] = [];
  for (const call of calls) {
    if (pendingIds.has(call.toolCallId)) continue;
    const message = written.get(call.toolCallId) ?? capture.results.get(call.toolCallId);
    const part = applied.get(call.toolCallId) ?? (message ? toolResultPart(message) : done[call.toolCallId]);
    if (!part) continue;
    const entry: DoneEntry = { toolCallId: call.toolCallId, toolName: call.toolName, output: part.output };
    if (part.isError) entry.isError = true;
    if (part.rejected) entry.rejected = true;
    doneEntries.push(entry);
  }

  let suspendedBy: Continuation['suspendedBy'];
  const childFailure = capture.childFailures[0];
  if (childFailure) suspendedBy = { type: 'checkpoint' };
  else if (mapped.pending.length > 0) suspendedBy = pendingReason(mapped.pending);
  else if (control.fired.length > 0) suspendedBy = { type: 'predicate', predicates: control.fired };
  else if (outOfSteps) suspendedBy = { type: 'predicate', predicates: ['recursionLimit'] };
  else suspendedBy = { type: 'predicate', predicates: [staticPauseName(handle, snapshot.next)] };

  const continuation = newContinuation(context, {
    messages,
    pending: mapped.pending,
    done: doneEntries,
    step,
    usage,
    suspendedBy,
    state: exportState(
      segment.saver,
      segment.threadId,
      segment.nodeNames,
      mapped.refs,
      segment.keepHistory,
      mapped.pending,
      segment.thread ? segment.threadId : undefined,
    ) as never,
  });
  // A sub-agent failed: the run fails with its error, holding the whole tree's last good state.
  if (childFailure) throw raiseChildFailure(childFailure, continuation);
  return suspended(continuation, segment, options);
}

/**
 * The segment needs LangGraph's checkpoint of every step: delta channels, the app's thread (its
 * history shows every step), or a stream of checkpoints.
 */
function perStepCheckpoints(segment: SegmentInput, sink: ChunkSink | undefined): boolean {
  return (
    segment.keepHistory ||
    segment.thread === true ||
    (sink?.modes.some((mode) => mode === 'checkpoints' || mode === 'debug') ?? false)
  );
}

/** A suspension, sealed when the agent seals what it emits, told to observers first. */
async function suspended(
  made: Continuation,
  segment: SegmentInput,
  options: RunOptions,
): Promise<GraphRunResult> {
  // The run's deadline policy dates this level's actions; sub-agents date their own.
  return segment.suspend(applyDeadlines(made, options.deadlines), options.onEvent);
}

/** Tool-call id -> edited arguments, for this level's approvals with edited arguments so far. */
function editsOf(context: RunState): Record<string, JsonValue> {
  const edits: Record<string, JsonValue> = {};
  for (const entry of context.audit) {
    if (entry.editedArgs !== undefined && entry.actionId === entry.toolCallId)
      edits[entry.toolCallId] = entry.editedArgs;
  }
  return edits;
}

/** Tool messages that finished tasks wrote but the next checkpoint has not applied yet. */
function writtenResults(
  writes: ReadonlyArray<readonly [string, string, unknown]>,
  messagesKey: string,
): Map<string, ToolMessage> {
  const found = new Map<string, ToolMessage>();
  for (const [, channel, value] of writes) {
    if (channel !== messagesKey) continue;
    for (const message of Array.isArray(value) ? value : [value]) {
      if (isToolMessage(message)) found.set(message.tool_call_id, message);
    }
  }
  return found;
}

/**
 * The tool call a pushed task runs: tool nodes fed one `Send` per call get it as `lg_tool_call`,
 * and the task's path indexes the checkpoint's pending sends.
 */
function sentToolCall(checkpoint: { channel_values?: Record<string, unknown> } | undefined) {
  const sends = (checkpoint?.channel_values?.__pregel_tasks ?? []) as Array<{
    args?: { lg_tool_call?: { id?: string; name: string; args: unknown } };
  }>;
  return (task: SnapshotLike['tasks'][number]): ToolCallPart | undefined => {
    const [kind, index] = task.path ?? [];
    if (kind !== '__pregel_push' || typeof index !== 'number') return undefined;
    const call = sends[index]?.args?.lg_tool_call;
    if (!call?.id) return undefined;
    return { type: 'tool-call', toolCallId: call.id, toolName: call.name, args: toJson(call.args) };
  };
}

/** Reads each level of a snapshot: a waiting subgraph becomes a child continuation of its own. */
function levelReader(context: RunState, messagesKey: string): LevelReader {
  return {
    calls(snapshot) {
      const messages = neutralMessages(snapshot.values, messagesKey);
      let at = messages.length - 1;
      while (at >= 0 && messages[at]!.role !== 'assistant') at--;
      return at >= 0 ? toolCallsOf(messages[at]) : [];
    },
    child(name, snapshot, pending, toolCallId) {
      const child = {
        runId: `${context.runId}/${toolCallId}`,
        agent: { name, framework: 'langgraph' },
        metadata: {},
        audit: [],
      };
      return newContinuation(child, {
        messages: snapshot ? neutralMessages(snapshot.values, messagesKey) : [],
        pending,
        done: [],
        step: 0,
        usage: emptyUsage(),
        suspendedBy: { type: 'actions', kinds: [...new Set(pending.map((entry) => entry.kind))] },
      });
    },
  };
}

/** `interruptBefore(<the nodes about to run>)`, or `interruptAfter(<the nodes configured to pause after>)`. */
function staticPauseName(handle: GraphHandle, next: readonly string[]): string {
  const before = Array.isArray(handle.interruptBefore) ? (handle.interruptBefore as string[]) : [];
  if (handle.interruptBefore === '*' || next.some((node) => before.includes(node)))
    return `interruptBefore(${next.join(',')})`;
  const after = Array.isArray(handle.interruptAfter) ? (handle.interruptAfter as string[]) : ['*'];
  return `interruptAfter(${after.join(',')})`;
}

function doneToPart(entry: DoneEntry): ToolResultPart {
  const part: ToolResultPart = {
    type: 'tool-result',
    toolCallId: entry.toolCallId,
    toolName: entry.toolName,
    output: entry.output,
  };
  if (entry.isError) part.isError = true;
  return part;
}

function isToolMessage(value: unknown): value is ToolMessage {
  return (
    typeof (value as BaseMessage | undefined)?.getType === 'function' &&
    (value as BaseMessage).getType() === 'tool'
  );
}
