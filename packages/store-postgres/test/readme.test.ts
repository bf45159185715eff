import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createPostgresStore } from '../src';
import { PG_URL } from './pg-fixtures';
import { requirePostgres } from './require-postgres';

await requirePostgres(PG_URL);

it('runs the README example, which the README shows verbatim', async () => {
  const example = readFileSync(join(import.meta.dirname, 'readme/example.ts'), 'utf8');
  expect(readFileSync(join(import.meta.dirname, '../README.md'), 'utf8')).toContain(example);

  // The example uses the connection's search_path: point it at a schema of this test's own.
  const schema = `readme_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    process.env.DATABASE_URL = url.toString();
    await import('./readme/example');
    const { runs } = await import('./readme/agent');
    expect(runs).toEqual({ update_salary: 1, send_letter: 0 });
    const store = createPostgresStore({ connectionString: PG_URL, schema, autoMigrate: false });
    const { items } = await store.list();
    expect(items.map((item) => [item.status, item.metadata])).toEqual([['completed', { tenant: 'acme' }]]);
    expect(Date.parse(items[0]!.expiresAt!)).toBeGreaterThan(Date.now());
    await store.close();
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
});
