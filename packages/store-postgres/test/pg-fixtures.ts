/**
 * Test helpers: a Postgres connection string (PG_URL, or the local server), and a throw-away
 * schema per test so that files run in parallel without seeing each other's rows.
 */
import pg from 'pg';

export const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema name, and a function that drops it. */
export function scratchSchema(prefix: string): { schema: string; drop: () => Promise<void> } {
  const schema = `${prefix}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
