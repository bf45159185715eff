/**
 * What the store and the log share about their connections: a listener on every pool and on
 * every checked-out client (an unhandled `'error'` event would end the process when the server
 * restarts or a session is terminated), connection failures turned into a retryable
 * `STORE_UNAVAILABLE`, transactions that give a broken client back to be discarded, and
 * migrations that check a version without taking a lock and, when they must change the schema,
 * wait a bounded time for their lock.
 */
import { ContinuationError, isContinuationError } from '@agent-continuations/core';
import type pg from 'pg';

/** SQLSTATE codes of a session ended by the server, or a connection it refused (and class 08). */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '25P03']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
const LOST = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection ended/i;

/** Whether `error` is a connection that broke or could not be made (not a bad statement). */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08'))
  )
    return true;
  if (error instanceof AggregateError) return error.errors.some(isConnectionFailure);
  return typeof message === 'string' && LOST.test(message);
}

/** `error` as the library's retryable `STORE_UNAVAILABLE` when it is a connection failure; as it is otherwise. */
export function unavailable(error: unknown, what: string): unknown {
  if (isContinuationError(error) || !isConnectionFailure(error)) return error;
  const reason = error instanceof Error ? error.message || (error as { code?: string }).code : String(error);
  return new ContinuationError(
    'STORE_UNAVAILABLE',
    `${what}: the database is unreachable or the connection broke (${reason}). Nothing is lost; retry the call.`,
    { cause: error },
  );
}

/**
 * Listen for `'error'` on `pool` (an idle client whose connection broke: the pool drops it and
 * the next call connects anew). Returns the function that stops listening.
 */
export function watchPool(pool: pg.Pool, onError: ((error: unknown) => void) | undefined): () => void {
  const listener = (error: Error) => onError?.(error);
  pool.on('error', listener);
  return () => pool.off('error', listener);
}

/**
 * Run `work` in a transaction on a client of `pool`. The client has an error listener while it is
 * checked out; a client whose connection broke is discarded, not given back; connection failures
 * become `STORE_UNAVAILABLE` (`what` says which call failed).
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  what: string,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw unavailable(error, what);
  }
  let broken: unknown;
  const onError = (error: unknown) => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (isConnectionFailure(error)) broken ??= error;
    if (broken === undefined)
      await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback));
    throw unavailable(error, what);
  } finally {
    client.release(
      broken === undefined ? undefined : broken instanceof Error ? broken : new Error(String(broken)),
    );
    client.off('error', onError);
  }
}

/** Options every migration takes. */
export interface MigrationOptions {
  /**
   * How long a migration that must change the schema waits for its table lock before it gives up
   * with `STORE_UNAVAILABLE` (so that a long read never queues every other query behind it);
   * 5 s by default.
   */
  migrationLockTimeoutMs?: number;
}

/**
 * A migration that runs once per process, never cached when it fails: `ready()` resolves when
 * the schema is current. The version is read without taking a lock on any table; only when it
 * differs does `apply` run, in a transaction with a lock timeout, under an advisory lock so
 * that concurrent processes take turns.
 */
export function migration(options: {
  pool: pg.Pool;
  what: string;
  lockKey: string;
  lockTimeoutMs: number;
  /** The table whose comment records the schema version, and the version this code needs. */
  versioned: { table: string; version: string };
  /** Bring the schema to the version; its last statement records the version as the table's comment. */
  apply: (client: pg.PoolClient) => Promise<void>;
}): { ready: () => Promise<void>; migrate: () => Promise<void>; forget: () => void } {
  const { pool, what } = options;
  // Reading the table's comment locks no table.
  const current = async (client: Pick<pg.PoolClient, 'query'>) =>
    (
      await client.query<{ version: string | null }>(
        `SELECT obj_description(to_regclass($1), 'pg_class') AS version`,
        [options.versioned.table],
      )
    ).rows[0]?.version === options.versioned.version;
  let done: Promise<void> | undefined;
  const migrate = async () => {
    try {
      if (await current(pool)) return;
    } catch (error) {
      throw unavailable(error, what);
    }
    await inTransaction(pool, what, async (client) => {
      await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(options.lockTimeoutMs))}`);
      // Concurrent CREATE ... IF NOT EXISTS can still collide in the catalog: one at a time.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [options.lockKey]);
      if (await current(client)) return;
      try {
        await options.apply(client);
      } catch (error) {
        if ((error as { code?: string }).code !== '55P03') throw error;
        throw new ContinuationError(
          'STORE_UNAVAILABLE',
          `${what}: the schema change could not take its lock within ${options.lockTimeoutMs} ms; another session holds the table (a long report or pg_dump?). Nothing changed; retry when it ends, or raise migrationLockTimeoutMs.`,
          { cause: error },
        );
      }
    });
  };
  const ready = () => {
    done ??= migrate().catch((error: unknown) => {
      done = undefined;
      throw error;
    });
    return done;
  };
  return {
    ready,
    migrate: ready,
    forget: () => {
      done = undefined;
    },
  };
}
