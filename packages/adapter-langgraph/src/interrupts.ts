/**
 * LangGraph interrupts as pending entries, and decisions as the resume values each kind of
 * interrupt expects.
 */
import {
  actionId,
  type Continuation,
  ContinuationError,
  type Decision,
  type JsonObject,
  type JsonValue,
  type PendingEntry,
  type ToolCallPart,
} from '@agent-continuations/core';
import { rejectionMessage } from '@agent-continuations/core/adapter-kit';
import type { DecisionKind, InterruptRef } from './graph-state';
import { allowedOfConfig } from './human-interrupt';
import { MARK } from './keys';

/** An interrupt as LangGraph reports it. */
export interface RawInterrupt {
  id?: string;
  value?: unknown;
}

/** The payload this adapter's wrappers pass to `interrupt()`. */
export interface OwnPayload {
  [MARK]: 'approval' | 'input' | 'agent';
  toolCallId: string;
  toolName: string;
  args: JsonValue;
  request?: JsonValue;
  /** A waiting sub-agent's continuation, as JSON text. */
  child?: unknown;
}

interface HitlRequest {
  actionRequests: Array<{ name: string; args: unknown; description?: string }>;
  reviewConfigs?: Array<{ actionName: string; allowedDecisions?: DecisionKind[] }>;
}

/** LangGraph's `HumanInterrupt` (from `@langchain/langgraph/prebuilt`), answered with a `HumanResponse`. */
interface HumanInterruptLike {
  action_request: { action: string; args?: unknown };
  config: { allow_accept?: boolean; allow_edit?: boolean; allow_respond?: boolean; allow_ignore?: boolean };
  description?: string;
}

/** How a decision for a plain `interrupt()` becomes its resume value; see {@link plainResume}. */
export type InterruptResume = (
  decision: Decision,
  action: { toolCallId: string; toolName: string; request: JsonValue },
) => unknown;

/** The pending entries of a suspension, with how each is answered (by action id). */
export interface MappedInterrupts {
  pending: PendingEntry[];
  refs: Record<string, InterruptRef>;
}

/** A LangGraph state snapshot, as far as the mapping reads it. */
export interface SnapshotLike {
  values: Record<string, unknown>;
  tasks: ReadonlyArray<{
    id: string;
    name: string;
    interrupts?: RawInterrupt[];
    result?: unknown;
    state?: unknown;
    path?: readonly unknown[];
  }>;
}

/** How a level of the pending tree is read: its neutral messages, and the child runs' identity. */
export interface LevelReader {
  /** The tool calls of the level's last assistant message. */
  calls(snapshot: SnapshotLike): ToolCallPart[];
  /** A continuation for a subgraph that waits, holding its own pending entries. */
  child(
    name: string,
    snapshot: SnapshotLike | undefined,
    pending: PendingEntry[],
    toolCallId: string,
  ): Continuation;
}

/**
 * Map the interrupts of a snapshot's unfinished tasks to pending entries. A declared subgraph that
 * waits becomes an `agent` entry holding the subgraph's own entries (one level per namespace);
 * `prefix` is the action-id path of this level.
 */
export function mapInterrupts(
  snapshot: SnapshotLike,
  reader: LevelReader,
  prefix: string[] = [],
  toolCallOf?: (task: SnapshotLike['tasks'][number]) => ToolCallPart | undefined,
): MappedInterrupts {
  const pending: PendingEntry[] = [];
  const refs: Record<string, InterruptRef> = {};
  const claimed = new Set<string>();
  // A task that finished after its interrupt was answered still lists that interrupt.
  const waiting = snapshot.tasks.filter(
    (task) => task.result === undefined && (task.interrupts?.length ?? 0) > 0,
  );
  const calls = reader.calls(snapshot);
  for (const task of waiting) {
    const sub = task.state as SnapshotLike | undefined;
    if (sub && Array.isArray(sub.tasks) && sub.tasks.some((inner) => (inner.interrupts?.length ?? 0) > 0)) {
      const seen = waiting.filter((other) => other.name === task.name).length > 1;
      const toolCallId = seen ? `${task.name}:${task.id}` : task.name;
      const inner = mapInterrupts(sub, reader, [...prefix, toolCallId]);
      Object.assign(refs, inner.refs);
      pending.push({
        kind: 'agent',
        toolCallId,
        toolName: task.name,
        args: {},
        child: reader.child(task.name, sub, inner.pending, toolCallId),
      });
      continue;
    }
    const call = toolCallOf?.(task);
    const found = (task.interrupts ?? []).flatMap((raw) =>
      fromInterrupt(raw, task.name, calls, claimed, call),
    );
    if (
      call &&
      found.some(([entry]) => entry.toolCallId !== call.toolCallId || entry.toolName !== call.toolName)
    ) {
      // The interrupts come from a graph that the tool ran: one nested level under the tool call.
      for (const [entry, ref] of found) refs[actionId([...prefix, call.toolCallId, entry.toolCallId])] = ref;
      const inner = found.map(([entry]) => entry);
      pending.push({
        kind: 'agent',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        args: call.args,
        child: reader.child(call.toolName, undefined, inner, call.toolCallId),
      });
      continue;
    }
    for (const [entry, ref] of found) {
      pending.push(entry);
      refs[actionId([...prefix, entry.toolCallId])] = ref;
    }
  }
  return { pending, refs };
}

function fromInterrupt(
  raw: RawInterrupt,
  node: string,
  calls: readonly ToolCallPart[],
  claimed: Set<string>,
  call?: ToolCallPart,
): Array<[PendingEntry, InterruptRef]> {
  const id = raw.id;
  if (!id)
    throw new ContinuationError(
      'INVALID_OPERATION',
      'LangGraph reported an interrupt without an id; it cannot be answered by id.',
    );
  const value = raw.value;
  if (isOwn(value)) {
    claimed.add(value.toolCallId);
    return [[ownEntry(value), { id, source: 'ours' }]];
  }
  if (isHitl(value)) {
    const count = value.actionRequests.length;
    return value.actionRequests.map((request, index): [PendingEntry, InterruptRef] => {
      const toolCallId = claim(calls, claimed, request.name, request.args) ?? `${id}#${index}`;
      const allowed = value.reviewConfigs?.find(
        (review) => review.actionName === request.name,
      )?.allowedDecisions;
      const description = typeof request.description === 'string' ? request.description : undefined;
      return [
        {
          kind: 'approval',
          toolCallId,
          toolName: request.name,
          args: toJson(request.args),
          ...entryPolicy(description, allowed),
        },
        {
          id,
          source: 'hitl',
          index,
          count,
          ...(allowed ? { allowed: [...allowed] } : {}),
          ...(description === undefined ? {} : { description }),
        },
      ];
    });
  }
  const inbox = humanInterruptOf(value);
  if (inbox) {
    // LangGraph's own review request: inside a tool it is that call; in a node, the call it names.
    const { action, args } = inbox.action_request;
    const toolCallId = call?.toolCallId ?? claim(calls, claimed, action, args) ?? `interrupt:${id}`;
    const allow = inbox.config;
    const { kind, allowed } = allowedOfConfig(allow);
    const base = {
      toolCallId,
      toolName: call?.toolName ?? action,
      args: toJson(args ?? {}),
      ...entryPolicy(typeof inbox.description === 'string' ? inbox.description : undefined, allowed),
    };
    const entry: PendingEntry =
      kind === 'approval'
        ? { kind: 'approval', ...base }
        : { kind: 'input', ...base, request: toJson(value) };
    const ref: InterruptRef = {
      id,
      source: 'inbox',
      action,
      allowed,
      ...(Array.isArray(value) ? { list: true } : {}),
      ...(allow.allow_ignore && !allow.allow_respond ? { ignore: true } : {}),
      ...(typeof inbox.description === 'string' ? { description: inbox.description } : {}),
    };
    return [[entry, ref]];
  }
  // A plain interrupt() inside a tool that has its own task (one Send per call) belongs to that call.
  const base = call
    ? { toolCallId: call.toolCallId, toolName: call.toolName, args: call.args }
    : { toolCallId: `interrupt:${id}`, toolName: node, args: {} };
  return [
    [
      { kind: 'input', ...base, request: toJson(value) },
      { id, source: 'plain' },
    ],
  ];
}

/**
 * Resume values keyed by interrupt id, from decisions keyed by action id. The middleware's
 * request is answered as a whole, so each of its calls needs a decision.
 */
export function resumeValues(
  decided: ReadonlyMap<string, Decision>,
  refs: Record<string, InterruptRef>,
  entries: ReadonlyMap<string, { toolName: string; toolCallId: string; request?: JsonValue }>,
  plain: InterruptResume = plainResume,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const hitl = new Map<string, Array<JsonObject | undefined>>();
  for (const [id, decision] of decided) {
    const ref = refs[id];
    const entry = entries.get(id);
    if (!ref || !entry) {
      throw new ContinuationError(
        'STATE_MISMATCH',
        `The continuation's LangGraph state has no interrupt for action "${id}".`,
      );
    }
    if (ref.source === 'hitl') {
      const slots = hitl.get(ref.id) ?? new Array<JsonObject | undefined>(ref.count ?? 1).fill(undefined);
      slots[ref.index ?? 0] = hitlDecision(decision, entry);
      hitl.set(ref.id, slots);
    } else if (ref.source === 'ours') values[ref.id] = ownResume(decision);
    else if (ref.source === 'inbox') {
      const response = humanResponse(decision, ref);
      values[ref.id] = ref.list ? [response] : response;
    } else {
      values[ref.id] = plain(decision, {
        toolCallId: entry.toolCallId,
        toolName: entry.toolName,
        request: entry.request ?? null,
      });
    }
  }
  for (const [interruptId, slots] of hitl) {
    const missing = Object.entries(refs)
      .filter(([, ref]) => ref.id === interruptId && slots[ref.index ?? 0] === undefined)
      .map(([id]) => id);
    if (missing.length > 0) {
      throw new ContinuationError(
        'INVALID_DECISION',
        `The human-in-the-loop middleware asked about several calls at once and needs a decision for each; also decide: ${missing.join(', ')}.`,
        { details: { missing } },
      );
    }
    values[interruptId] = { decisions: slots };
  }
  return values;
}

/**
 * The default resume value of a plain `interrupt()`: an `input` decision's value as is; a reject
 * as `{ type: 'reject', rejected: true, reason?, message }` (`message` is the text every adapter
 * gives a model for a rejected call); an approval as `{ type: 'approve', args? }`.
 */
export const plainResume: InterruptResume = (decision) => {
  if (decision.type === 'input') return decision.value;
  if (decision.type === 'reject') {
    return {
      type: 'reject',
      rejected: true,
      ...(decision.reason ? { reason: decision.reason } : {}),
      message: rejectionMessage(decision.reason),
    };
  }
  return decision.args === undefined ? { type: 'approve' } : { type: 'approve', args: decision.args };
};

/** A decision as LangGraph's `HumanResponse`: accept, edit, or a response (a reject's text, an answer). */
function humanResponse(decision: Decision, ref: InterruptRef): JsonObject {
  if (decision.type === 'approve') {
    return decision.args === undefined
      ? { type: 'accept', args: null }
      : { type: 'edit', args: { action: ref.action ?? '', args: decision.args } };
  }
  if (decision.type === 'input') {
    const value = decision.value;
    return { type: 'response', args: typeof value === 'string' ? value : JSON.stringify(value) };
  }
  // A reject is the human's response where one is allowed: the tool returns it to the model.
  return ref.ignore
    ? { type: 'ignore', args: null }
    : { type: 'response', args: rejectionMessage(decision.reason) };
}

/** What this adapter's approval and input wrappers receive from `interrupt()`. */
export type OwnResume =
  | { type: 'approve'; args?: JsonValue }
  | { type: 'reject'; reason?: string }
  | { type: 'input'; value: JsonValue };

/** The answer this adapter's wrappers get for a decision. */
export function ownResume(decision: Decision): OwnResume {
  if (decision.type === 'approve')
    return decision.args === undefined ? { type: 'approve' } : { type: 'approve', args: decision.args };
  if (decision.type === 'reject')
    return decision.reason ? { type: 'reject', reason: decision.reason } : { type: 'reject' };
  return { type: 'input', value: decision.value };
}

function hitlDecision(decision: Decision, entry: { toolName: string }): JsonObject {
  if (decision.type === 'reject')
    return decision.reason ? { type: 'reject', message: decision.reason } : { type: 'reject' };
  if (decision.type === 'approve' && decision.args !== undefined) {
    return { type: 'edit', editedAction: { name: entry.toolName, args: decision.args } };
  }
  return { type: 'approve' };
}

/**
 * LangGraph revives anything shaped like a serialized LangChain object when it reads a checkpoint,
 * so payloads go through JSON again (`toJSON` gives the serialized form back).
 */
export function ownEntry(value: OwnPayload): PendingEntry {
  const base = { toolCallId: value.toolCallId, toolName: value.toolName, args: toJson(value.args) };
  if (value[MARK] === 'approval') return { kind: 'approval', ...base };
  if (value[MARK] === 'input') return { kind: 'input', ...base, request: toJson(value.request) };
  // The child's continuation is its JSON text (see agentPayload in tools.ts), read back unchanged
  // so its seal still matches; a payload written before that holds the object itself.
  const child =
    typeof value.child === 'string' ? childText(value.child, base.toolCallId) : toJson(value.child);
  return { kind: 'agent', ...base, child: child as never };
}

function childText(text: string, toolCallId: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new ContinuationError(
      'INVALID_CONTINUATION',
      `The graph's state holds a sub-agent's continuation (call ${toolCallId}) that is not JSON.`,
    );
  }
}

/** True for payloads made by this adapter's wrappers. */
export function isOwn(value: unknown): value is OwnPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)[MARK] === 'string'
  );
}

function humanInterruptOf(value: unknown): HumanInterruptLike | undefined {
  const one = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof one !== 'object' || one === null) return undefined;
  const request = (one as HumanInterruptLike).action_request;
  const config = (one as HumanInterruptLike).config;
  if (typeof request?.action !== 'string' || typeof config !== 'object' || config === null) return undefined;
  return one as HumanInterruptLike;
}

/** The first unclaimed call of the turn with this name and these arguments. */
function claim(calls: readonly ToolCallPart[], claimed: Set<string>, name: string, args: unknown) {
  const call = calls.find(
    (candidate) =>
      !claimed.has(candidate.toolCallId) &&
      candidate.toolName === name &&
      sameJson(candidate.args, toJson(args)),
  );
  if (call) claimed.add(call.toolCallId);
  return call?.toolCallId;
}

function isHitl(value: unknown): value is HitlRequest {
  return typeof value === 'object' && value !== null && Array.isArray((value as HitlRequest).actionRequests);
}

/** A JSON copy of any value (undefined becomes null). */
export function toJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

function sameJson(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The graph's policy as the pending entry carries it, so the core obeys it for every reader: an
 * empty list (a review request that allows nothing) is left out, as the format requires one.
 */
function entryPolicy(
  description: string | undefined,
  allowed: readonly DecisionKind[] | undefined,
): { description?: string; allowedDecisions?: DecisionKind[] } {
  return {
    ...(description === undefined ? {} : { description }),
    ...(allowed && allowed.length > 0 ? { allowedDecisions: [...new Set(allowed)] } : {}),
  };
}
