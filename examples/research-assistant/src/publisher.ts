/**
 * The side effect the approval guards: publishing a report. Publications are a SQLite table in the
 * same file as the continuation store, keyed by the tool call's idempotency key, so a call that
 * runs again returns the first publication instead of publishing twice.
 */
import type Database from 'better-sqlite3';

export interface Publication {
  key: string;
  title: string;
  url: string;
}

export interface Publisher {
  /** Publish once per key; a repeat with the same key returns the first publication. */
  publish(title: string, idempotencyKey: string): Publication;
  /** How many times `publish` really published. */
  count(): number;
}

/** A publisher whose publications live in `database` (the store's own file). */
export function sqlitePublisher(database: Database.Database): Publisher {
  database.exec(`CREATE TABLE IF NOT EXISTS publications (
    idempotency_key TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    url TEXT NOT NULL
  )`);
  const insert = database.prepare(
    'INSERT INTO publications (idempotency_key, title, url) VALUES (?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING',
  );
  const select = database.prepare<[string], Publication>(
    'SELECT idempotency_key AS key, title, url FROM publications WHERE idempotency_key = ?',
  );
  const total = database.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM publications');
  return {
    publish(title, key) {
      const slug = title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      insert.run(key, title, `https://reports.example.com/${slug}`);
      return select.get(key)!;
    },
    count: () => total.get()!.n,
  };
}
