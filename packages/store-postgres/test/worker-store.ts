/**
 * The continuation store the worker tests share between processes. Until the package's own
 * Postgres store lands, a minimal one over a single table stands in (test-only).
 */
import {
  type Claim,
  type Continuation,
  ContinuationError,
  type ContinuationStore,
  type StoredStatus,
  summarize,
} from '@agent-continuations/core';
import pg from 'pg';

export async function openWorkerStore(connectionString: string, schema: string): Promise<ContinuationStore> {
  const pool = new pg.Pool({ connectionString, max: 4 });
  const table = `${schema}.test_continuations`;
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch(() => undefined);
  await pool
    .query(
      `CREATE TABLE IF NOT EXISTS ${table} (seq BIGSERIAL, id TEXT PRIMARY KEY, run_id TEXT, agent_name TEXT, body TEXT,
        completed BOOLEAN NOT NULL DEFAULT false, token TEXT, lease_until TIMESTAMPTZ)`,
    )
    .catch(() => undefined);
  const status = `CASE WHEN completed THEN 'completed' WHEN token IS NOT NULL AND lease_until > now() THEN 'claimed' ELSE 'suspended' END`;
  const conflict = (id: string) =>
    new ContinuationError('CLAIM_CONFLICT', `Continuation "${id}" is claimed or resumed.`);
  return {
    capabilities: { leases: true, expiry: false, multiProcess: true },
    async save(continuation: Continuation) {
      await pool.query(
        `INSERT INTO ${table} (id, run_id, agent_name, body) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET body = $4, completed = false, token = NULL`,
        [continuation.id, continuation.runId, continuation.agent.name, JSON.stringify(continuation)],
      );
    },
    async load(id) {
      const row = (await pool.query(`SELECT body, ${status} AS status FROM ${table} WHERE id = $1`, [id]))
        .rows[0];
      if (!row) return undefined;
      const continuation = JSON.parse(row.body) as Continuation;
      return { ...summarize(continuation), status: row.status as StoredStatus, continuation };
    },
    async list(filter = {}) {
      const after = Number(filter.cursor ?? 0);
      const rows = (
        await pool.query(
          `SELECT seq, body, ${status} AS status FROM ${table} WHERE seq > $1 AND ($2::text IS NULL OR ${status} = $2)
           ORDER BY seq LIMIT $3`,
          [after, (filter.status as string | undefined) ?? null, filter.limit ?? 50],
        )
      ).rows;
      const items = rows.map((row) => ({
        ...summarize(JSON.parse(row.body)),
        status: row.status as StoredStatus,
      }));
      return rows.length === (filter.limit ?? 50)
        ? { items, cursor: String(rows[rows.length - 1].seq) }
        : { items };
    },
    async delete(id) {
      return ((await pool.query(`DELETE FROM ${table} WHERE id = $1`, [id])).rowCount ?? 0) > 0;
    },
    async claim(id, options = {}) {
      const token = crypto.randomUUID();
      const row = (
        await pool.query(
          `UPDATE ${table} SET token = $2, lease_until = now() + $3::integer * interval '1 millisecond'
           WHERE id = $1 AND NOT completed AND (token IS NULL OR lease_until < now()) RETURNING lease_until`,
          [id, token, options.leaseMs ?? 30_000],
        )
      ).rows[0];
      if (!row) throw conflict(id);
      return {
        id,
        owner: options.owner ?? 'test',
        token,
        leaseUntil: row.lease_until.toISOString(),
      } satisfies Claim;
    },
    async complete(claim) {
      const result = await pool.query(
        `UPDATE ${table} SET completed = true WHERE id = $1 AND token = $2 AND NOT completed`,
        [claim.id, claim.token],
      );
      if (result.rowCount === 0) throw conflict(claim.id);
    },
    async release(claim) {
      await pool.query(`UPDATE ${table} SET token = NULL WHERE id = $1 AND token = $2 AND NOT completed`, [
        claim.id,
        claim.token,
      ]);
    },
    async close() {
      await pool.end();
    },
  };
}
