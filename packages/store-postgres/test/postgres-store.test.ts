import { runStoreContract } from '@agent-continuations/testing';
import pg from 'pg';
import { createPostgresStore } from '../src';
import { PG_URL } from './pg-fixtures';
import { requirePostgres } from './require-postgres';

await requirePostgres(PG_URL);

runStoreContract(
  'postgres',
  ({ encryption }) => {
    // A table of its own per test, so parallel test files never see each other's rows.
    const table = `contract_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const pool = new pg.Pool({ connectionString: PG_URL, max: 10 });
    const store = createPostgresStore({ pool, schema: 'ac_contract', table, encryption });
    return {
      store,
      connect: (context) =>
        createPostgresStore({
          connectionString: PG_URL,
          schema: 'ac_contract',
          table,
          encryption: context.encryption,
        }),
      raw: async (id) => {
        const { rows } = await pool.query(
          `SELECT row_to_json(t)::text AS raw FROM ${store.table} t WHERE id = $1`,
          [id],
        );
        return rows[0]?.raw as string | undefined;
      },
      cleanup: async () => {
        await store.drop();
        await pool.end();
      },
    };
  },
  { encryption: true },
);
