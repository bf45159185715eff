/**
 * The checkpoint log on Postgres: one append table keyed by run id and sequence number, and one
 * row per run holding its status and the lease of the worker that runs it. Leases are timed by
 * the database clock, so workers on machines with skewed clocks agree on expiry. An append is one
 * statement that advances the run row (fenced by the lease token) and inserts the entry.
 */
import {
  type CheckpointEnd,
  type CheckpointEntry,
  type CheckpointLog,
  type CheckpointStep,
  ContinuationError,
  type Encryption,
  type RunLease,
  type RunRecord,
} from '@agent-continuations/core';
import { decodeLogEntry, encodeLogEntry, leaseLost, runRefused } from '@agent-continuations/core/store-kit';
import pg from 'pg';
import { inTransaction, type MigrationOptions, migration, unavailable, watchPool } from './connection';
import type { PostgresStore } from './postgres-store';

/** Options of {@link createPostgresCheckpointLog}. */
export interface PostgresCheckpointLogOptions extends MigrationOptions {
  /** A pool to use (not closed by the log), or a connection string to open one. */
  pool?: pg.Pool;
  connectionString?: string;
  /** The Postgres schema holding the tables, created when missing; `agent_continuations` by default. */
  schema?: string;
  /**
   * Encrypt entries at rest, as the stores encrypt bodies (see `createEncryption` in the core):
   * the log holds the whole transcript. Rotate keys the same way: old entries stay readable by
   * their key id.
   */
  encryption?: Encryption;
  /**
   * Told of connection errors of idle clients (a server restart, a terminated session); the pool
   * drops such a client and the next call connects anew. Calls in flight fail with
   * `STORE_UNAVAILABLE` instead.
   */
  onError?: (error: unknown) => void;
}

/** A {@link CheckpointLog} on Postgres, with the size of a run's log for monitoring. */
export interface PostgresCheckpointLog extends CheckpointLog {
  unsaved: NonNullable<CheckpointLog['unsaved']>;
  markSaved: NonNullable<CheckpointLog['markSaved']>;
  appendWith: NonNullable<CheckpointLog['appendWith']>;
  /** The pool the log queries through (the one given, or its own). */
  readonly pool: pg.Pool;
  /**
   * Bring the tables to this version, once per log (a failed attempt is tried again by the next
   * call; the first call of any other method migrates too). When they are current it reads one
   * catalog row and locks nothing; otherwise it waits at most `migrationLockTimeoutMs` for its
   * lock and fails with `STORE_UNAVAILABLE`.
   */
  migrate(): Promise<void>;
  /** How many entries and bytes a run's log holds. */
  size(runId: string): Promise<{ entries: number; bytes: number }>;
  /** Drop both tables (tests and teardown). */
  drop(): Promise<void>;
  close(): Promise<void>;
}

/** The version of the tables' layout, recorded as the runs table's comment. */
const LOG_SCHEMA_VERSION = 2;

interface RunRow {
  run_id: string;
  agent_name: string;
  status: RunRecord['status'];
  suspension_id: string | null;
  owner: string | null;
  lease_until: Date | null;
  attempts: number;
  error: string | null;
}

/**
 * Connect a checkpoint log to Postgres; tables are created on first use.
 *
 * @example
 * ```ts
 * const log = createPostgresCheckpointLog({ connectionString: process.env.DATABASE_URL });
 * const result = await runDurably(agent, log, 'Pay the March invoices', { owner: 'worker-1' });
 * ```
 */
export function createPostgresCheckpointLog(options: PostgresCheckpointLogOptions): PostgresCheckpointLog {
  const schema = options.schema ?? 'agent_continuations';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `The schema name "${schema}" is not a plain lower-case SQL name.`,
    );
  }
  if (!options.pool && !options.connectionString) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'Give the checkpoint log a pool or a connection string.',
    );
  }
  const { encryption } = options;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString });
  const unwatch = watchPool(pool, options.onError);
  const runs = `${schema}.checkpoint_runs`;
  const entries = `${schema}.checkpoint_entries`;
  const schemaVersion = `agent-continuations log ${LOG_SCHEMA_VERSION}`;
  const migrations = migration({
    pool,
    what: `Migrating the checkpoint log in ${schema}`,
    // Several workers may start at once; one creates the tables, the others wait for it.
    lockKey: `${schema}.checkpoints`,
    lockTimeoutMs: options.migrationLockTimeoutMs ?? 5_000,
    versioned: { table: runs, version: schemaVersion },
    apply: async (client) => {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${runs} (
          run_id TEXT PRIMARY KEY,
          agent_name TEXT NOT NULL,
          status TEXT NOT NULL,
          suspension_id TEXT,
          owner TEXT,
          token TEXT,
          lease_until TIMESTAMPTZ,
          lease_ms INTEGER NOT NULL,
          next_seq INTEGER NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          error TEXT,
          saved_id TEXT
        );
        ALTER TABLE ${runs} ADD COLUMN IF NOT EXISTS attempts INTEGER NOT NULL DEFAULT 0,
          ADD COLUMN IF NOT EXISTS error TEXT, ADD COLUMN IF NOT EXISTS saved_id TEXT;
        CREATE INDEX IF NOT EXISTS checkpoint_runs_lease ON ${runs} (lease_until) WHERE status = 'running';
        CREATE TABLE IF NOT EXISTS ${entries} (
          run_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          type TEXT NOT NULL,
          body TEXT NOT NULL,
          PRIMARY KEY (run_id, seq)
        );
        COMMENT ON TABLE ${runs} IS '${schemaVersion}';`);
    },
  });
  const { ready } = migrations;
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[]) => {
    await ready();
    try {
      return await pool.query<R>(text, values);
    } catch (error) {
      throw unavailable(error, `A query on the checkpoint log in ${schema}`);
    }
  };
  /** A transaction on one client, with the log's tables ready before it connects. */
  const transaction = async <T>(what: string, work: (client: pg.PoolClient) => Promise<T>) => {
    await ready();
    return inTransaction(pool, what, work);
  };

  // One statement: advance the run row (fenced by the lease token) and insert the entry.
  const APPEND = `WITH run AS (
      UPDATE ${runs} SET next_seq = next_seq + 1, status = $3,
        lease_until = CASE WHEN $4 THEN NULL ELSE now() + lease_ms * interval '1 millisecond' END,
        token = CASE WHEN $4 THEN NULL ELSE token END,
        suspension_id = COALESCE($5, suspension_id)
      WHERE run_id = $1 AND token = $2 AND status = 'running'
      RETURNING next_seq - 1 AS seq
    )
    INSERT INTO ${entries} (run_id, seq, type, body) SELECT $1, seq, $6, $7 FROM run`;
  const appendValues = async (lease: RunLease, entry: CheckpointStep | CheckpointEnd) => {
    const ends = entry.type !== 'step';
    const status = entry.type === 'end' ? entry.status : entry.type === 'suspend' ? 'suspended' : 'running';
    const suspensionId = entry.type === 'suspend' ? (entry.suspension?.id ?? null) : null;
    const body = await encodeLogEntry(entry, lease.runId, encryption);
    return [lease.runId, lease.token, status, ends, suspensionId, entry.type, body];
  };

  return {
    pool,
    migrate: migrations.migrate,
    async begin(start, lease) {
      const token = crypto.randomUUID();
      const body = await encodeLogEntry(start, start.runId, encryption);
      return transaction(`Beginning run ${start.runId}`, async (client) => {
        const inserted = await client.query(
          `INSERT INTO ${runs} (run_id, agent_name, status, lease_ms, next_seq) VALUES ($1, $2, 'new', $3, 1)
           ON CONFLICT (run_id) DO NOTHING`,
          [start.runId, start.agentName, lease.leaseMs],
        );
        const row = (
          await client.query<{ status: string; next_seq: number }>(
            `SELECT status, next_seq FROM ${runs} WHERE run_id = $1 FOR UPDATE`,
            [start.runId],
          )
        ).rows[0]!;
        if (inserted.rowCount === 0 && start.input)
          throw runRefused(start.runId, 'a run with this id was already started');
        if (row.status === 'running') throw runRefused(start.runId, 'it is running, or awaits recovery');
        await client.query(`INSERT INTO ${entries} (run_id, seq, type, body) VALUES ($1, $2, 'start', $3)`, [
          start.runId,
          row.next_seq,
          body,
        ]);
        // A segment under a store claim owes the store that record's settlement (see `unsaved`);
        // a new run without one owes nothing.
        const updated = await client.query<{ lease_until: Date }>(
          `UPDATE ${runs} SET status = 'running', owner = $2, token = $3, lease_ms = $4::integer,
             lease_until = now() + $4::integer * interval '1 millisecond', next_seq = next_seq + 1,
             attempts = 0, error = NULL,
             saved_id = CASE WHEN $5::boolean THEN NULL WHEN $6::boolean THEN '' ELSE saved_id END
           WHERE run_id = $1 RETURNING lease_until`,
          [
            start.runId,
            lease.owner,
            token,
            lease.leaseMs,
            start.claim !== undefined,
            inserted.rowCount === 1,
          ],
        );
        return {
          runId: start.runId,
          owner: lease.owner,
          token,
          leaseUntil: updated.rows[0]!.lease_until.toISOString(),
        };
      });
    },
    async append(lease, entry) {
      const result = await query(APPEND, await appendValues(lease, entry));
      if (result.rowCount === 0) throw leaseLost(lease);
    },
    async appendWith(lease, entry, write) {
      const store = write.store as Partial<PostgresStore>;
      // Only a Postgres store on this very pool can write in the log's transaction.
      if (store.pool !== pool || typeof store.writeIn !== 'function') return false;
      // The store's table is ready before the transaction holds a connection: on one pool, a
      // migration inside it would wait for a second one, which concurrent transactions may hold.
      await store.ready?.();
      const values = await appendValues(lease, entry);
      await transaction(`Recording a step of run ${lease.runId}`, async (client) => {
        const result = await client.query(APPEND, values);
        if (result.rowCount === 0) throw leaseLost(lease);
        await store.writeIn!(client, write);
        // The suspension is saved with it, or the run's end settled in the store.
        const id = entry.type === 'suspend' ? entry.suspension?.id : lease.runId;
        if (id) await client.query(`UPDATE ${runs} SET saved_id = $2 WHERE run_id = $1`, [lease.runId, id]);
      });
      return true;
    },
    async renew(lease) {
      const result = await query(
        `UPDATE ${runs} SET lease_until = now() + lease_ms * interval '1 millisecond'
         WHERE run_id = $1 AND token = $2 AND status = 'running'`,
        [lease.runId, lease.token],
      );
      if (result.rowCount === 0) throw leaseLost(lease);
    },
    async fail(lease, error) {
      const result = await query(
        // `saved_id` cleared: the failed state is unsaved (listed by `unsaved`) until `markSaved`.
        `UPDATE ${runs} SET status = 'failed', error = $3, token = NULL, lease_until = NULL, saved_id = NULL
         WHERE run_id = $1 AND token = $2 AND status = 'running'`,
        [lease.runId, lease.token, error],
      );
      if (result.rowCount === 0) throw leaseLost(lease);
    },
    async read(runId) {
      const result = await query<{ body: string }>(
        `SELECT body FROM ${entries} WHERE run_id = $1 ORDER BY seq`,
        [runId],
      );
      return Promise.all(
        result.rows.map((row) => decodeLogEntry<CheckpointEntry>(row.body, runId, encryption)),
      );
    },
    async status(runId) {
      const result = await query<RunRow>(`SELECT * FROM ${runs} WHERE run_id = $1 AND status <> 'new'`, [
        runId,
      ]);
      const row = result.rows[0];
      return row ? toRecord(row) : undefined;
    },
    async expired(filter = {}) {
      const result = await query<{ run_id: string }>(
        `SELECT run_id FROM ${runs} WHERE status = 'running' AND lease_until < now() ORDER BY lease_until LIMIT $1`,
        [filter.limit ?? 100],
      );
      return result.rows.map((row) => row.run_id);
    },
    async takeOver(runId, lease) {
      const token = crypto.randomUUID();
      const result = await query<{ lease_until: Date }>(
        // A run row another session holds (a worker frozen inside its transaction) is skipped,
        // not waited for: the sweep takes it over on a later round, once that lock is gone.
        `WITH free AS (
           SELECT run_id FROM ${runs} WHERE run_id = $1 AND status = 'running' AND lease_until < now()
           FOR UPDATE SKIP LOCKED)
         UPDATE ${runs} AS r SET owner = $2, token = $3, lease_ms = $4::integer,
           lease_until = now() + $4::integer * interval '1 millisecond', attempts = attempts + 1
         FROM free WHERE r.run_id = free.run_id RETURNING r.lease_until`,
        [runId, lease.owner, token, lease.leaseMs],
      );
      const row = result.rows[0];
      if (!row)
        throw runRefused(runId, 'it is not a running run with an expired lease, or another session holds it');
      return {
        runId,
        owner: lease.owner,
        token,
        leaseUntil: row.lease_until.toISOString(),
      } satisfies RunLease;
    },
    async unsaved(filter = {}) {
      const result = await query<{ run_id: string }>(
        `SELECT run_id FROM ${runs}
         WHERE (status = 'suspended' AND suspension_id IS NOT NULL AND saved_id IS DISTINCT FROM suspension_id)
           OR (status IN ('failed', 'completed', 'rejected') AND saved_id IS NULL) LIMIT $1`,
        [filter.limit ?? 100],
      );
      return result.rows.map((row) => row.run_id);
    },
    async markSaved(runId, suspensionId) {
      // A failed or ended run's store part is done whatever the suspension id given.
      await query(
        `UPDATE ${runs} SET saved_id = $2 WHERE run_id = $1
           AND (suspension_id = $2 OR status IN ('failed', 'completed', 'rejected'))`,
        [runId, suspensionId],
      );
    },
    async size(runId) {
      const result = await query<{ entries: string; bytes: string | null }>(
        `SELECT COUNT(*) AS entries, SUM(octet_length(body)) AS bytes FROM ${entries} WHERE run_id = $1`,
        [runId],
      );
      const row = result.rows[0]!;
      return { entries: Number(row.entries), bytes: Number(row.bytes ?? 0) };
    },
    async drop() {
      await pool.query(`DROP TABLE IF EXISTS ${entries}, ${runs}`);
      migrations.forget();
    },
    async close() {
      unwatch();
      if (!options.pool) await pool.end();
    },
  };
}

function toRecord(row: RunRow): RunRecord {
  const record: RunRecord = { runId: row.run_id, agentName: row.agent_name, status: row.status };
  if (row.suspension_id) record.suspensionId = row.suspension_id;
  if (row.owner) record.owner = row.owner;
  if (row.lease_until && row.status === 'running') record.leaseUntil = row.lease_until.toISOString();
  if (row.attempts > 0) record.attempts = row.attempts;
  if (row.error !== null && row.status === 'failed') record.error = row.error;
  return record;
}
