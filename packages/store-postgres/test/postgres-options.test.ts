import { isContinuationError } from '@agent-continuations/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresStore } from '../src';
import { PG_URL } from './pg-fixtures';
import { requirePostgres } from './require-postgres';

await requirePostgres(PG_URL);

const codeOf = (make: () => unknown) => {
  try {
    make();
    return undefined;
  } catch (error) {
    return isContinuationError(error) ? error.code : String(error);
  }
};

describe('createPostgresStore options', () => {
  it('creates its schema and table from many stores at once, and leaves a given pool open', async () => {
    const schema = `opts_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const pool = new pg.Pool({ connectionString: PG_URL, max: 8 });
    try {
      const stores = Array.from({ length: 6 }, () =>
        createPostgresStore({ pool, schema, table: 'approvals' }),
      );
      // Every store migrates on first use; concurrent migrations must not collide.
      await Promise.all(stores.map((store) => store.list()));
      await Promise.all(stores.map((store) => store.close()));
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}"."approvals"`);
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  });

  it('with autoMigrate off, needs migrate() first', async () => {
    const table = `opts_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const store = createPostgresStore({ connectionString: PG_URL, table, autoMigrate: false });
    try {
      await expect(store.list()).rejects.toThrow(/does not exist/);
      await store.migrate();
      expect(await store.list()).toEqual({ items: [] });
    } finally {
      await store.drop();
      await store.close();
    }
  });

  it('refuses missing or double connections and unsafe names', () => {
    expect(codeOf(() => createPostgresStore({}))).toBe('INVALID_OPERATION');
    const pool = new pg.Pool({ connectionString: PG_URL });
    expect(codeOf(() => createPostgresStore({ pool, connectionString: PG_URL }))).toBe('INVALID_OPERATION');
    expect(codeOf(() => createPostgresStore({ pool, table: 'a"b' }))).toBe('INVALID_OPERATION');
    expect(codeOf(() => createPostgresStore({ pool, schema: 'x; DROP' }))).toBe('INVALID_OPERATION');
    return pool.end();
  });
});
