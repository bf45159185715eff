/**
 * `agent-continuations console` as a subprocess on a SQLite store: it prints its address, serves
 * the inbox, resumes a run decided there with the agents of --agents, and stops on SIGTERM.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
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

  beforeAll(() => {
    ws = cliWorkspace();
    url = `sqlite:${join(ws.dir, 'console.db')}`;
  });
  afterAll(() => {
    for (const each of children) if (each.exitCode === null) each.kill('SIGKILL');
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

      const started = startConsole(url, ws.dir, ['--user', 'ann@example.com']);
      const address = await started.address;
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
      const csrf = /action="[^"]*\?csrf=([^"&]+)"/.exec(await view.text())?.[1];
      expect(csrf).toBeTruthy();
      const decided = await fetch(`${address}runs/${suspended.continuation.id}/decide?csrf=${csrf}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
          origin: address.slice(0, -1),
        },
        body: new URLSearchParams({ [`decision:${action!.id}`]: 'approve' }),
      });
      expect(decided.status).toBe(303);
      expect(ws.runs()).toEqual({ update_salary: 1 });

      const exited = new Promise<number | null>((resolve) => started.child.once('exit', resolve));
      started.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(started.output().stdout).toContain('The approval inbox stopped.');
      expect(started.output().stderr).toBe('');
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

  it(
    'refuses a forged Host (DNS rebinding): no page, no token, nothing runs; serves every link under --base-path',
    async () => {
      const suspended = await hr.run('Raise Rebinding Victim');
      if (suspended.status !== 'suspended') throw new Error('expected hr to suspend');
      const opened = await openStore(url);
      await opened.store.save(suspended.continuation);
      await opened.close();
      const id = suspended.continuation.id;
      const ran = ws.runs();
      const started = startConsole(url, ws.dir, ['--base-path', '/inbox']);
      const address = await started.address;
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/inbox\/$/);
      const port = new URL(address).port;

      // A page of evil.example that resolves to 127.0.0.1: the browser sends its own name as Host.
      const forged = await raw(port, `/inbox/runs/${id}`, 'evil.example');
      expect(forged.status).toBe(421);
      expect(forged.body).not.toContain('csrf=');
      expect(forged.body).not.toContain('Rebinding Victim');
      const forgedPost = await raw(port, `/inbox/runs/${id}/decide`, `evil.example:${port}`, 'POST');
      expect(forgedPost.status).toBe(421);
      expect(ws.runs()).toEqual(ran);

      // Every link of the pages, as printed and as linked, is under the base path and answers.
      const inbox = await fetch(address);
      expect(inbox.status).toBe(200);
      const page = await inbox.text();
      const hrefs = [...page.matchAll(/(?:href|action)="([^"]+)"/g)].map((match) =>
        match[1]!.replaceAll('&amp;', '&'),
      );
      expect(hrefs.length).toBeGreaterThan(2);
      for (const href of hrefs) {
        expect(href.startsWith('/inbox/')).toBe(true);
        expect((await fetch(new URL(href, address))).status).toBe(200);
      }
      expect((await fetch(`${address.slice(0, -1)}`)).status).toBe(200);
      started.child.kill('SIGTERM');
    },
    SLOW,
  );

  it(
    'refuses to serve beyond loopback without --password-env; with it, every request signs in',
    async () => {
      const refused = await ws.cli([
        'console',
        '--store',
        url,
        '--agents',
        AGENTS,
        '--host',
        '0.0.0.0',
        '--port',
        '0',
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--password-env');
      const started = startConsole(url, ws.dir, ['--host', '0.0.0.0', '--password-env', 'CONSOLE_PASSWORD'], {
        CONSOLE_PASSWORD: 'a long enough password',
      });
      const address = await started.address;
      const unsigned = await fetch(address);
      expect(unsigned.status).toBe(401);
      expect(unsigned.headers.get('www-authenticate')).toContain('Basic');
      const wrong = await fetch(address, {
        headers: { authorization: `Basic ${btoa('ann:wrong password!!')}` },
      });
      expect(wrong.status).toBe(401);
      const signed = await fetch(address, {
        headers: { authorization: `Basic ${btoa('ann:a long enough password')}` },
      });
      expect(signed.status).toBe(200);
      started.child.kill('SIGTERM');
    },
    SLOW,
  );
});

/** Every console started, stopped at the end whatever happened. */
const children: ChildProcessWithoutNullStreams[] = [];

/** Start `agent-continuations console` on a free port; resolves its printed address. */
function startConsole(url: string, cwd: string, extra: string[], env: Record<string, string> = {}) {
  const { CLI_TEST_RUNS } = process.env;
  const child = spawn(
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
      ...extra,
    ],
    { cwd, env: { ...process.env, CLI_TEST_RUNS: CLI_TEST_RUNS!, ...env } },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const address = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = /The approval inbox is at (http:\/\/\S+\/) /.exec(stdout);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`console exited with ${code}: ${stderr}`)));
  });
  return { child, address, output: () => ({ stdout, stderr }) };
}

/** One request with the Host header given (a browser on a rebinding page sends the page's host). */
function raw(port: string, path: string, host: string, method = 'GET') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on('error', reject);
    sent.end(method === 'POST' ? 'decision%3Ax=approve' : undefined);
  });
}
