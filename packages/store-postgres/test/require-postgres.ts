/**
 * Fail a test file at once, with a clear message, when the Postgres server is not reachable:
 * the store contract runs against a real server and is never skipped silently.
 */
import pg from 'pg';

export async function requirePostgres(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `Postgres is not reachable at ${connectionString} (${(error as Error).message}). ` +
        'Start it (e.g. `pg_ctlcluster 15 main start`, or run `bash .ci/run`, which starts it) ' +
        'or point PG_URL at a server with a database you may create tables in.',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
