/**
 * The mutable state of one run segment, and how it becomes a continuation.
 */
import type {
  AgentRef,
  AuditEntry,
  Continuation,
  DoneEntry,
  PendingEntry,
  SuspendReason,
  Usage,
} from '../format/format';
import type { JsonObject, JsonValue } from '../format/json';
import { type Message, toolCallsOf } from '../format/messages';
import { newContinuation } from './new-continuation';

export interface RunState {
  runId: string;
  agent: AgentRef;
  messages: Message[];
  step: number;
  usage: Usage;
  metadata: JsonObject;
  audit: AuditEntry[];
  /** Unsettled calls of the current turn, by tool-call id. */
  pending: Map<string, PendingEntry>;
  /** Settled calls of the current turn, by tool-call id. */
  done: Map<string, DoneEntry>;
  segment: { startedAt: number; step: number; usage: Usage };
  /** Adapter-native data every continuation of this segment carries as its `state`. */
  native?: JsonValue;
}

/** A new id for a run or a suspension. */
export function newId(): string {
  return crypto.randomUUID();
}

/** The state a continuation describes, ready to drive. */
export function stateFromContinuation(continuation: Continuation, agent: AgentRef): RunState {
  return {
    runId: continuation.runId,
    agent,
    messages: [...continuation.messages],
    step: continuation.step,
    usage: { ...continuation.usage },
    metadata: continuation.metadata,
    audit: [...continuation.decisions],
    pending: new Map(continuation.pending.map((entry) => [entry.toolCallId, entry])),
    done: new Map(continuation.done.map((entry) => [entry.toolCallId, entry])),
    segment: { startedAt: Date.now(), step: continuation.step, usage: { ...continuation.usage } },
  };
}

/**
 * Freeze the state into a continuation. Pending and done follow the order of the turn's calls.
 * `extra.overrides` stand in for their calls' pending entries (sub-agents' states mid-run), for
 * calls that are not done.
 */
export function snapshot(
  state: RunState,
  suspendedBy: SuspendReason,
  extra: { state?: Continuation['state']; overrides?: ReadonlyMap<string, PendingEntry> } = {},
): Continuation {
  const order = toolCallsOf(state.messages[state.messages.length - 1]).map((call) => call.toolCallId);
  const byTurnOrder = <T extends { toolCallId: string }>(map: Map<string, T>): T[] =>
    order.filter((id) => map.has(id)).map((id) => map.get(id)!);
  let pending = state.pending;
  if (extra.overrides && extra.overrides.size > 0) {
    pending = new Map(pending);
    for (const [id, entry] of extra.overrides) if (!state.done.has(id)) pending.set(id, entry);
  }
  const native = extra.state !== undefined ? extra.state : state.native;
  return newContinuation(state, {
    messages: [...state.messages],
    pending: byTurnOrder(pending),
    done: byTurnOrder(state.done),
    step: state.step,
    usage: { ...state.usage },
    suspendedBy,
    ...(native === undefined ? {} : { state: native }),
  });
}
