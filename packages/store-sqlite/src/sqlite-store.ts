/**
 * The continuation store on SQLite: one table, index fields in clear columns, the body as
 * canonical JSON text (or a ciphertext). Several processes may share the file: WAL mode, a busy
 * timeout, and every claim is one conditional UPDATE, so exactly one claimer wins. Statements are
 * prepared once; a claim that wins and a completion without a next continuation are one
 * statement each, with no explicit transaction around them.
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
import Database from 'better-sqlite3';
import { withDiskFaults } from './disk-errors';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** A database file, created when missing; `:memory:` for a private in-memory one. */
  path?: string;
  /** An open better-sqlite3 database instead of `path`; the store does not close it. */
  database?: Database.Database;
  /** The table name; `continuations` by default. Created when missing. */
  table?: string;
  /** Encrypt bodies at rest (see `createEncryption` in the core). */
  encryption?: Encryption;
  /** How long a write waits for another process's lock, in ms; 10 s by default. */
  busyTimeoutMs?: number;
  /**
   * When a commit is flushed to disk (SQLite's `synchronous` with WAL). `'normal'` (the default):
   * a commit survives the process crashing or being killed, and the database is never corrupted,
   * but a power loss or an OS crash may undo the last commits before the next checkpoint.
   * `'full'`: every commit is flushed (fsync) before it returns, so it survives a power loss too,
   * at the price of a disk flush per write (often 10× slower writes). Ignored for a `database`
   * you pass in, whose settings stay yours.
   *
   * @example
   * const store = createSqliteStore({ path: 'payments.db', synchronous: 'full' });
   */
  synchronous?: 'normal' | 'full';
}

/** A {@link ContinuationStore} on SQLite, with its database for inspection. */
export interface SqliteStore extends ContinuationStore {
  readonly database: Database.Database;
  readonly table: string;
  /**
   * For a checkpoint log on the same database: encode `write` now and return a synchronous
   * function that makes it (`complete(claim, { next })`, or `save(next)`), to call inside the
   * log's own transaction. The function throws `LEASE_LOST` when the claim is no longer held.
   */
  prepareWrite(write: { next?: Continuation; claim?: Claim; save?: SaveOptions }): Promise<() => void>;
  close(): Promise<void>;
}

interface Row {
  seq: number;
  id: string;
  run_id: string;
  agent_name: string;
  metadata: string;
  created_at: string;
  expires_at: number | null;
  completed: number;
  failed: number;
  cancelled: number;
  error: string | null;
  claim_owner: string | null;
  claim_token: string | null;
  lease_until: number | null;
  body: string;
  status: StoredStatus;
}

const STATUS = `CASE WHEN cancelled THEN 'cancelled'
  WHEN completed THEN 'completed'
  WHEN failed THEN 'failed'
  WHEN expires_at IS NOT NULL AND expires_at <= @now THEN 'expired'
  WHEN lease_until IS NOT NULL AND lease_until > @now THEN 'claimed'
  ELSE 'suspended' END`;

/**
 * Open (and create if needed) a continuation store in a SQLite file.
 *
 * @example
 * ```ts
 * const store = createSqliteStore({ path: 'agents.db' });
 * await store.save(result.continuation);
 * const next = await resumeStored(store, agent, result.continuation.id, decisions);
 * ```
 */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  if ((options.path === undefined) === (options.database === undefined)) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'createSqliteStore needs exactly one of `path` or `database`.',
    );
  }
  const table = options.table ?? 'continuations';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(table)) {
    throw new ContinuationError('INVALID_OPERATION', `The table name "${table}" is not a plain SQL name.`);
  }
  const db = options.database ?? new Database(options.path!);
  const { encryption } = options;
  db.pragma('journal_mode = WAL');
  if (!options.database) db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 10_000))}`);
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${table} (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      run_id TEXT NOT NULL,
      agent_name TEXT NOT NULL,
      metadata TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at INTEGER,
      completed INTEGER NOT NULL DEFAULT 0,
      failed INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      cancelled INTEGER NOT NULL DEFAULT 0,
      claim_owner TEXT,
      claim_token TEXT,
      lease_until INTEGER,
      body TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${table}_run ON ${table} (run_id, seq);
    CREATE INDEX IF NOT EXISTS ${table}_agent ON ${table} (agent_name, seq);
  `);
  // Tables made before failed runs were recorded gain the columns.
  const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all();
  if (!columns.some((column) => column.name === 'failed')) {
    db.exec(`ALTER TABLE ${table} ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ${table} ADD COLUMN error TEXT;`);
  }
  // And those made before a run could be cancelled gain its column.
  if (!columns.some((column) => column.name === 'cancelled')) {
    db.exec(`ALTER TABLE ${table} ADD COLUMN cancelled INTEGER NOT NULL DEFAULT 0`);
  }

  const INSERT = `INSERT INTO ${table} (id, run_id, agent_name, metadata, created_at, expires_at, body)
     VALUES (@id, @runId, @agentName, @metadata, @createdAt, @expiresAt, @body)`;
  const upsert = db.prepare(
    `${INSERT}
     ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, agent_name = excluded.agent_name,
       metadata = excluded.metadata, created_at = excluded.created_at, expires_at = excluded.expires_at,
       body = excluded.body, completed = 0, failed = 0, cancelled = 0, error = NULL, claim_owner = NULL, claim_token = NULL, lease_until = NULL`,
  );
  const insertNew = db.prepare(`${INSERT} ON CONFLICT (id) DO NOTHING`);
  const select = db.prepare<[{ id: string; now: number }], Row>(
    `SELECT *, ${STATUS} AS status FROM ${table} WHERE id = @id`,
  );
  const remove = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  const claimRow = db.prepare(
    `UPDATE ${table} SET claim_owner = @owner, claim_token = @token, lease_until = @leaseUntil
     WHERE id = @id AND completed = 0 AND failed = 0 AND (expires_at IS NULL OR expires_at > @now)
       AND (lease_until IS NULL OR lease_until <= @now)`,
  );
  // Held: same token, neither completed nor failed (a lapsed lease that nobody took still holds).
  const HELD = 'id = @id AND claim_token = @token AND completed = 0 AND failed = 0';
  const renewRow = db.prepare(`UPDATE ${table} SET lease_until = @leaseUntil WHERE ${HELD}`);
  const completeRow = db.prepare(`UPDATE ${table} SET completed = 1 WHERE ${HELD}`);
  // A cancelled row is completed too (never claimed again); the person's reason is kept in `error`.
  const cancelRow = db.prepare(
    `UPDATE ${table} SET completed = 1, cancelled = 1, error = @reason WHERE ${HELD}`,
  );
  const releaseRow = db.prepare(
    `UPDATE ${table} SET claim_owner = NULL, claim_token = NULL, lease_until = NULL WHERE ${HELD}`,
  );
  const failRow = db.prepare(
    `UPDATE ${table} SET failed = 1, error = @error, claim_owner = NULL, claim_token = NULL, lease_until = NULL
     WHERE ${HELD}`,
  );
  const retryRow = db.prepare(
    `UPDATE ${table} SET failed = 0, error = NULL WHERE id = ? AND completed = 0 AND failed = 1`,
  );
  // The refusal is read in the same write transaction as the failed claim, so no other process
  // can change the row between the two (a read after the write could see it claimable).
  const claimOrRefusal = db.transaction(
    (params: { id: string; owner: string; token: string; leaseUntil: number; now: number }) => {
      if (claimRow.run(params).changes === 1) return undefined;
      return select.get({ id: params.id, now: params.now }) ?? null;
    },
  );
  const completeWith = db.transaction((claim: Claim, next: Parameters<typeof upsert.run>[0] | undefined) => {
    if (completeRow.run({ id: claim.id, token: claim.token }).changes === 0) throw claimLost(claim);
    if (next) upsert.run(next);
  });
  const row = async (continuation: Continuation, saveOptions: SaveOptions) => {
    // summarize validates expiresAt (INVALID_OPERATION) before anything is written.
    const { expiresAt } = summarize(continuation, saveOptions.expiresAt);
    return {
      id: continuation.id,
      runId: continuation.runId,
      agentName: continuation.agent.name,
      metadata: canonicalJson(continuation.metadata),
      createdAt: continuation.createdAt,
      expiresAt: expiresAt === undefined ? null : Date.parse(expiresAt),
      body: await encodeStoredBody(continuation, encryption),
    };
  };

  return withDiskFaults(
    {
      database: db,
      table,
      capabilities: { leases: true, expiry: true, multiProcess: !db.memory },
      async save(continuation: Continuation, saveOptions: SaveOptions = {}) {
        upsert.run(await row(continuation, saveOptions));
      },
      async saveIfAbsent(continuation: Continuation, saveOptions: SaveOptions = {}) {
        return insertNew.run(await row(continuation, saveOptions)).changes === 1;
      },
      async prepareWrite(write) {
        const next = write.next && (await row(write.next, write.save ?? {}));
        const { claim } = write;
        if (claim) return () => completeWith(claim, next);
        return () => void (next && upsert.run(next));
      },
      async load(id: string): Promise<StoredContinuation | undefined> {
        const row = select.get({ id, now: Date.now() });
        if (!row) return undefined;
        return { ...summaryOf(row), continuation: await decodeStoredBody(row.body, row.id, encryption) };
      },
      async list(filter: ListFilter = {}): Promise<ListPage> {
        const limit = listLimit(filter.limit);
        const desc = listOrder(filter.order) === 'desc';
        const params: Record<string, unknown> = { now: Date.now(), limit: limit + 1 };
        const where: string[] = [];
        if (filter.cursor !== undefined) {
          where.push(desc ? 'seq < @from' : 'seq > @from');
          params.from = Number(listCursor(filter.cursor));
        }
        if (filter.agentName !== undefined) {
          where.push('agent_name = @agentName');
          params.agentName = filter.agentName;
        }
        if (filter.runId !== undefined) {
          where.push('run_id = @runId');
          params.runId = filter.runId;
        }
        if (filter.status !== undefined) {
          const statuses = ([] as StoredStatus[]).concat(filter.status);
          statuses.forEach((status, i) => {
            params[`status${i}`] = status;
          });
          where.push(`${STATUS} IN (${statuses.map((_, i) => `@status${i}`).join(', ') || 'NULL'})`);
        }
        Object.entries(filter.metadata ?? {}).forEach(([key, value], i) => {
          // Same JSON type and same value: `true` never matches `1`, and objects compare canonically.
          where.push(
            `json_type(metadata, @path${i}) IS json_type(@value${i}) AND json_extract(metadata, @path${i}) IS json_extract(@value${i}, '$')`,
          );
          params[`path${i}`] = `$.${JSON.stringify(key)}`;
          params[`value${i}`] = canonicalJson(value);
        });
        const rows = db
          .prepare<[Record<string, unknown>], Row>(
            `SELECT seq, id, run_id, agent_name, metadata, created_at, expires_at, error, claim_owner, ${STATUS} AS status
           FROM ${table} WHERE ${where.join(' AND ') || '1'} ORDER BY seq ${desc ? 'DESC' : 'ASC'} LIMIT @limit`,
          )
          .all(params);
        const page = rows.slice(0, limit);
        const items = page.map(summaryOf);
        return rows.length > limit ? { items, cursor: String(page[page.length - 1]!.seq) } : { items };
      },
      async delete(id: string) {
        return remove.run(id).changes > 0;
      },
      async claim(id: string, claimOptions: ClaimOptions = {}): Promise<Claim> {
        const now = Date.now();
        const claim: Claim = {
          id,
          owner: claimOptions.owner ?? 'sqlite',
          token: crypto.randomUUID(),
          leaseUntil: new Date(now + (claimOptions.leaseMs ?? DEFAULT_LEASE_MS)).toISOString(),
        };
        const params = {
          id,
          owner: claim.owner,
          token: claim.token,
          leaseUntil: Date.parse(claim.leaseUntil),
          now,
        };
        // The UPDATE alone is atomic: when it wins, nothing else is needed. When it does not, the
        // transaction tries again and reads why it was refused in the same write lock.
        if (claimRow.run(params).changes === 1) return claim;
        const refusal = claimOrRefusal.immediate(params);
        if (refusal === undefined) return claim;
        throw claimRefused(
          id,
          refusal ? refusal.status : 'missing',
          refusal && summaryOf(refusal).expiresAt,
          refusal?.error,
        );
      },
      async renew(claim: Claim, renewOptions: RenewOptions = {}): Promise<Claim> {
        const leaseUntil = Date.now() + (renewOptions.leaseMs ?? DEFAULT_LEASE_MS);
        if (renewRow.run({ id: claim.id, token: claim.token, leaseUntil }).changes === 0)
          throw claimLost(claim);
        return { ...claim, leaseUntil: new Date(leaseUntil).toISOString() };
      },
      async complete(claim: Claim, completeOptions: CompleteOptions = {}) {
        const { next, cancelled, ...saveOptions } = completeOptions;
        cancelWithout(next, cancelled);
        if (cancelled) {
          const params = { id: claim.id, token: claim.token, reason: cancelled.reason ?? null };
          if (cancelRow.run(params).changes === 0) throw claimLost(claim);
          return;
        }
        if (!next) {
          if (completeRow.run({ id: claim.id, token: claim.token }).changes === 0) throw claimLost(claim);
          return;
        }
        completeWith.immediate(claim, await row(next, saveOptions));
      },
      async release(claim: Claim) {
        if (releaseRow.run({ id: claim.id, token: claim.token }).changes === 0) throw claimLost(claim);
      },
      async fail(claim: Claim, error: string) {
        if (failRow.run({ id: claim.id, token: claim.token, error }).changes === 0) throw claimLost(claim);
      },
      async retry(id: string) {
        if (retryRow.run(id).changes === 1) return;
        const current = select.get({ id, now: Date.now() });
        throw retryRefused(id, current ? current.status : 'missing');
      },
      async close() {
        if (!options.database && db.open) db.close();
      },
    },
    'SQLite store',
  );
}

function summaryOf(row: Row): StoredSummary {
  const summary: StoredSummary = {
    id: row.id,
    runId: row.run_id,
    agentName: row.agent_name,
    status: row.status,
    metadata: JSON.parse(row.metadata) as JsonObject,
    createdAt: row.created_at,
  };
  if (row.expires_at !== null) summary.expiresAt = new Date(row.expires_at).toISOString();
  if (row.status === 'failed' && row.error !== null) summary.error = row.error;
  if (row.status === 'cancelled' && row.error !== null) summary.reason = row.error;
  // A completed (or cancelled) row keeps the owner of the claim that completed it.
  const ended = row.status === 'completed' || row.status === 'cancelled';
  if (ended && row.claim_owner !== null) summary.resumedBy = row.claim_owner;
  return summary;
}
