/**
 * The crash kit's ledger on Postgres, in the checkpoint log's schema: one ordered event table,
 * and a payments table whose unique key makes `charge` exactly-once.
 */
import type { CrashLedger, CrashLedgerReport } from '@agent-continuations/testing';
import pg from 'pg';

export async function postgresCrashLedger(
  connectionString: string,
  schema: string,
  owner: string,
): Promise<CrashLedger & { close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString, max: 4 });
  pool.on('error', () => undefined); // an idle client whose connection broke: the pool drops it
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch(() => undefined);
  await pool
    .query(`
    CREATE TABLE IF NOT EXISTS ${schema}.ledger_events (id BIGSERIAL PRIMARY KEY, kind TEXT, tool TEXT, key TEXT, owner TEXT, point TEXT);
    CREATE TABLE IF NOT EXISTS ${schema}.payments (idempotency_key TEXT PRIMARY KEY);
  `)
    .catch(() => undefined);
  const event = (kind: string, tool: string | null, key: string, point: string | null) =>
    pool.query(
      `INSERT INTO ${schema}.ledger_events (kind, tool, key, owner, point) VALUES ($1, $2, $3, $4, $5)`,
      [kind, tool, key, owner, point],
    );
  const rows = async (kind: string) =>
    (
      await pool.query(
        `SELECT id::int AS id, tool, key, owner, point FROM ${schema}.ledger_events WHERE kind = $1 ORDER BY id`,
        [kind],
      )
    ).rows as never[];
  return {
    async attempt(tool, key) {
      await event('attempt', tool, key, null);
    },
    async pay(key) {
      const result = await pool.query(
        `INSERT INTO ${schema}.payments (idempotency_key) VALUES ($1) ON CONFLICT DO NOTHING`,
        [key],
      );
      return result.rowCount === 1;
    },
    async notify(key) {
      await event('notify', 'notify', key, null);
    },
    async recorded(key) {
      await event('recorded', null, key, null);
    },
    async killed(point, key) {
      await event('kill', null, key, point);
    },
    async report(): Promise<CrashLedgerReport> {
      return {
        attempts: await rows('attempt'),
        recorded: await rows('recorded'),
        notifications: await rows('notify'),
        kills: await rows('kill'),
        payments: (await pool.query(`SELECT idempotency_key AS key FROM ${schema}.payments`)).rows,
      };
    },
    close: () => pool.end(),
  };
}
