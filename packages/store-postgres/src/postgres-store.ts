/**
 * The continuation store on Postgres: one table, index fields in clear columns (metadata as
 * `jsonb`), the body as canonical JSON text (or a ciphertext). Every claim is one conditional
 * UPDATE, so among claimers on any number of connections and machines exactly one wins. Leases and
 * expiry are timed by the database clock, so workers on machines with skewed clocks agree.
 */
import {
  type Claim,
  type ClaimOptions,
  type Continuation,
  ContinuationError,
  type ContinuationStore,
  canonicalJson,
  claimLost,
  claimRefused,
  DEFAULT_LEASE_MS,
  decodeStoredBody,
  type Encryption,
  encodeStoredBody,
  type JsonObject,
  type ListFilter,
  type ListPage,
  listCursor,
  listLimit,
  type SaveOptions,
  type StoredContinuation,
  type StoredStatus,
  type StoredSummary,
  summarize,
} from '@agent-continuations/core';
import pg from 'pg';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
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
  /** Create the schema and table on first use (default); `false` to call {@link PostgresStore.migrate} yourself. */
  autoMigrate?: boolean;
}

/** A {@link ContinuationStore} on Postgres. */
export interface PostgresStore extends ContinuationStore {
  /** The quoted table name (`"schema"."table"` when a schema was given), for your own queries. */
  readonly table: string;
  /** Create the schema, table and indexes if missing. Safe to call from many processes at once. */
  migrate(): Promise<void>;
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
  body?: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;
const STATUS = `CASE WHEN completed THEN 'completed'
  WHEN expires_at IS NOT NULL AND expires_at <= now() THEN 'expired'
  WHEN lease_until IS NOT NULL AND lease_until > now() THEN 'claimed'
  ELSE 'suspended' END`;
const SUMMARY = `seq, id, run_id, agent_name, metadata, created_at, expires_at, ${STATUS} AS status`;

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
  const { encryption } = options;

  const migrate = async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Concurrent CREATE ... IF NOT EXISTS can still collide in the catalog: serialize them.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('agent-continuations:migrate'))`);
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
          claim_owner TEXT,
          claim_token TEXT,
          lease_until TIMESTAMPTZ,
          body TEXT NOT NULL
        )`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${name}_run" ON ${table} (run_id, seq)`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${name}_agent" ON ${table} (agent_name, seq)`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${name}_metadata" ON ${table} USING GIN (metadata)`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  let migrated: Promise<void> | undefined;
  const ready = () => {
    if (options.autoMigrate === false) return Promise.resolve();
    migrated ??= migrate().catch((error) => {
      migrated = undefined;
      throw error;
    });
    return migrated;
  };
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[]) => {
    await ready();
    return pool.query<R>(text, values);
  };

  return {
    table,
    capabilities: { leases: true, expiry: true, multiProcess: true },
    migrate,
    async drop() {
      await pool.query(`DROP TABLE IF EXISTS ${table}`);
      migrated = undefined;
    },
    async save(continuation: Continuation, saveOptions: SaveOptions = {}) {
      // summarize validates expiresAt (INVALID_OPERATION) before anything is written.
      const { expiresAt } = summarize(continuation, saveOptions.expiresAt);
      const body = await encodeStoredBody(continuation, encryption);
      await query(
        `INSERT INTO ${table} (id, run_id, agent_name, metadata, created_at, expires_at, body)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, agent_name = excluded.agent_name,
           metadata = excluded.metadata, created_at = excluded.created_at, expires_at = excluded.expires_at,
           body = excluded.body, completed = false, claim_owner = NULL, claim_token = NULL, lease_until = NULL`,
        [
          continuation.id,
          continuation.runId,
          continuation.agent.name,
          canonicalJson(continuation.metadata),
          continuation.createdAt,
          expiresAt ?? null,
          body,
        ],
      );
    },
    async load(id: string): Promise<StoredContinuation | undefined> {
      const { rows } = await query<Row>(`SELECT ${SUMMARY}, body FROM ${table} WHERE id = $1`, [id]);
      const row = rows[0];
      if (!row) return undefined;
      return { ...summaryOf(row), continuation: await decodeStoredBody(row.body!, row.id, encryption) };
    },
    async list(filter: ListFilter = {}): Promise<ListPage> {
      const limit = listLimit(filter.limit);
      const values: unknown[] = [listCursor(filter.cursor)];
      const where = ['seq > $1::bigint'];
      const bind = (value: unknown) => `$${values.push(value)}`;
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
        `SELECT ${SUMMARY} FROM ${table} WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ${bind(limit + 1)}`,
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
      const { rows } = await query<{ lease_until: Date }>(
        `UPDATE ${table} SET claim_owner = $2, claim_token = $3,
           lease_until = now() + $4::double precision * interval '1 millisecond'
         WHERE id = $1 AND NOT completed AND (expires_at IS NULL OR expires_at > now())
           AND (lease_until IS NULL OR lease_until <= now())
         RETURNING lease_until`,
        [id, owner, token, claimOptions.leaseMs ?? DEFAULT_LEASE_MS],
      );
      if (rows[0]) return { id, owner, token, leaseUntil: rows[0].lease_until.toISOString() };
      const current = await query<Row>(`SELECT ${SUMMARY} FROM ${table} WHERE id = $1`, [id]);
      const row = current.rows[0];
      throw claimRefused(
        id,
        row ? (row.status as 'expired' | 'claimed' | 'completed') : 'missing',
        row?.expires_at ?? undefined,
      );
    },
    async complete(claim: Claim) {
      const { rowCount } = await query(
        `UPDATE ${table} SET completed = true WHERE id = $1 AND claim_token = $2 AND NOT completed`,
        [claim.id, claim.token],
      );
      if (!rowCount) throw claimLost(claim);
    },
    async release(claim: Claim) {
      await query(
        `UPDATE ${table} SET claim_owner = NULL, claim_token = NULL, lease_until = NULL
         WHERE id = $1 AND claim_token = $2 AND NOT completed`,
        [claim.id, claim.token],
      );
    },
    async close() {
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
  return summary;
}
