/**
 * The continuation store the worker tests share between processes: the package's Postgres store,
 * in the test's scratch schema.
 */
import { createPostgresStore, type PostgresStore } from '../src/postgres-store';

export async function openWorkerStore(connectionString: string, schema: string): Promise<PostgresStore> {
  const store = createPostgresStore({ connectionString, schema });
  await store.migrate();
  return store;
}
