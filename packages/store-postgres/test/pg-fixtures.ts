/**
 * Test helpers: a Postgres connection string (PG_URL, or the local server), and a throw-away
 * schema per test so that files run in parallel without seeing each other's rows.
 */
import pg from 'pg';

export const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema name, one for pg-boss beside it, and a function that drops both. */
export function scratchSchema(prefix: string): {
  schema: string;
  bossSchema: string;
  drop: () => Promise<void>;
} {
  const schema = `${prefix}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const bossSchema = `${schema}_boss`;
  return {
    schema,
    bossSchema,
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.query(`DROP SCHEMA IF EXISTS ${bossSchema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
