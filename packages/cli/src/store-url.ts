/**
 * Store URLs: `sqlite:./agents.db`, `postgres://user@host:5432/db`, `redis://host:6379/0`. Each
 * store package is an optional peer, loaded only when its URL is used.
 */
import { connect } from 'node:net';
import { resolve } from 'node:path';
import type { CheckpointLog, ContinuationStore, Encryption } from '@agent-continuations/core';
import { UsageError } from './usage-error';

/** A parsed store URL: which store, and the options its factory gets. */
export type StoreTarget =
  | { kind: 'sqlite'; path: string; table?: string }
  | { kind: 'postgres'; connectionString: string; schema?: string; table?: string }
  | { kind: 'redis'; url: string; prefix?: string };

/** A checkpoint log the command line opened, which it closes. */
type OpenedLog = CheckpointLog & { close(): Promise<void> };

/** An open store (and the checkpoint log in its database, when asked for), and how to close them. */
export interface OpenStore {
  store: ContinuationStore;
  /** The checkpoint log in the store's database, opened with `{ log: true }`. */
  log?: CheckpointLog;
  target: StoreTarget;
  close(): Promise<void>;
}

const FORMS = 'sqlite:./agents.db, postgres://user@host:5432/db or redis://host:6379/0';

/**
 * Parse a store URL. Options of our own ride in the query: `?table=` (SQLite, Postgres),
 * `?schema=` (Postgres), `?prefix=` (Redis); they are removed before the URL reaches the driver.
 * Throws a {@link UsageError} for anything else.
 *
 * @example
 * ```ts
 * parseStoreUrl('sqlite:./agents.db'); // { kind: 'sqlite', path: '/cwd/agents.db' }
 * parseStoreUrl('postgres://127.0.0.1:5432/app?schema=agents'); // { kind: 'postgres', ... }
 * ```
 */
export function parseStoreUrl(text: string, cwd: string = process.cwd()): StoreTarget {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'sqlite') return sqliteTarget(text.slice('sqlite:'.length), cwd);
  if (scheme === 'postgres' || scheme === 'postgresql') {
    const url = parseUrl(text);
    if (!url.hostname && !url.searchParams.has('host')) throw bad(text, 'it names no host');
    const own = takeParams(url, ['schema', 'table'], text);
    return { kind: 'postgres', connectionString: url.toString(), ...own };
  }
  if (scheme === 'redis' || scheme === 'rediss') {
    const url = parseUrl(text);
    if (!url.hostname) throw bad(text, 'it names no host');
    const own = takeParams(url, ['prefix'], text);
    return { kind: 'redis', url: url.toString(), ...own };
  }
  throw bad(text, scheme ? `"${scheme}:" is not a store this command line knows` : 'it has no scheme');
}

/**
 * Open the store a URL names, importing its package (`@agent-continuations/store-sqlite`,
 * `-postgres` or `-redis`); a missing package is a {@link UsageError} that says what to install.
 *
 * @example
 * ```ts
 * const { store, close } = await openStore('sqlite:./agents.db');
 * const encrypted = await openStore(url, process.cwd(), { encryption: createEncryption(keys) });
 * console.log((await store.list()).items.length);
 * await close();
 * ```
 */
export async function openStore(
  text: string,
  cwd: string = process.cwd(),
  options: { encryption?: Encryption; log?: boolean } = {},
): Promise<OpenStore> {
  const target = parseStoreUrl(text, cwd);
  const extra = options.encryption ? { encryption: options.encryption } : {};
  if (options.log && target.kind === 'redis') {
    throw new UsageError('--log: a Redis store has no checkpoint log; the SQLite and Postgres stores do.');
  }
  const store = await createStore(target, extra);
  const log = options.log && target.kind !== 'redis' ? await createLog(target, extra) : undefined;
  return {
    store,
    ...(log ? { log } : {}),
    target,
    close: async () => {
      await log?.close();
      await store.close?.();
    },
  };
}

/** The checkpoint log in the database of a SQLite or Postgres store, with its default tables. */
async function createLog(
  target: Exclude<StoreTarget, { kind: 'redis' }>,
  extra: { encryption?: Encryption },
): Promise<OpenedLog> {
  if (target.kind === 'sqlite') {
    const { createSqliteCheckpointLog } = await load(
      'sqlite',
      () => import('@agent-continuations/store-sqlite'),
    );
    return createSqliteCheckpointLog({ database: target.path, ...extra });
  }
  const { createPostgresCheckpointLog } = await load(
    'postgres',
    () => import('@agent-continuations/store-postgres'),
  );
  return createPostgresCheckpointLog({
    connectionString: target.connectionString,
    ...(target.schema ? { schema: target.schema } : {}),
    ...extra,
  });
}

async function createStore(
  target: StoreTarget,
  extra: { encryption?: Encryption },
): Promise<ContinuationStore> {
  switch (target.kind) {
    case 'sqlite': {
      const { createSqliteStore } = await load('sqlite', () => import('@agent-continuations/store-sqlite'));
      return createSqliteStore({
        path: target.path,
        ...(target.table ? { table: target.table } : {}),
        ...extra,
      });
    }
    case 'postgres': {
      const { createPostgresStore } = await load(
        'postgres',
        () => import('@agent-continuations/store-postgres'),
      );
      const { kind: _kind, ...options } = target;
      return createPostgresStore({ ...options, ...extra });
    }
    case 'redis': {
      const { createRedisStore } = await load('redis', () => import('@agent-continuations/store-redis'));
      const { kind: _kind, ...options } = target;
      // ioredis retries a refused connection for many seconds, logging each try: fail at once instead.
      await reachable(new URL(target.url));
      return createRedisStore({ ...options, ...extra });
    }
  }
}

async function load<T>(kind: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new UsageError(
        `A ${kind} store needs the package @agent-continuations/store-${kind}: ` +
          `npm install @agent-continuations/store-${kind}`,
      );
    }
    throw error;
  }
}

/** Resolve when a TCP connection to the URL's host and port opens; else throw why, within 5 s. */
function reachable(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || 6379);
  return new Promise((done, fail) => {
    const socket = connect({ host, port, timeout: 5_000 });
    const refuse = (why: string) => {
      socket.destroy();
      fail(new Error(`Cannot reach the store at ${host}:${port} (${why}).`));
    };
    socket.once('connect', () => {
      socket.destroy();
      done();
    });
    socket.once('timeout', () => refuse('no answer within 5 s'));
    socket.once('error', (error) => refuse(error.message));
  });
}

function sqliteTarget(rest: string, cwd: string): StoreTarget {
  // `sqlite:///abs/path.db` and `sqlite://./rel.db` read like their URL forms.
  let location = rest.startsWith('//') ? rest.slice(2) : rest;
  let table: string | undefined;
  const query = location.lastIndexOf('?');
  if (query >= 0) {
    const params = new URLSearchParams(location.slice(query + 1));
    location = location.slice(0, query);
    for (const key of params.keys()) {
      if (key !== 'table') throw bad(`sqlite:${rest}`, `"${key}" is not an option of a sqlite store (table)`);
    }
    table = params.get('table') ?? undefined;
  }
  if (location === '') throw bad(`sqlite:${rest}`, 'it names no file');
  const path = location === ':memory:' ? location : resolve(cwd, location);
  return { kind: 'sqlite', path, ...(table ? { table } : {}) };
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw bad(text, 'it is not a valid URL');
  }
}

function takeParams<K extends string>(
  url: URL,
  keys: readonly K[],
  text: string,
): Partial<Record<K, string>> {
  const own: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = url.searchParams.get(key);
    if (value === null) continue;
    if (value === '') throw bad(text, `"${key}" is empty`);
    own[key] = value;
    url.searchParams.delete(key);
  }
  return own;
}

function bad(text: string, why: string): UsageError {
  return new UsageError(`The store URL "${redact(text)}" is not usable: ${why}. Use ${FORMS}.`);
}

/**
 * A URL with its password hidden, for messages.
 *
 * @example
 * ```ts
 * redact('postgres://app:s3cret@db/app'); // 'postgres://app:***@db/app'
 * ```
 */
export function redact(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}
