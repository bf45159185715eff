/**
 * A throwaway Postgres cluster for the fault suite: `initdb` into a directory under /tmp, started
 * with `pg_ctl` on a free port, so that tests can restart it, kill it with SIGKILL and cut its
 * sessions without touching the shared server. As root, the binaries run as the `postgres` user
 * (initdb refuses root).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@agent-continuations/testing/runtime';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

const run = promisify(execFile);

/** A port nobody listens on now. */
export function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions
    .map((version) => join(root, version, 'bin'))
    .find((dir) => existsSync(join(dir, 'initdb')));
  if (!found)
    throw new Error(`No Postgres binaries under ${root}/*/bin: install postgresql to run the fault suite.`);
  return found;
}

/** A Postgres cluster of the test's own. */
export interface ThrowawayPostgres {
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** `pg_ctl restart -m fast`: sessions are ended, the server is back when it returns. */
  restartFast(): Promise<void>;
  /** SIGKILL the postmaster and its backends (a crash); `start()` brings it back with recovery. */
  kill9(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stop it and remove its data directory. */
  destroy(): Promise<void>;
}

/** Create and start a cluster; `destroy()` it in the test's teardown. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = binDir();
  const dir = mkdtempSync('/tmp/ac-faults-pg-');
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const pgBin = (name: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args], { timeout: 60_000 })
      : run(join(bin, name), args, { timeout: 60_000 });
  const port = await freePort();
  await pgBin('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    `-c listen_addresses=127.0.0.1`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
    '-c shared_buffers=32MB',
  ].join(' ');
  const start = async () => {
    await pgBin('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
  };
  const postmasterPid = () => {
    const file = join(data, 'postmaster.pid');
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
  };
  const stop = async () => {
    await pgBin('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  };
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restartFast() {
      await pgBin('pg_ctl', [
        '-D',
        data,
        '-o',
        options,
        '-l',
        join(dir, 'log'),
        '-m',
        'fast',
        '-w',
        'restart',
      ]);
    },
    async kill9() {
      const pid = postmasterPid();
      if (pid === undefined) return;
      const children = childrenOf(pid);
      process.kill(pid, 'SIGKILL');
      for (const child of children) {
        try {
          process.kill(child, 'SIGKILL');
        } catch {}
      }
      // Wait (bounded) until every process of the cluster is gone, so that it can start again.
      for (let i = 0; i < 100 && [pid, ...children].some(alive); i++) await sleep(50);
    },
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The direct children of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The parent pid is the second field after the parenthesised command name.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {}
  }
  return found;
}

function idOf(field: 2 | 3, user: string): number {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${user}:`));
  if (!line) throw new Error(`No user "${user}" to run Postgres as (initdb refuses root).`);
  return Number(line.split(':')[field]);
}
const uidOf = (user: string) => idOf(2, user);
const gidOf = (user: string) => idOf(3, user);

/**
 * One cluster for a test file: started before its tests, destroyed after them, with a small
 * admin pool for the test's own queries (terminating sessions, holding locks).
 */
export function clusterPerFile(): { readonly db: ThrowawayPostgres; readonly admin: pg.Pool } {
  const state = {} as { db: ThrowawayPostgres; admin: pg.Pool };
  beforeAll(async () => {
    state.db = await startThrowawayPostgres();
    state.admin = new pg.Pool({ connectionString: state.db.url, max: 2 });
    state.admin.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    await state.admin?.end();
    await state.db?.destroy();
  });
  return state;
}

/** A fresh schema name under `prefix`. */
export const schemaName = (prefix: string): string =>
  `${prefix}_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`;

export { sleep };
