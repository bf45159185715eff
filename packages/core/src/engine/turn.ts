/**
 * Settling one model turn: every tool call of the last assistant message either runs, or becomes
 * a pending entry. Calls run concurrently; each settled one is recorded at once, so a checkpoint
 * taken mid-turn never runs it again.
 */

import { isContinuationError, raiseFrom, ToolCallError } from '../errors';
import { cloneJson } from '../format/canonical';
import type { Continuation, DoneEntry, PendingEntry } from '../format/format';
import { checkJson, type JsonValue } from '../format/json';
import { type ToolCallPart, textOf, toolCallsOf } from '../format/messages';
import { markChecked, trustContinuation } from '../trust/trust';
import { actionId } from './actions';
import type { DecisionsByCall } from './children';
import type { ContinuableAgent, Decisions, RunEvent, RunOptions } from './protocol';
import type { RunState } from './run-state';
import type { AgentStream, AgentStreamEvent } from './stream';
import { policyFields, type ToolContext, type ToolDefinition } from './tools';

export interface TurnContext {
  state: RunState;
  tools: ReadonlyMap<string, ToolDefinition>;
  toolErrors: 'model' | 'throw';
  /** What the run hands on to sub-agents: signal, allowChangedAgent, inherited predicates. */
  options: RunOptions;
  emit: (event: RunEvent) => Promise<void>;
  /** Tell the run's observers only (not its stream): for events a streamed child already streamed. */
  observe: (event: RunEvent) => Promise<void>;
  /** The run's state as a continuation, sub-agents still running included at their last step. */
  checkpoint: () => Continuation;
  /**
   * The entry each call whose sub-agent runs (or ran, inside a tool still running) would have in
   * a checkpoint: its child's last step, or the sub-agents' outputs so far as the call's journal.
   * A running child's entry is a function, called only when a checkpoint is taken: taking the
   * child's checkpoint at each of its events would cost every level above it a snapshot.
   */
  live: Map<string, PendingEntry | (() => PendingEntry)>;
  /** When the run streams: where a streamed sub-agent's events go, tagged with their path. */
  forward?: (event: AgentStreamEvent<unknown>) => void;
  /** Arguments the model port validated with the tools' own validators in the call just made. */
  validated?: ReadonlyMap<ToolCallPart, unknown>;
}

/** A call whose tool or sub-agent failed in a way that ends the turn (not a result for the model). */
interface CallFailure {
  toolCallId: string;
  toolName: string;
  error: unknown;
  /** True when a sub-agent failed: the error is the child's, to be raised one level up. */
  child: boolean;
}

/** Thrown inside a tool to unwind it when it must wait; never seen by users unless they catch it. */
class SuspendSignal extends Error {
  constructor() {
    super('The tool is suspending (do not catch this error).');
    this.name = 'SuspendSignal';
  }
}

/**
 * Settle every call of the turn; returns once each is done or pending. When a call fails in a way
 * that ends the run (a sub-agent's failure, a tool error under `toolErrors: 'throw'`), the other
 * calls still settle first, and the error raised carries the state after all of them.
 */
export async function settleTurn(
  turn: TurnContext,
  calls: readonly ToolCallPart[],
  decisions: DecisionsByCall,
): Promise<void> {
  const failures: CallFailure[] = [];
  const outcomes = await Promise.allSettled(calls.map((call) => settleCall(turn, call, decisions, failures)));
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  const failure = failures[0];
  if (!failure) return;
  const { error } = failure;
  const at = [failure.toolCallId];
  if (failure.child && isContinuationError(error)) {
    throw raiseFrom(error, turn.checkpoint(), [...at, ...(error.at ?? [])]);
  }
  throw new ToolCallError(turn.checkpoint(), error, failure.child ? at : [], failure.toolName);
}

/**
 * Whether resuming `continuation` with no decisions makes progress: it stopped by a predicate or
 * a failure, holds an approved call not yet run, or holds such a sub-agent at any depth.
 *
 * @example
 * ```ts
 * if (resumesWithoutDecisions(continuation)) await agent.resume(continuation, {});
 * ```
 */
export function resumesWithoutDecisions(continuation: Continuation): boolean {
  if (continuation.suspendedBy.type !== 'actions') return true;
  return continuation.pending.some(
    (entry) =>
      (entry.kind === 'approval' && entry.approved === true) ||
      (entry.kind === 'agent' && resumesWithoutDecisions(entry.child)),
  );
}

async function settleCall(
  turn: TurnContext,
  call: ToolCallPart,
  decided: DecisionsByCall,
  failures: CallFailure[],
): Promise<void> {
  const { state } = turn;
  if (state.done.has(call.toolCallId)) return;
  const entry = state.pending.get(call.toolCallId);
  if (!entry) return startCall(turn, call, failures);
  const tool = turn.tools.get(entry.toolName)!;
  const decision = decided.own(call.toolCallId)?.value;

  if (entry.kind === 'agent') {
    const children = decided.takeChild(call.toolCallId);
    if (!children && !resumesWithoutDecisions(entry.child)) return;
    return execute(turn, call, tool, entry, failures, {
      index: entry.journal?.length ?? 0,
      continuation: entry.child,
      decisions: children ?? {},
    });
  }
  if (entry.kind === 'approval' && entry.approved) return execute(turn, call, tool, entry, failures);
  if (!decision) return;
  if (decision.type === 'reject') return finish(turn, call, rejectionMessage(decision.reason), true, true);
  // In doubt, and a person says it ran: their answer is its result, and it does not run again.
  if (entry.kind === 'approval' && entry.inDoubt && decision.type === 'input')
    return finish(turn, call, cloneJson(decision.value), false);

  if (entry.kind === 'approval' && decision.type === 'approve') {
    let args = entry.args;
    if (decision.args !== undefined) {
      args = cloneJson(decision.args);
      showEditedArgs(state, call.toolCallId, args);
    }
    const ready: PendingEntry = { ...(entry.inDoubt ? withoutDoubt(entry) : entry), args, approved: true };
    state.pending.set(call.toolCallId, ready);
    return execute(turn, call, tool, ready, failures);
  }
  if (entry.kind === 'input' && decision.type === 'input') {
    if (!tool.execute) return finish(turn, call, decision.value, false);
    const journal = [...(entry.journal ?? []), decision.value];
    const ready: PendingEntry = {
      kind: 'approval',
      toolCallId: entry.toolCallId,
      toolName: entry.toolName,
      args: entry.args,
      approved: true,
      journal,
    };
    state.pending.set(call.toolCallId, ready);
    return execute(turn, call, tool, ready, failures);
  }
}

/**
 * An approval with edited arguments: the transcript's tool call carries the arguments that run,
 * so the model reads its call next to a result computed from them; the audit trail keeps the
 * arguments the model asked for (`args`) beside the edited ones (`editedArgs`).
 */
function showEditedArgs(state: RunState, toolCallId: string, args: JsonValue): void {
  const index = state.messages.length - 1;
  const last = state.messages[index];
  if (last?.role !== 'assistant' || typeof last.content === 'string') return;
  state.messages[index] = {
    ...last,
    content: last.content.map((part) =>
      part.type === 'tool-call' && part.toolCallId === toolCallId ? { ...part, args } : part,
    ),
  };
}

/** A call seen for the first time: unknown tool, bad arguments, approval, or run it. */
async function startCall(turn: TurnContext, call: ToolCallPart, failures: CallFailure[]): Promise<void> {
  const tool = turn.tools.get(call.toolName);
  if (!tool) {
    const known = [...turn.tools.keys()].join(', ') || 'none';
    return finish(turn, call, `Unknown tool "${call.toolName}". Available tools: ${known}.`, true);
  }
  const checked = turn.validated?.has(call)
    ? { ok: true as const, value: turn.validated.get(call) }
    : await validateArgs(tool, call.args);
  if (!checked.ok)
    return finish(turn, call, `Invalid arguments for tool "${tool.name}": ${checked.message}`, true);
  const needsApproval =
    typeof tool.needsApproval === 'function'
      ? await tool.needsApproval(checked.value, {
          runId: turn.state.runId,
          agentName: turn.state.agent.name,
          toolCallId: call.toolCallId,
          metadata: turn.state.metadata,
          messages: turn.state.messages,
        })
      : tool.needsApproval === true;
  const base = { toolCallId: call.toolCallId, toolName: call.toolName, args: call.args };
  if (needsApproval) {
    turn.state.pending.set(call.toolCallId, { kind: 'approval', ...base, ...policyFields(tool) });
    return;
  }
  return execute(
    turn,
    call,
    tool,
    { kind: 'approval', ...base, approved: false },
    failures,
    undefined,
    checked,
  );
}

export async function validateArgs(tool: ToolDefinition, args: unknown) {
  if (!tool.validate) return { ok: true as const, value: args };
  return tool.validate(args);
}

/**
 * Run a tool (or, for a human tool, ask the human). `journal` replays earlier answers and child
 * outputs; `resumeChild` resumes the sub-agent that suspended at that point of the journal.
 * `validated` holds the arguments when the caller has just validated them.
 */
async function execute(
  turn: TurnContext,
  call: ToolCallPart,
  tool: ToolDefinition,
  entry: PendingEntry,
  failures: CallFailure[],
  resumeChild?: { index: number; continuation: Continuation; decisions: Decisions },
  validated?: { ok: true; value: unknown },
): Promise<void> {
  const { state } = turn;
  const approved = entry.approved === true;
  if (!tool.execute) {
    state.pending.set(call.toolCallId, {
      kind: 'input',
      toolCallId: call.toolCallId,
      toolName: tool.name,
      args: entry.args,
      request: entry.args,
      ...policyFields(tool),
    });
    return;
  }
  const checked = validated ?? (await validateArgs(tool, entry.args));
  if (!checked.ok)
    return finish(turn, call, `Invalid arguments for tool "${tool.name}": ${checked.message}`, true);

  const recorded: JsonValue[] = [...(entry.journal ?? [])];
  let cursor = 0;
  let suspension: PendingEntry | undefined;
  let childFailure: { error: unknown; pending: PendingEntry | undefined } | undefined;
  const base = {
    toolCallId: call.toolCallId,
    toolName: tool.name,
    args: entry.args,
    ...(approved ? { approved: true } : {}),
  };
  const suspend = (pending: PendingEntry): never => {
    suspension = pending;
    throw new SuspendSignal();
  };
  const ctx: ToolContext = {
    runId: state.runId,
    agentName: state.agent.name,
    toolName: tool.name,
    toolCallId: call.toolCallId,
    idempotencyKey: `${state.runId}:${call.toolCallId}`,
    metadata: state.metadata,
    messages: state.messages,
    ...(turn.options.signal ? { signal: turn.options.signal } : {}),
    replaying: resumeChild !== undefined || recorded.length > 0,
    requestInput: async <T extends JsonValue>(request: JsonValue) => {
      if (suspension) throw new SuspendSignal();
      if (cursor < recorded.length) return recorded[cursor++] as T;
      return suspend({
        kind: 'input',
        ...base,
        request: cloneJson(request),
        ...journalOf(recorded),
        ...policyFields(tool),
      });
    },
    runAgent: async <I, O>(agent: ContinuableAgent<I, O>, input: I): Promise<O> => {
      if (suspension) throw new SuspendSignal();
      if (cursor < recorded.length) return recorded[cursor++] as O;
      const index = cursor;
      const resuming = resumeChild && resumeChild.index === index ? resumeChild : undefined;
      // The child's state at each of its steps, as an entry of this call: what a checkpoint
      // taken inside the child holds in this run's pending list.
      const at = (child: Continuation): PendingEntry => ({
        kind: 'agent',
        ...base,
        child,
        ...journalOf(recorded),
      });
      let result: Awaited<ReturnType<typeof agent.run>>;
      try {
        result = await runChild(turn, call.toolCallId, agent, at, {
          input,
          runId: `${state.runId}/${call.toolCallId}${index > 0 ? `#${index}` : ''}`,
          ...(resuming ? { resume: resuming } : {}),
        });
      } catch (error) {
        // The child failed: the run fails with it. The child keeps its last good state (the
        // one its error carries, else the one it was resumed from) so a retry goes on from there.
        const last = (isContinuationError(error) && error.continuation) || resuming?.continuation;
        childFailure = { error, pending: last ? at(last) : undefined };
        if (childFailure.pending) turn.live.set(call.toolCallId, childFailure.pending);
        throw new SuspendSignal();
      }
      if (result.status === 'suspended') {
        turn.live.set(call.toolCallId, at(result.continuation));
        return suspend(at(result.continuation));
      }
      if (result.status === 'rejected') {
        throw new Error(
          `The ${agent.name} agent stopped: a human rejected its ${result.rejection.toolName} call${result.rejection.reason ? ` (${result.rejection.reason})` : ''}.`,
        );
      }
      recorded.push(toJson(result.output));
      cursor++;
      // Until the tool returns, a checkpoint replays this output rather than run the child again.
      turn.live.set(call.toolCallId, { kind: 'approval', ...base, approved: true, journal: [...recorded] });
      return result.output;
    },
  };

  /** A sub-agent failed, or the tool waits: what the call holds now; false when neither. */
  const settled = (): boolean => {
    const waiting = childFailure ? childFailure.pending : suspension;
    if (!childFailure && !suspension) return false;
    if (waiting) state.pending.set(call.toolCallId, waiting);
    turn.live.delete(call.toolCallId);
    if (childFailure)
      failures.push({
        toolCallId: call.toolCallId,
        toolName: tool.name,
        error: childFailure.error,
        child: true,
      });
    return true;
  };
  if (tool.idempotent === false) {
    // Until its result is recorded, every checkpoint holds the call as in doubt; a checkpoint log
    // records that before the body runs, so recovery asks a person instead of running it again.
    // Recorded before the check below, so that the check is the last thing before the body.
    turn.live.set(call.toolCallId, inDoubtEntry(tool, entry));
    await turn.observe({
      type: 'tool-start',
      runId: state.runId,
      step: state.step,
      toolCallId: call.toolCallId,
      toolName: tool.name,
      checkpoint: turn.checkpoint,
    });
  }
  // Outside the try: a refusal (a lost lease) fails the run, it is no result for the model.
  await turn.options.beforeStart?.({
    type: 'tool',
    runId: state.runId,
    toolName: tool.name,
    toolCallId: call.toolCallId,
  });
  let output: unknown;
  try {
    output = await tool.execute(checked.value, ctx);
  } catch (error) {
    if (settled()) return;
    if (turn.toolErrors === 'throw') {
      // It ended with an error: not in doubt.
      turn.live.delete(call.toolCallId);
      failures.push({ toolCallId: call.toolCallId, toolName: tool.name, error, child: false });
      return;
    }
    return finish(turn, call, { error: error instanceof Error ? error.message : String(error) }, true);
  }
  // The tool caught its sub-agent's failure (the run fails all the same), or swallowed its own
  // suspension (it still waits).
  if (settled()) return;
  let json: JsonValue;
  try {
    json = toJson(output);
  } catch (error) {
    return finish(turn, call, { error: `The tool's result is not JSON: ${(error as Error).message}` }, true);
  }
  return finish(turn, call, json, false);
}

/** What a checkpoint holds for a started call of an `idempotent: false` tool: a person must say. */
function inDoubtEntry(tool: ToolDefinition, entry: PendingEntry): PendingEntry {
  return {
    kind: 'approval',
    toolCallId: entry.toolCallId,
    toolName: tool.name,
    args: entry.args,
    ...journalOf(entry.journal ?? []),
    inDoubt: true,
    description: `In doubt: ${tool.name} started and its result was never recorded, so it may have run. Approve to run it again, answer with its result if it ran, or reject to not run it.`,
    allowedDecisions: ['approve', 'input', 'reject'],
  };
}

/** An in-doubt approval once approved: a plain approved call, to run. */
function withoutDoubt(entry: PendingEntry & { kind: 'approval' }): PendingEntry {
  const { inDoubt: _inDoubt, description: _description, allowedDecisions: _allowed, ...rest } = entry;
  return rest;
}

async function finish(
  turn: TurnContext,
  call: ToolCallPart,
  output: JsonValue,
  isError: boolean,
  rejected = false,
): Promise<void> {
  const { state } = turn;
  const done: DoneEntry = { toolCallId: call.toolCallId, toolName: call.toolName, output };
  if (isError) done.isError = true;
  if (rejected) done.rejected = true;
  state.pending.delete(call.toolCallId);
  state.done.set(call.toolCallId, done);
  turn.live.delete(call.toolCallId);
  await turn.emit({
    type: 'tool-result',
    runId: state.runId,
    step: state.step,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output,
    isError,
    ...(rejected ? { rejected } : {}),
    checkpoint: turn.checkpoint,
  });
}

/**
 * Run or resume a sub-agent with this run's options. Its steps reach this run's observers as
 * this run's own, tagged with the path to the child, with checkpoints of the whole tree; when this
 * run streams and the child can stream, its text and tool events are streamed too.
 */
async function runChild<I, O>(
  turn: TurnContext,
  toolCallId: string,
  agent: ContinuableAgent<I, O>,
  at: (child: Continuation) => PendingEntry,
  how: { input: I; runId: string; resume?: { continuation: Continuation; decisions: Decisions } },
) {
  const { options } = turn;
  const segment = actionId([toolCallId]);
  const streamed = turn.forward !== undefined && isStreaming(agent);
  const onEvent = async (event: RunEvent) => {
    if (event.type === 'suspend' || event.type === 'complete') return;
    turn.live.set(toolCallId, () => at(event.checkpoint()));
    const nested = { ...event, path: [segment, ...(event.path ?? [])], checkpoint: turn.checkpoint };
    // A child that cannot stream its runs (another framework's) still shows in this run's stream,
    // a step at a time: the text and tool calls of each of its model calls.
    if (!streamed && turn.forward && nested.type === 'model-call') {
      const text = textOf(nested.message);
      if (text) turn.forward({ type: 'text-delta', delta: text, path: nested.path });
      for (const toolCall of toolCallsOf(nested.message))
        turn.forward({ type: 'tool-call', toolCall, path: nested.path });
    }
    await (streamed ? turn.observe(nested) : turn.emit(nested));
  };
  // A child's events serve this run's observers (and the checkpoints they take) only: when this
  // run has none, passing each event up every level of a deep tree would cost the depth squared.
  const observed = options.onEvent !== undefined || turn.forward !== undefined;
  const childOptions: RunOptions = {
    ...(observed ? { onEvent } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.allowChangedAgent ? { allowChangedAgent: true } : {}),
    ...(options.suspendWhen ? { suspendWhen: options.suspendWhen } : {}),
    ...(options.deadlines ? { deadlines: options.deadlines } : {}),
    ...(options.beforeStart ? { beforeStart: options.beforeStart } : {}),
  };
  // The child's state is part of this run's own tree, checked (and verified, if sealed) with it;
  // its decisions were checked with the whole tree too, before anything ran.
  if (how.resume) markChecked(trustContinuation(how.resume.continuation), how.resume.decisions);
  if (!streamed) {
    return how.resume
      ? agent.resume(how.resume.continuation, how.resume.decisions, childOptions)
      : agent.run(how.input, { ...childOptions, runId: how.runId });
  }
  const stream = agent.stream(
    how.resume ? { continuation: how.resume.continuation, decisions: how.resume.decisions } : how.input,
    how.resume ? childOptions : { ...childOptions, runId: how.runId },
  );
  for await (const event of stream) {
    if (event.type === 'result') continue;
    turn.forward!({ ...event, path: [segment, ...(event.path ?? [])] });
  }
  return stream.result;
}

/**
 * Set to `true` on an agent whose `stream(input | { continuation, decisions }, options)` streams
 * runs and resumes as the engine's does, so a streaming parent streams it too.
 */
export const STREAMS_RUNS: unique symbol = Symbol.for('agent-continuations.streams-runs') as never;

function isStreaming<I, O>(
  agent: ContinuableAgent<I, O>,
): agent is ContinuableAgent<I, O> & {
  stream(input: unknown, options?: RunOptions): AgentStream<O>;
} {
  return (agent as { [STREAMS_RUNS]?: unknown })[STREAMS_RUNS] === true;
}

function journalOf(recorded: JsonValue[]): { journal?: JsonValue[] } {
  return recorded.length > 0 ? { journal: [...recorded] } : {};
}

/**
 * The tool result a model gets when a human rejected its call, the same in every adapter.
 *
 * @example
 * ```ts
 * rejectionMessage('over the daily limit');
 * // 'A human rejected this tool call: over the daily limit. Do not retry it unchanged.'
 * ```
 */
export function rejectionMessage(reason?: string): string {
  const why = reason?.trim();
  if (!why) return 'A human rejected this tool call. Do not retry it unchanged.';
  return `A human rejected this tool call: ${why}${/[.!?]$/.test(why) ? '' : '.'} Do not retry it unchanged.`;
}

/** Tool output as JSON: `undefined` becomes null, anything else goes through a JSON round trip. */
function toJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  if (text === undefined) return null;
  const json = JSON.parse(text) as JsonValue;
  // What the continuation cannot hold (nested past its depth limit) is refused here, as an error
  // for the model, rather than written into a continuation that could never be read back.
  checkJson(json, { code: 'INVALID_JSON', what: "The tool's result" });
  return json;
}
