/**
 * The continuation store on Postgres: one table, index fields in clear columns (metadata as
 * `jsonb`), the body as canonical JSON text (or a ciphertext). Every claim is one conditional
 * UPDATE, so among claimers on any number of connections and machines exactly one wins. Leases and
 * expiry are timed by the database clock, so workers on machines with skewed clocks agree.
 *
 * Throughput: every hot statement is a named prepared statement (parsed and planned once per
 * connection); loads and completions issued while another is on its way go to the server
 * together as one statement, so that concurrent resumes in one process share a round trip and a
 * commit (one WAL flush for many completions); completing with a next continuation is one
 * statement. `now()` is the database's clock, by which the deadline sweeper judges deadlines too.
 */
import {
  type Claim,
  type ClaimOptions,
  type CompleteOptions,
  type Continuation,
  ContinuationError,
  type ContinuationStore,
  canonicalJson,
  DEFAULT_LEASE_MS,
  type Encryption,
  type JsonObject,
  type ListFilter,
  type ListPage,
  type RenewOptions,
  type SaveOptions,
  type StoredContinuation,
  type StoredStatus,
  type StoredSummary,
} from '@agent-continuations/core';
import {
  cancelWithout,
  claimLost,
  claimRefused,
  decodeStoredBody,
  encodeStoredBody,
  listCursor,
  listLimit,
  listOrder,
  retryRefused,
  summarize,
} from '@agent-continuations/core/store-kit';
import pg from 'pg';
import { inTransaction, type MigrationOptions, migration, unavailable, watchPool } from './connection';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions extends MigrationOptions {
  /** A pool to use; the store does not end it. */
  pool?: pg.Pool;
  /** Or a connection string: the store opens a pool and ends it on `close()`. */
  connectionString?: string;
  /** The schema of the table, created when missing; by default the connection's `search_path` decides. */
  schema?: string;
  /** The table name; `continuations` by default. */
  table?: string;
  /** Encrypt bodies at rest (see `createEncryption` in the core). */
  encryption?: Encryption;
  /**
   * Create the schema and table on first use (default); `false` to call {@link PostgresStore.migrate}
   * yourself (at deploy time, or at a worker's start).
   */
  autoMigrate?: boolean;
  /**
   * Told of connection errors of idle clients (a server restart, a terminated session); the pool
   * drops such a client and the next call connects anew. Calls in flight fail with
   * `STORE_UNAVAILABLE` instead.
   */
  onError?: (error: unknown) => void;
}

/** A {@link ContinuationStore} on Postgres. */
export interface PostgresStore extends ContinuationStore {
  /** The quoted table name (`"schema"."table"` when a schema was given), for your own queries. */
  readonly table: string;
  /** The pool the store queries through; a checkpoint log given the same pool writes with it in one transaction. */
  readonly pool: pg.Pool;
  /**
   * For a checkpoint log on the same pool: make `write` (`complete(claim, { next })`, or
   * `save(next)`) on `client`, inside the log's open transaction. `LEASE_LOST` when the claim is
   * no longer held (the caller rolls back).
   */
  writeIn(
    client: pg.ClientBase,
    write: { next?: Continuation; claim?: Claim; save?: SaveOptions },
  ): Promise<void>;
  /**
   * Bring the schema, table and indexes to this version, once per store (a failed attempt is
   * tried again by the next call). When the table's version is current it reads one catalog row
   * and locks nothing; otherwise it waits at most `migrationLockTimeoutMs` for its lock and fails
   * with `STORE_UNAVAILABLE`. Safe to call from many processes at once.
   */
  migrate(): Promise<void>;
  /** Resolves once the table is ready: migrated (with `autoMigrate`, the default) or trusted to be. */
  ready(): Promise<void>;
  /** The database's clock (`now()`), by which leases, expiries and deadlines are judged. */
  now(): Promise<Date>;
  /** Drop the table (tests and teardown). */
  drop(): Promise<void>;
  close(): Promise<void>;
}

interface Row {
  seq: string;
  id: string;
  run_id: string;
  agent_name: string;
  metadata: JsonObject;
  created_at: string;
  expires_at: Date | null;
  status: StoredStatus;
  error: string | null;
  claim_owner: string | null;
  body?: string;
}

/** The version of the table's layout, recorded as its comment. */
const STORE_SCHEMA_VERSION = 3;

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;
/** Most calls one batched statement carries. */
const BATCH_MAX = 256;

/** A query config for a named prepared statement, its name derived from its text (FNV-1a). */
function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return { name: `ac_${(hash >>> 0).toString(36)}_${text.length.toString(36)}`, text, values };
}

/**
 * Calls to `run` made while one of its batches is on its way to the server are gathered and sent
 * together when it returns (at most {@link BATCH_MAX} at once): one round trip, and for writes one
 * commit, for many callers. With `distinct`, a key already in a batch waits for the next one, so
 * a statement never carries the same row twice. A batch that fails is retried one call at a time,
 * so that one call's error is only its own.
 */
function batched<I, O>(
  run: (items: I[]) => Promise<O[]>,
  distinct?: (item: I) => string,
): (item: I) => Promise<O> {
  type Waiting = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };
  let queue: Waiting[] = [];
  let busy = false;
  const settle = async (batch: Waiting[]) => {
    try {
      const results = await run(batch.map((waiting) => waiting.item));
      for (const [i, waiting] of batch.entries()) waiting.resolve(results[i]!);
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else for (const waiting of batch) await settle([waiting]);
    }
  };
  const drain = async () => {
    busy = true;
    while (queue.length > 0) {
      const batch: Waiting[] = [];
      const rest: Waiting[] = [];
      const keys = new Set<string>();
      for (const waiting of queue) {
        const key = distinct?.(waiting.item);
        if (batch.length >= BATCH_MAX || (key !== undefined && keys.has(key))) rest.push(waiting);
        else {
          if (key !== undefined) keys.add(key);
          batch.push(waiting);
        }
      }
      queue = rest;
      await settle(batch);
    }
    busy = false;
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!busy) void drain();
    });
}
const STATUS = `CASE WHEN cancelled THEN 'cancelled'
  WHEN completed THEN 'completed'
  WHEN failed THEN 'failed'
  WHEN expires_at IS NOT NULL AND expires_at <= now() THEN 'expired'
  WHEN lease_until IS NOT NULL AND lease_until > now() THEN 'claimed'
  ELSE 'suspended' END`;
const SUMMARY = `seq, id, run_id, agent_name, metadata, created_at, expires_at, error, claim_owner,
  ${STATUS} AS status`;
/** A record that a claim may take now. */
const CLAIMABLE = `(NOT completed AND NOT failed AND (expires_at IS NULL OR expires_at > now())
  AND (lease_until IS NULL OR lease_until <= now()))`;
/** A record that the claim ($1 id, $2 token) holds: a lapsed lease that nobody took still holds. */
const HELD = 'id = $1 AND claim_token = $2 AND NOT completed AND NOT failed';

/**
 * Create a continuation store on Postgres.
 *
 * @example
 * ```ts
 * const store = createPostgresStore({ connectionString: process.env.DATABASE_URL });
 * await store.save(result.continuation);
 * const next = await resumeStored(store, agent, result.continuation.id, decisions);
 * ```
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'createPostgresStore needs exactly one of `pool` or `connectionString`.',
    );
  }
  const { schema } = options;
  const name = options.table ?? 'continuations';
  for (const identifier of schema === undefined ? [name] : [schema, name]) {
    if (!NAME.test(identifier)) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `"${identifier}" is not a plain SQL name (up to 48 characters).`,
      );
    }
  }
  const table = schema === undefined ? `"${name}"` : `"${schema}"."${name}"`;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString });
  const unwatch = watchPool(pool, options.onError);
  const { encryption } = options;

  const schemaVersion = `agent-continuations store ${STORE_SCHEMA_VERSION}`;
  const migrations = migration({
    pool,
    what: `Migrating ${table}`,
    lockKey: 'agent-continuations:migrate',
    lockTimeoutMs: options.migrationLockTimeoutMs ?? 5_000,
    versioned: { table: table, version: schemaVersion },
    apply: async (client) => {
      if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${table} (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          run_id TEXT NOT NULL,
          agent_name TEXT NOT NULL,
          metadata JSONB NOT NULL,
          created_at TEXT NOT NULL,
          expires_at TIMESTAMPTZ,
          completed BOOLEAN NOT NULL DEFAULT false,
          failed BOOLEAN NOT NULL DEFAULT false,
          error TEXT,
          cancelled BOOLEAN NOT NULL DEFAULT false,
          claim_owner TEXT,
          claim_token TEXT,
          lease_until TIMESTAMPTZ,
          body TEXT NOT NULL
        )`);
      // Tables made before failed runs were recorded, or runs could be cancelled, gain the columns.
      await client.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS failed BOOLEAN NOT NULL DEFAULT false,
        ADD COLUMN IF NOT EXISTS error TEXT, ADD COLUMN IF NOT EXISTS cancelled BOOLEAN NOT NULL DEFAULT false`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${name}_run" ON ${table} (run_id, seq)`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${name}_agent" ON ${table} (agent_name, seq)`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${name}_metadata" ON ${table} USING GIN (metadata)`);
      await client.query(`COMMENT ON TABLE ${table} IS '${schemaVersion}'`);
    },
  });
  const ready = () => (options.autoMigrate === false ? Promise.resolve() : migrations.ready());
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[]) => {
    await ready();
    try {
      return await pool.query<R>(prepared(text, values));
    } catch (error) {
      throw unavailable(error, `A query on ${table}`);
    }
  };
  const INSERT = `INSERT INTO ${table} (id, run_id, agent_name, metadata, created_at, expires_at, body)
    VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)`;
  const INSERT_NEW = `${INSERT} ON CONFLICT (id) DO NOTHING`;
  const UPSERT = `${INSERT}
    ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, agent_name = excluded.agent_name,
      metadata = excluded.metadata, created_at = excluded.created_at, expires_at = excluded.expires_at,
      body = excluded.body, completed = false, failed = false, cancelled = false, error = NULL, claim_owner = NULL,
      claim_token = NULL, lease_until = NULL`;
  const upsertValues = async (continuation: Continuation, saveOptions: SaveOptions) => {
    // summarize validates expiresAt (INVALID_OPERATION) before anything is written.
    const { expiresAt } = summarize(continuation, saveOptions.expiresAt);
    return [
      continuation.id,
      continuation.runId,
      continuation.agent.name,
      canonicalJson(continuation.metadata),
      continuation.createdAt,
      expiresAt ?? null,
      await encodeStoredBody(continuation, encryption),
    ];
  };
  // One statement completes a claim and saves the next continuation, so that the claim's end and
  // the new record commit together in one round trip. Only for a next record other than the
  // claimed one (a statement cannot update one row twice); the same id goes through a transaction.
  const COMPLETE_AND_SAVE = `WITH done AS (
      UPDATE ${table} SET completed = true WHERE id = $1 AND claim_token = $2 AND NOT completed AND NOT failed
      RETURNING id)
    INSERT INTO ${table} (id, run_id, agent_name, metadata, created_at, expires_at, body)
    SELECT $3::text, $4::text, $5::text, $6::jsonb, $7::text, $8::timestamptz, $9::text FROM done
    ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, agent_name = excluded.agent_name,
      metadata = excluded.metadata, created_at = excluded.created_at, expires_at = excluded.expires_at,
      body = excluded.body, completed = false, failed = false, cancelled = false, error = NULL, claim_owner = NULL,
      claim_token = NULL, lease_until = NULL`;
  const loadMany = batched(async (ids: string[]) => {
    const { rows } = await query<Row>(`SELECT ${SUMMARY}, body FROM ${table} WHERE id = ANY($1::text[])`, [
      ids,
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  });
  // Completions of distinct claims, in one UPDATE; a claim that no longer holds is not returned.
  const completeMany = batched(
    async (claims: Claim[]) => {
      const { rows } = await query<{ id: string }>(
        `UPDATE ${table} AS t SET completed = true
         FROM unnest($1::text[], $2::text[]) AS c(id, token)
         WHERE t.id = c.id AND t.claim_token = c.token AND NOT t.completed AND NOT t.failed
         RETURNING t.id`,
        [claims.map((claim) => claim.id), claims.map((claim) => claim.token)],
      );
      const done = new Set(rows.map((row) => row.id));
      return claims.map((claim) => done.has(claim.id));
    },
    (claim) => claim.id,
  );
  const heldUpdate = async (claim: Claim, set: string, values: unknown[] = []) => {
    const { rowCount } = await query(`UPDATE ${table} SET ${set} WHERE ${HELD}`, [
      claim.id,
      claim.token,
      ...values,
    ]);
    if (!rowCount) throw claimLost(claim);
  };

  return {
    table,
    pool,
    async writeIn(client, write) {
      const values = write.next && (await upsertValues(write.next, write.save ?? {}));
      await ready();
      if (write.claim) {
        const done = await client.query(`UPDATE ${table} SET completed = true WHERE ${HELD}`, [
          write.claim.id,
          write.claim.token,
        ]);
        if (!done.rowCount) throw claimLost(write.claim);
      }
      if (values) await client.query(UPSERT, values);
    },
    capabilities: { leases: true, expiry: true, multiProcess: true },
    migrate: migrations.migrate,
    ready,
    async drop() {
      await pool.query(`DROP TABLE IF EXISTS ${table}`);
      migrations.forget();
    },
    async save(continuation: Continuation, saveOptions: SaveOptions = {}) {
      await query(UPSERT, await upsertValues(continuation, saveOptions));
    },
    async saveIfAbsent(continuation: Continuation, saveOptions: SaveOptions = {}) {
      const { rowCount } = await query(INSERT_NEW, await upsertValues(continuation, saveOptions));
      return rowCount === 1;
    },
    async load(id: string): Promise<StoredContinuation | undefined> {
      const row = await loadMany(id);
      if (!row) return undefined;
      return { ...summaryOf(row), continuation: await decodeStoredBody(row.body!, row.id, encryption) };
    },
    async list(filter: ListFilter = {}): Promise<ListPage> {
      const limit = listLimit(filter.limit);
      const desc = listOrder(filter.order) === 'desc';
      const values: unknown[] = [];
      const where: string[] = [];
      const bind = (value: unknown) => `$${values.push(value)}`;
      if (filter.cursor !== undefined) {
        where.push(`seq ${desc ? '<' : '>'} ${bind(listCursor(filter.cursor))}::bigint`);
      }
      if (filter.agentName !== undefined) where.push(`agent_name = ${bind(filter.agentName)}`);
      if (filter.runId !== undefined) where.push(`run_id = ${bind(filter.runId)}`);
      if (filter.status !== undefined) {
        where.push(`(${STATUS}) = ANY(${bind(([] as StoredStatus[]).concat(filter.status))}::text[])`);
      }
      for (const [key, value] of Object.entries(filter.metadata ?? {})) {
        // jsonb equality: same type and value, object key order ignored.
        where.push(`metadata -> ${bind(key)} = ${bind(canonicalJson(value))}::jsonb`);
      }
      const { rows } = await query<Row>(
        `SELECT ${SUMMARY} FROM ${table} WHERE ${where.join(' AND ') || 'true'}
         ORDER BY seq ${desc ? 'DESC' : 'ASC'} LIMIT ${bind(limit + 1)}`,
        values,
      );
      const page = rows.slice(0, limit);
      const items = page.map(summaryOf);
      return rows.length > limit ? { items, cursor: page[page.length - 1]!.seq } : { items };
    },
    async delete(id: string) {
      const { rowCount } = await query(`DELETE FROM ${table} WHERE id = $1`, [id]);
      return (rowCount ?? 0) > 0;
    },
    async claim(id: string, claimOptions: ClaimOptions = {}): Promise<Claim> {
      const owner = claimOptions.owner ?? 'postgres';
      const token = crypto.randomUUID();
      // One statement decides and explains: the row is locked and read at its newest version, the
      // claim is taken only when it is claimable, and RETURNING reports the state that refused it
      // (a second SELECT could see a lease that lapsed in between, and explain nothing).
      const { rows } = await query<Row & { won: boolean; lease_until: Date | null }>(
        `UPDATE ${table} SET
           claim_owner = CASE WHEN ${CLAIMABLE} THEN $2 ELSE claim_owner END,
           claim_token = CASE WHEN ${CLAIMABLE} THEN $3 ELSE claim_token END,
           lease_until = CASE WHEN ${CLAIMABLE}
             THEN now() + $4::double precision * interval '1 millisecond' ELSE lease_until END
         WHERE id = $1
         RETURNING claim_token IS NOT DISTINCT FROM $3 AS won, lease_until, expires_at, error, ${STATUS} AS status`,
        [id, owner, token, claimOptions.leaseMs ?? DEFAULT_LEASE_MS],
      );
      const row = rows[0];
      if (row?.won) return { id, owner, token, leaseUntil: row.lease_until!.toISOString() };
      throw claimRefused(id, row ? row.status : 'missing', row?.expires_at, row?.error);
    },
    async renew(claim: Claim, renewOptions: RenewOptions = {}): Promise<Claim> {
      const { rows } = await query<{ lease_until: Date }>(
        `UPDATE ${table} SET lease_until = now() + $3::double precision * interval '1 millisecond'
         WHERE ${HELD} RETURNING lease_until`,
        [claim.id, claim.token, renewOptions.leaseMs ?? DEFAULT_LEASE_MS],
      );
      if (!rows[0]) throw claimLost(claim);
      return { ...claim, leaseUntil: rows[0].lease_until.toISOString() };
    },
    async complete(claim: Claim, completeOptions: CompleteOptions = {}) {
      const { next, cancelled, ...saveOptions } = completeOptions;
      cancelWithout(next, cancelled);
      if (cancelled) {
        // A cancelled row is completed too (never claimed again); the person's reason is kept in `error`.
        await heldUpdate(claim, 'completed = true, cancelled = true, error = $3', [cancelled.reason ?? null]);
        return;
      }
      if (!next) {
        if (!(await completeMany(claim))) throw claimLost(claim);
        return;
      }
      const values = await upsertValues(next, saveOptions);
      if (next.id !== claim.id) {
        const { rowCount } = await query(COMPLETE_AND_SAVE, [claim.id, claim.token, ...values]);
        if (!rowCount) throw claimLost(claim);
        return;
      }
      await ready();
      await inTransaction(pool, `Completing ${claim.id}`, async (client) => {
        const done = await client.query(`UPDATE ${table} SET completed = true WHERE ${HELD}`, [
          claim.id,
          claim.token,
        ]);
        if (!done.rowCount) throw claimLost(claim);
        await client.query(UPSERT, values);
      });
    },
    async release(claim: Claim) {
      await heldUpdate(claim, 'claim_owner = NULL, claim_token = NULL, lease_until = NULL');
    },
    async fail(claim: Claim, error: string) {
      await heldUpdate(
        claim,
        'failed = true, error = $3, claim_owner = NULL, claim_token = NULL, lease_until = NULL',
        [error],
      );
    },
    async now() {
      return (await query<{ now: Date }>('SELECT now() AS now', [])).rows[0]!.now;
    },
    async retry(id: string) {
      const { rows } = await query<{ status: StoredStatus; retried: boolean }>(
        `WITH retried AS (
           UPDATE ${table} SET failed = false, error = NULL WHERE id = $1 AND NOT completed AND failed
           RETURNING id)
         SELECT EXISTS (SELECT 1 FROM retried) AS retried,
           (SELECT ${STATUS} FROM ${table} WHERE id = $1) AS status`,
        [id],
      );
      const row = rows[0]!;
      if (!row.retried) throw retryRefused(id, row.status ?? 'missing');
    },
    async close() {
      unwatch();
      if (!options.pool) await pool.end();
    },
  };
}

function summaryOf(row: Row): StoredSummary {
  const summary: StoredSummary = {
    id: row.id,
    runId: row.run_id,
    agentName: row.agent_name,
    status: row.status,
    metadata: row.metadata,
    createdAt: row.created_at,
  };
  if (row.expires_at !== null) summary.expiresAt = row.expires_at.toISOString();
  if (row.status === 'failed' && row.error !== null) summary.error = row.error;
  if (row.status === 'cancelled' && row.error !== null) summary.reason = row.error;
  // A completed (or cancelled) row keeps the owner of the claim that completed it.
  const ended = row.status === 'completed' || row.status === 'cancelled';
  if (ended && row.claim_owner !== null) summary.resumedBy = row.claim_owner;
  return summary;
}
