/**
 * The ways a segment ends other than a plain suspension: a sub-agent's failure raised one level
 * up, several interrupting calls of one tool-node task, and the reason a run waiting only on
 * sub-agents stopped by predicates gives.
 */
import {
  actionId,
  type Continuation,
  ContinuationError,
  type DoneEntry,
  isContinuationError,
  type Message,
  type PendingEntry,
  ToolCallError,
  type ToolCallPart,
  type ToolResultPart,
  toolCallsOf,
  type Usage,
} from '@agent-continuations/core';
import { newContinuation, type RunState, raiseFrom } from '@agent-continuations/core/adapter-kit';
import { isOwn, type OwnPayload, ownEntry, type SnapshotLike, toJson } from './interrupts';
import { toolResultPart } from './messages';
import type { Capture, ChildFailure, InterruptedCall } from './tool-guard';

/**
 * Why a run with pending entries stops: the kinds it waits for; or, when it waits only for
 * sub-agents that stopped by a predicate, those predicates named with the sub-agent's path
 * (`call_1/everyTurns(1)`), as the core engine names them.
 */
export function pendingReason(pending: readonly PendingEntry[]): Continuation['suspendedBy'] {
  const stopped = pending.flatMap((entry) =>
    entry.kind === 'agent' && entry.child.suspendedBy.type === 'predicate'
      ? entry.child.suspendedBy.predicates.map((name) => `${actionId([entry.toolCallId])}/${name}`)
      : [],
  );
  const onlyStopped = pending.every(
    (entry) => entry.kind === 'agent' && entry.child.suspendedBy.type === 'predicate',
  );
  if (onlyStopped) return { type: 'predicate', predicates: stopped };
  return { type: 'actions', kinds: [...new Set(pending.map((entry) => entry.kind))] };
}

/**
 * A sub-agent's error as this run reports it, with the core's `raiseFrom`: the same code, this
 * run's state, the path down to it. An error that is not the core's is the agent tool's failure.
 */
export function raiseChildFailure(failure: ChildFailure, continuation: Continuation): ContinuationError {
  const { error, toolCallId, toolName } = failure;
  if (!isContinuationError(error)) return new ToolCallError(continuation, error, [toolCallId], toolName);
  return raiseFrom(error, continuation, [toolCallId, ...(error.at ?? [])]);
}

/**
 * Several calls interrupted inside one tool-node task (a ToolNode that runs every call of a turn,
 * as createReactAgent v1 does): LangGraph records one of the interrupts and cannot answer them
 * apart. When every one was raised by this adapter's wrappers, the run suspends without
 * LangGraph state: a resume rebuilds the turn from the neutral messages and hands each wrapper
 * its decision directly, while the calls that finished are answered from `done`. Otherwise the
 * run is refused.
 */
export function oneTaskSuspension(
  context: RunState,
  counted: { step: number; usage: Usage },
  messages: Message[],
  calls: InterruptedCall[],
  capture: Capture,
  done: Record<string, ToolResultPart>,
  segment: { foreignResume?: boolean },
): Continuation {
  const turn = messages.at(-1);
  const turnCalls = toolCallsOf(turn);
  const waiting = new Set(calls.map((call) => call.toolCallId));
  const doneEntries: DoneEntry[] = [];
  for (const call of turnCalls) {
    if (waiting.has(call.toolCallId)) continue;
    const message = capture.results.get(call.toolCallId);
    const part = message ? toolResultPart(message) : done[call.toolCallId];
    if (!part) continue;
    doneEntries.push({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: part.output,
      ...(part.isError ? { isError: true } : {}),
    });
  }
  const own = calls.every((call) => call.values.length === 1 && isOwn(call.values[0]));
  if (!own || !segment.foreignResume || turnCalls.length === 0) {
    const ids = calls.map((call) => call.toolCallId);
    // Refused, but the run is not lost: the error carries the state after the model call (the
    // finished calls in `done`), which a graph that runs each call as its own task resumes.
    const continuation = newContinuation(context, {
      messages,
      pending: [],
      done: doneEntries,
      ...counted,
      suspendedBy: { type: 'checkpoint' },
    });
    throw new ContinuationError(
      'INVALID_OPERATION',
      `Tool calls ${ids.join(', ')} interrupted inside one tool-node task (a ToolNode that runs every call of a turn, as createReactAgent v1 does). LangGraph cannot answer them apart, and re-running the node would run its finished calls again. Use createReactAgent({ version: 'v2' }) or send each call to the tool node with Send (the error's continuation resumes there), or ask through requireApproval / requestInput / agentTool, which this adapter answers directly.`,
      { details: { toolCallIds: ids }, continuation },
    );
  }
  const pending = calls.map((call) => ownEntry(call.values[0] as OwnPayload));
  return newContinuation(context, {
    messages,
    pending,
    done: doneEntries,
    ...counted,
    suspendedBy: { type: 'actions', kinds: [...new Set(pending.map((entry) => entry.kind))] },
  });
}

/** The one tool call whose tool raised a task's interrupt, when a tool node ran several calls in that task. */
export function interruptedCall(
  task: SnapshotLike['tasks'][number],
  capture: Capture,
): ToolCallPart | undefined {
  const id = task.interrupts?.[0]?.id;
  const call = id ? capture.byInterrupt.get(id) : undefined;
  if (!call) return undefined;
  return { type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, args: toJson(call.args) };
}
