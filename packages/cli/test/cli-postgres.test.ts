import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { cliSuite } from './cli-suite';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// A schema of its own, so that parallel test files never see each other's rows; dropped after.
const schema = `cli_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

cliSuite('Postgres', {
  url: (name) => `${PG_URL}?schema=${schema}&table=${name}`,
  async cleanup() {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  },
});
