/**
 * `agent-continuations console` as a subprocess on a SQLite store: it prints its address, serves
 * the inbox, resumes a run decided there with the agents of --agents, and stops on SIGTERM.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listActions } from '@agent-continuations/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src';
import { AGENTS, type CliWorkspace, cliWorkspace } from './cli-harness';
import { hr } from './fixtures/agents';

const BIN = join(import.meta.dirname, '../src/bin.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** A subprocess compiles TypeScript on start: slow on a loaded machine. */
const SLOW = 120_000;

describe('agent-continuations console', () => {
  let ws: CliWorkspace;
  let url: string;
  let child: ChildProcessWithoutNullStreams | undefined;

  beforeAll(() => {
    ws = cliWorkspace();
    url = `sqlite:${join(ws.dir, 'console.db')}`;
  });
  afterAll(() => {
    child?.kill('SIGKILL');
    ws.dispose();
  });

  it(
    'serves the inbox on a free port, resumes a run approved there once, and stops on SIGTERM',
    async () => {
      const suspended = await hr.run('Raise Ann Example');
      if (suspended.status !== 'suspended') throw new Error('expected hr to suspend');
      const opened = await openStore(url);
      await opened.store.save(suspended.continuation);
      await opened.close();
      const [action] = listActions(suspended.continuation);

      const { CLI_TEST_RUNS } = process.env;
      const started = spawn(
        process.execPath,
        [
          '--conditions=@agent-continuations/source',
          '--import',
          TSX,
          BIN,
          'console',
          '--store',
          url,
          '--agents',
          AGENTS,
          '--port',
          '0',
          '--user',
          'ann@example.com',
        ],
        { cwd: ws.dir, env: { ...process.env, CLI_TEST_RUNS: CLI_TEST_RUNS! } },
      );
      child = started;
      let stdout = '';
      let stderr = '';
      started.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const address = await new Promise<string>((resolve, reject) => {
        started.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const found = /The approval inbox is at (http:\/\/\S+\/) /.exec(stdout);
          if (found) resolve(found[1]!);
        });
        started.once('exit', (code) => reject(new Error(`console exited with ${code}: ${stderr}`)));
      });
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(address).not.toContain(':4318/');

      const inbox = await fetch(address);
      expect(inbox.status).toBe(200);
      const page = await inbox.text();
      expect(page).toContain('update_salary');
      expect(page).toContain('Ann Example');

      // Approve as a browser would: the run view's CSRF cookie and token, then the form.
      const view = await fetch(`${address}runs/${suspended.continuation.id}`);
      const cookie = view.headers
        .getSetCookie()
        .map((each) => each.split(';')[0])
        .join('; ');
      const csrf = /name="csrf" value="([^"]+)"/.exec(await view.text())?.[1];
      expect(csrf).toBeTruthy();
      const decided = await fetch(`${address}runs/${suspended.continuation.id}/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
          origin: address.slice(0, -1),
        },
        body: new URLSearchParams({ csrf: csrf!, [`decision:${action!.id}`]: 'approve' }),
      });
      expect(decided.status).toBe(303);
      expect(ws.runs()).toEqual({ update_salary: 1 });

      const exited = new Promise<number | null>((resolve) => started.once('exit', resolve));
      started.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toContain('The approval inbox stopped.');
      expect(stderr).toBe('');
    },
    SLOW,
  );

  it(
    'refuses a bad port, a missing secret variable and a missing agents module with exit code 2',
    async () => {
      const [port, secret, agents] = await Promise.all([
        ws.cli(['console', '--store', url, '--agents', AGENTS, '--port', 'http']),
        ws.cli(['console', '--store', url, '--agents', AGENTS, '--secret-env', 'NO_SUCH_CONSOLE_SECRET']),
        ws.cli(['console', '--store', url, '--agents', './missing.ts', '--port', '0']),
      ]);
      expect(port.code).toBe(2);
      expect(port.stderr).toContain('--port must be a port number');
      expect(secret.code).toBe(2);
      expect(secret.stderr).toContain('NO_SUCH_CONSOLE_SECRET');
      expect(agents.code).toBe(2);
      expect(agents.stderr).toContain('does not exist');
    },
    SLOW,
  );
});
