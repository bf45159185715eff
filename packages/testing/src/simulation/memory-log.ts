/**
 * An in-memory {@link CheckpointLog} for the simulation, with the SQLite log's semantics (leases
 * fenced by token, `begin` refused while running, take-over of expired runs counted in `attempts`,
 * suspensions, failed runs and ended runs owing a store claim's settlement not yet marked saved in
 * a store listed by `unsaved`).
 * Time is `Date.now()`, so the simulation's clock makes leases lapse.
 */
import type { CheckpointEntry, CheckpointLog, RunLease, RunRecord } from '@agent-continuations/core';
import { leaseLost, runRefused } from '@agent-continuations/core/store-kit';

interface Run {
  record: RunRecord;
  /**
   * The last suspension a store is known to hold (see `markSaved`); for an ended run, absent while
   * the stored record its last segment was claimed under is not known settled.
   */
  savedId?: string;
  /** A failed run's state is known saved in a store as failed (see `markSaved`). */
  failSaved?: boolean;
  token?: string;
  leaseUntil?: number;
  leaseMs: number;
  /** Entries as JSON text, so readers get copies. */
  entries: string[];
}

/** A checkpoint log kept in memory; its entries are JSON text, so what you read is a copy. */
export type MemoryCheckpointLog = CheckpointLog & {
  fail(lease: RunLease, error: string): Promise<void>;
  unsaved(options?: { limit?: number }): Promise<string[]>;
  markSaved(runId: string, suspensionId: string): Promise<void>;
  size(runId: string): Promise<{ entries: number; bytes: number }>;
};

/**
 * Create an in-memory checkpoint log (for the simulation and tests).
 *
 * @example
 * ```ts
 * const log = createMemoryCheckpointLog();
 * await runDurably(agent, log, 'Pay the invoices', { owner: 'worker-1' });
 * ```
 */
export function createMemoryCheckpointLog(): MemoryCheckpointLog {
  const runs = new Map<string, Run>();
  const held = (lease: RunLease): Run => {
    const run = runs.get(lease.runId);
    if (!run || run.token !== lease.token || run.record.status !== 'running') throw leaseLost(lease);
    return run;
  };
  const leaseOf = (run: Run, runId: string, owner: string): RunLease => {
    const token = crypto.randomUUID();
    run.token = token;
    run.leaseUntil = Date.now() + run.leaseMs;
    run.record.owner = owner;
    return { runId, owner, token, leaseUntil: new Date(run.leaseUntil).toISOString() };
  };
  return {
    async begin(start, options) {
      const existing = runs.get(start.runId);
      if (existing && start.input) throw runRefused(start.runId, 'a run with this id was already started');
      if (existing?.record.status === 'running')
        throw runRefused(start.runId, 'it is running, or awaits recovery');
      const run: Run = existing ?? {
        record: { runId: start.runId, agentName: start.agentName, status: 'running' },
        leaseMs: options.leaseMs,
        entries: [],
      };
      run.leaseMs = options.leaseMs;
      run.record = {
        runId: start.runId,
        agentName: start.agentName,
        status: 'running',
        ...(existing?.record.suspensionId ? { suspensionId: existing.record.suspensionId } : {}),
      };
      // A segment under a store claim owes the store that record's settlement (see `unsaved`).
      if (start.claim) delete run.savedId;
      else if (!existing) run.savedId = '';
      runs.set(start.runId, run);
      run.entries.push(JSON.stringify(start));
      return leaseOf(run, start.runId, options.owner);
    },
    async append(lease, entry) {
      const run = held(lease);
      run.entries.push(JSON.stringify(entry));
      if (entry.type === 'step') {
        run.leaseUntil = Date.now() + run.leaseMs;
        return;
      }
      run.record.status = entry.type === 'end' ? entry.status : 'suspended';
      if (entry.type === 'suspend' && entry.suspension) run.record.suspensionId = entry.suspension.id;
      delete run.token;
      delete run.leaseUntil;
    },
    async renew(lease) {
      const run = held(lease);
      run.leaseUntil = Date.now() + run.leaseMs;
    },
    async fail(lease, error) {
      const run = held(lease);
      run.record.status = 'failed';
      run.record.error = error;
      run.failSaved = false;
      delete run.token;
      delete run.leaseUntil;
    },
    async read(runId) {
      return (runs.get(runId)?.entries ?? []).map((text) => JSON.parse(text) as CheckpointEntry);
    },
    async status(runId) {
      const run = runs.get(runId);
      if (!run) return undefined;
      return {
        ...run.record,
        ...(run.leaseUntil === undefined ? {} : { leaseUntil: new Date(run.leaseUntil).toISOString() }),
      };
    },
    async expired(options = {}) {
      const now = Date.now();
      return [...runs.values()]
        .filter((run) => run.record.status === 'running' && (run.leaseUntil ?? 0) < now)
        .slice(0, options.limit ?? 100)
        .map((run) => run.record.runId);
    },
    async takeOver(runId, options) {
      const run = runs.get(runId);
      if (run?.record.status !== 'running' || (run.leaseUntil ?? 0) >= Date.now()) {
        throw runRefused(runId, 'it is not a running run with an expired lease');
      }
      run.leaseMs = options.leaseMs;
      run.record.attempts = (run.record.attempts ?? 0) + 1;
      return leaseOf(run, runId, options.owner);
    },
    async unsaved(options = {}) {
      return [...runs.values()]
        .filter(
          (run) =>
            (run.record.status === 'suspended' &&
              run.record.suspensionId !== undefined &&
              run.savedId !== run.record.suspensionId) ||
            (run.record.status === 'failed' && !run.failSaved) ||
            ((run.record.status === 'completed' || run.record.status === 'rejected') &&
              run.savedId === undefined),
        )
        .slice(0, options.limit ?? 100)
        .map((run) => run.record.runId);
    },
    async markSaved(runId, suspensionId) {
      const run = runs.get(runId);
      if (run?.record.status === 'failed') run.failSaved = true;
      else if (run?.record.status === 'completed' || run?.record.status === 'rejected') run.savedId = runId;
      else if (run && run.record.suspensionId === suspensionId) run.savedId = suspensionId;
    },
    async size(runId) {
      const entries = runs.get(runId)?.entries ?? [];
      return { entries: entries.length, bytes: entries.reduce((sum, text) => sum + text.length, 0) };
    },
  };
}
