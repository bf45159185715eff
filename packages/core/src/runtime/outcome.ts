/**
 * What became of a stored record once it no longer waits, for the people who look at it (the
 * console's run page, the CLI's `show`): the decisions made on its actions, each decided call's
 * result and, when the checkpoint log keeps it, the run's final answer.
 */
import type { CheckpointLog } from '../durable/checkpoint';
import { replayCheckpoints } from '../durable/checkpoint';
import { listActions } from '../engine/actions';
import type { AuditEntry, Continuation } from '../format/format';
import type { JsonValue } from '../format/json';
import type { ContinuationStore, StoredContinuation, StoredStatus } from '../stores/store';

/** What became of a stored record: see {@link Runtime.outcome}. */
export interface RunOutcome {
  /** The decisions made on the record's actions (who, when, the original and edited arguments). */
  decisions: AuditEntry[];
  /**
   * The result of each decided call, as the run's transcript holds it: for an action inside a
   * sub-agent, the result of the call at the top of its chain (the sub-agent's answer).
   */
  results: Array<{ callId: string; toolName: string; output: JsonValue }>;
  /** The run's final answer, when it completed and the checkpoint log keeps it. */
  output?: JsonValue;
  /** Set when a person ended the whole run here: who, and the reason they gave. */
  cancelled?: { by?: string; reason?: string };
  /** The newest continuation of the same run saved after this one, when there is one. */
  later?: { id: string; status: StoredStatus; createdAt: string };
}

/**
 * The outcome of `stored`, read from the log when there is one (the run's replayed state and
 * final answer), else from the run's later continuation in the store.
 */
export async function outcomeOf(
  store: ContinuationStore,
  log: CheckpointLog | undefined,
  stored: StoredContinuation,
): Promise<RunOutcome> {
  const later = await laterRecord(store, stored);
  let state: Continuation | undefined;
  let output: JsonValue | undefined;
  let ended: string | undefined;
  const entries = log ? await log.read(stored.runId) : [];
  if (entries.length > 0) {
    const replay = replayCheckpoints(entries);
    state = replay.continuation;
    output = replay.output;
    ended = replay.status;
  }
  if (!state && later) state = (await store.load(later.id))?.continuation;
  const ids = new Set(listActions(stored.continuation).map((action) => action.id));
  const since = Date.parse(stored.createdAt);
  const decisions = (state?.decisions ?? []).filter(
    (entry) => ids.has(entry.actionId) && Date.parse(entry.at) >= since,
  );
  const results: RunOutcome['results'] = [];
  for (const entry of decisions) {
    const callId = entry.actionId.split('/')[0]!;
    if (results.some((result) => result.callId === callId)) continue;
    const found = resultOf(state?.messages ?? [], callId);
    if (found) results.push({ callId, ...found });
  }
  return {
    decisions,
    results,
    ...(output !== undefined && ended === 'completed' ? { output } : {}),
    ...(stored.status === 'cancelled'
      ? {
          cancelled: {
            ...(stored.resumedBy === undefined ? {} : { by: stored.resumedBy }),
            ...(stored.reason === undefined ? {} : { reason: stored.reason }),
          },
        }
      : {}),
    ...(later ? { later } : {}),
  };
}

/** The tool result of call `callId` in `messages`, if it is there. */
function resultOf(
  messages: Continuation['messages'],
  callId: string,
): { toolName: string; output: JsonValue } | undefined {
  for (const message of messages) {
    if (message.role !== 'tool' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result' && part.toolCallId === callId) {
        return { toolName: part.toolName, output: part.output };
      }
    }
  }
  return undefined;
}

/** The newest continuation of `stored`'s run saved after it, if any. */
async function laterRecord(
  store: ContinuationStore,
  stored: StoredContinuation,
): Promise<RunOutcome['later'] | undefined> {
  let latest: RunOutcome['later'] | undefined;
  const since = Date.parse(stored.createdAt);
  let cursor: string | undefined;
  do {
    const listed = await store.list({ runId: stored.runId, limit: 100, ...(cursor ? { cursor } : {}) });
    for (const item of listed.items) {
      if (item.id === stored.id || Date.parse(item.createdAt) < since) continue;
      if (!latest || Date.parse(item.createdAt) >= Date.parse(latest.createdAt)) {
        latest = { id: item.id, status: item.status, createdAt: item.createdAt };
      }
    }
    cursor = listed.cursor;
  } while (cursor);
  return latest;
}
