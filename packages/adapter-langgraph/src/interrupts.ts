/**
 * LangGraph interrupts as pending entries, and decisions as the resume values each kind of
 * interrupt expects.
 */
import {
  ContinuationError,
  type Decision,
  type JsonObject,
  type JsonValue,
  type PendingEntry,
  type ToolCallPart,
} from '@agent-continuations/core';
import type { InterruptRef } from './graph-state';
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
  child?: unknown;
}

interface HitlRequest {
  actionRequests: Array<{ name: string; args: unknown; description?: string }>;
  reviewConfigs?: Array<{ actionName: string; allowedDecisions?: string[] }>;
}

/** The pending entries of a suspension, with how each is answered. */
export interface MappedInterrupts {
  pending: PendingEntry[];
  refs: Record<string, InterruptRef>;
}

/**
 * Map LangGraph interrupts to pending entries. `calls` are the tool calls of the last assistant
 * message, to find the calls that the human-in-the-loop middleware asks about. `taskNames` gives
 * the node of each interrupt, for plain `interrupt()` calls that belong to no tool call.
 */
export function mapInterrupts(
  interrupts: Array<RawInterrupt & { node: string }>,
  calls: readonly ToolCallPart[],
): MappedInterrupts {
  const pending: PendingEntry[] = [];
  const refs: Record<string, InterruptRef> = {};
  const claimed = new Set<string>();
  for (const raw of interrupts) {
    const id = raw.id;
    if (!id)
      throw new ContinuationError(
        'INVALID_OPERATION',
        'LangGraph reported an interrupt without an id; it cannot be answered by id.',
      );
    const value = raw.value;
    if (isOwn(value)) {
      pending.push(ownEntry(value));
      refs[value.toolCallId] = { id, source: 'ours' };
      claimed.add(value.toolCallId);
    } else if (isHitl(value)) {
      const count = value.actionRequests.length;
      value.actionRequests.forEach((request, index) => {
        const call = calls.find(
          (candidate) =>
            !claimed.has(candidate.toolCallId) &&
            candidate.toolName === request.name &&
            sameJson(candidate.args, request.args as JsonValue),
        );
        const toolCallId = call?.toolCallId ?? `${id}#${index}`;
        claimed.add(toolCallId);
        pending.push({ kind: 'approval', toolCallId, toolName: request.name, args: toJson(request.args) });
        refs[toolCallId] = { id, source: 'hitl', index, count };
      });
    } else {
      const toolCallId = `interrupt:${id}`;
      pending.push({ kind: 'input', toolCallId, toolName: raw.node, args: {}, request: toJson(value) });
      refs[toolCallId] = { id, source: 'plain' };
    }
  }
  return { pending, refs };
}

/**
 * Resume values keyed by interrupt id, from decisions keyed by tool-call id. The middleware's
 * request is answered as a whole, so each of its calls needs a decision.
 */
export function resumeValues(
  decided: ReadonlyMap<string, Decision>,
  refs: Record<string, InterruptRef>,
  entries: ReadonlyMap<string, PendingEntry>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const hitl = new Map<string, Array<JsonObject | undefined>>();
  for (const [toolCallId, decision] of decided) {
    const ref = refs[toolCallId];
    const entry = entries.get(toolCallId);
    if (!ref || !entry) {
      throw new ContinuationError(
        'STATE_MISMATCH',
        `The continuation's LangGraph state has no interrupt for action "${toolCallId}".`,
      );
    }
    if (ref.source === 'hitl') {
      const slots = hitl.get(ref.id) ?? new Array<JsonObject | undefined>(ref.count ?? 1).fill(undefined);
      slots[ref.index ?? 0] = hitlDecision(decision, entry);
      hitl.set(ref.id, slots);
    } else if (ref.source === 'ours') values[ref.id] = ownResume(decision);
    else
      values[ref.id] =
        decision.type === 'input'
          ? decision.value
          : { rejected: true, ...(decision.reason ? { reason: decision.reason } : {}) };
  }
  for (const [id, slots] of hitl) {
    const missing = Object.entries(refs)
      .filter(([, ref]) => ref.id === id && slots[ref.index ?? 0] === undefined)
      .map(([toolCallId]) => toolCallId);
    if (missing.length > 0) {
      throw new ContinuationError(
        'INVALID_DECISION',
        `The human-in-the-loop middleware asked about several calls at once and needs a decision for each; also decide: ${missing.join(', ')}.`,
        { details: { missing } },
      );
    }
    values[id] = { decisions: slots };
  }
  return values;
}

/** What this adapter's approval and input wrappers receive from `interrupt()`. */
export type OwnResume =
  | { type: 'approve'; args?: JsonValue }
  | { type: 'reject'; reason?: string }
  | { type: 'input'; value: JsonValue };

function ownResume(decision: Decision): OwnResume {
  if (decision.type === 'approve')
    return decision.args === undefined ? { type: 'approve' } : { type: 'approve', args: decision.args };
  if (decision.type === 'reject')
    return decision.reason ? { type: 'reject', reason: decision.reason } : { type: 'reject' };
  return { type: 'input', value: decision.value };
}

function hitlDecision(decision: Decision, entry: PendingEntry): JsonObject {
  if (decision.type === 'reject')
    return decision.reason ? { type: 'reject', message: decision.reason } : { type: 'reject' };
  if (decision.type === 'approve' && decision.args !== undefined) {
    return { type: 'edit', editedAction: { name: entry.toolName, args: decision.args } };
  }
  return { type: 'approve' };
}

function ownEntry(value: OwnPayload): PendingEntry {
  const base = { toolCallId: value.toolCallId, toolName: value.toolName, args: value.args };
  if (value[MARK] === 'approval') return { kind: 'approval', ...base };
  if (value[MARK] === 'input') return { kind: 'input', ...base, request: value.request ?? null };
  return { kind: 'agent', ...base, child: value.child as never };
}

/** True for payloads made by this adapter's wrappers. */
export function isOwn(value: unknown): value is OwnPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)[MARK] === 'string'
  );
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
