/**
 * SQLite's disk faults as the library's errors: a full disk, a read-only file or directory, an
 * I/O error, a file that cannot be opened, a lock held past the busy timeout. Each becomes a
 * retryable `STORE_UNAVAILABLE` whose cause is the driver's error (its `code`, e.g. `SQLITE_FULL`,
 * is also in `details`). SQLite rolls back the statement that failed, so nothing is half written,
 * and once the fault is gone the next call goes through.
 */
import { ContinuationError, isContinuationError } from '@agent-continuations/core';

const DISK = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|NOMEM|PROTOCOL)/;

const WHAT: Record<string, string> = {
  SQLITE_FULL: 'the disk (or the database size limit) is full',
  SQLITE_READONLY: 'the database file or its directory is read-only',
  SQLITE_IOERR: 'the disk reported an I/O error',
  SQLITE_CANTOPEN: 'the database file cannot be opened',
  SQLITE_BUSY: 'another connection held the write lock past the busy timeout',
  SQLITE_LOCKED: 'a table is locked by another statement',
};

/** `error` as `STORE_UNAVAILABLE` when it is one of SQLite's disk faults; as it is otherwise. */
export function diskFault(error: unknown, what: string): unknown {
  if (isContinuationError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !DISK.test(code)) return error;
  const base = code.match(/^SQLITE_[A-Z]+/)![0];
  return new ContinuationError(
    'STORE_UNAVAILABLE',
    `${what} failed: ${WHAT[base] ?? 'the database is unavailable'} (${code}: ${(error as Error).message}). Nothing was written; retry once the fault is fixed.`,
    { cause: error, details: { code } },
  );
}

/**
 * `target` with every method's disk faults turned into `STORE_UNAVAILABLE` (see {@link diskFault}),
 * thrown or rejected as the method does. Other properties are the target's own.
 */
export function withDiskFaults<T extends object>(target: T, name: string): T {
  for (const key of Object.keys(target) as Array<keyof T & string>) {
    const method = target[key];
    if (typeof method !== 'function') continue;
    const what = `${name}.${key}`;
    target[key] = function (this: unknown, ...args: unknown[]) {
      try {
        const result = (method as (...args: unknown[]) => unknown).apply(this, args);
        return result instanceof Promise
          ? result.catch((error: unknown) => Promise.reject(diskFault(error, what)))
          : result;
      } catch (error) {
        throw diskFault(error, what);
      }
    } as T[keyof T & string];
  }
  return target;
}
