/**
 * `agent-continuations console` as a person starts it, driven in Chromium: issue 21 items 7 and 8,
 * and item 4 across two console processes over one store.
 * The command line runs as a subprocess on a SQLite store with its test agents (their tool runs
 * are counted in a file every process appends to); Chromium maps `evil.example` to 127.0.0.1, as a
 * DNS rebinding attacker's name resolves.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Continuation, listActions } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENTS, type CliWorkspace, cliWorkspace } from '../../../packages/cli/test/cli-harness';
import { hr } from '../../../packages/cli/test/fixtures/agents';
import { attackerPost, CHROMIUM, CHROMIUM_ARGS } from './harness';

// The command line compiles TypeScript on start: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const CLI = join(import.meta.dirname, '../../../packages/cli');
const TSX = pathToFileURL(createRequire(join(CLI, 'package.json')).resolve('tsx')).href;

describe('agent-continuations console in Chromium', () => {
  let browser: Browser;
  let ws: CliWorkspace;
  let child: ChildProcessWithoutNullStreams | undefined;

  beforeAll(async () => {
    ws = cliWorkspace();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1'],
    });
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await browser?.close();
    ws?.dispose();
  });

  it('items 7, 8: a rebinding page gets no page and no token and runs nothing; under --base-path the printed URL and every link work, and Approve runs the tool once', async () => {
    const store = `sqlite:${join(ws.dir, 'console.db')}`;
    const run = await suspendedHr(join(ws.dir, 'console.db'));
    const [action] = listActions(run);
    child = consoleProcess(store, 'ann', ['--base-path', '/inbox'], ws.dir);
    const printed = await address(child);
    expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/inbox\/$/);
    const port = new URL(printed).port;
    const context = await browser.newContext();
    const page = await context.newPage();
    const text = (on: Page) => on.locator('body').textContent();

    // The attacker's name for this machine: the console answers nothing a page could read.
    const evil = `http://evil.example:${port}`;
    expect((await page.goto(`${evil}/inbox/runs/${run.id}`))?.status()).toBe(421);
    expect(await text(page)).not.toContain('Raise Ann');
    expect(await page.locator('form[method="post"]').count()).toBe(0);
    // Its page, same-origin with the console under that name, posts the approval as a form would.
    const status = await attackerPost(page, evil, `/inbox/runs/${run.id}/decide`, {
      [`decision:${action!.id}`]: 'approve',
    });
    expect(status).toBe(421);
    expect(ws.runs()).toEqual({});

    // The person, in another tab of the same browser: the printed URL, its "Open" link, the
    // header link, all under the base path.
    const person = await context.newPage();
    expect((await person.goto(printed))?.status()).toBe(200);
    await person.getByRole('link', { name: /^Open/ }).first().click();
    await person.waitForURL(`${printed}runs/**`);
    await person.getByRole('link', { name: 'Inbox', exact: true }).click();
    await person.waitForURL(printed);
    await person.getByRole('link', { name: /^Open/ }).first().click();
    await person.waitForURL(`${printed}runs/**`);
    await person
      .locator(`fieldset[id="action-${action!.id}"]`)
      .getByRole('button', { name: /^Approve/ })
      .click();
    await person.waitForURL(/outcome=/);
    expect(person.url().startsWith(`${printed}runs/`)).toBe(true);
    expect(ws.runs()).toEqual({ update_salary: 1 });
    await context.close();

    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  it('item 4: two console processes over one store: the one that did not decide names who did, from the store, and runs nothing', async () => {
    const file = join(ws.dir, 'two.db');
    const run = await suspendedHr(file);
    const [action] = listActions(run);
    const ran = ws.runs();
    const consoles = [consoleProcess(`sqlite:${file}`, 'ann'), consoleProcess(`sqlite:${file}`, 'bob')];
    others.push(...consoles);
    const [annAt, bobAt] = await Promise.all(consoles.map((each) => address(each)));
    const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
    try {
      const [ann, bob] = await Promise.all(contexts.map((context) => context.newPage()));
      await Promise.all([ann!.goto(`${annAt}runs/${run.id}`), bob!.goto(`${bobAt}runs/${run.id}`)]);
      const approve = (page: Page) =>
        page
          .locator(`fieldset[id="action-${action!.id}"]`)
          .getByRole('button', { name: /^Approve/ })
          .click();
      await approve(ann!);
      await ann!.waitForURL(/outcome=suspended/);
      expect(ws.runs()).toEqual({ ...ran, update_salary: (ran.update_salary ?? 0) + 1 });

      const lost = bob!.waitForResponse((response) => response.request().method() === 'POST');
      await approve(bob!);
      expect((await lost).status()).toBe(409);
      const said = await bob!.locator('body').textContent();
      expect(said).toContain('Already decided');
      expect(said).toContain('Decided by ann');
      expect(ws.runs()).toEqual({ ...ran, update_salary: (ran.update_salary ?? 0) + 1 });
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
      for (const each of consoles) each.kill('SIGTERM');
      await Promise.all(consoles.map((each) => (each.exitCode === null ? once(each, 'exit') : undefined)));
    }
  });
});

/** The consoles started by a test besides `child`, stopped at the end whatever happened. */
const others: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const each of others) if (each.exitCode === null) each.kill('SIGKILL');
});

/** `agent-continuations console` on a free port over `store`, deciding as `user`, with `extra` options. */
function consoleProcess(
  store: string,
  user: string,
  extra: string[] = [],
  cwd?: string,
): ChildProcessWithoutNullStreams {
  return spawn(
    process.execPath,
    [
      '--conditions=@agent-continuations/source',
      '--import',
      TSX,
      join(CLI, 'src/bin.ts'),
      'console',
      '--store',
      store,
      '--agents',
      AGENTS,
      '--port',
      '0',
      '--user',
      user,
      ...extra,
    ],
    { ...(cwd ? { cwd } : {}), env: { ...process.env, CLI_TEST_RUNS: process.env.CLI_TEST_RUNS! } },
  );
}

/** A run of the command line's `hr` agent waiting for its salary approval, saved at `path`. */
async function suspendedHr(path: string): Promise<Continuation> {
  const result = await hr.run('Raise Ann Example');
  if (result.status !== 'suspended') throw new Error('expected hr to suspend');
  const store = createSqliteStore({ path });
  await store.save(result.continuation);
  await store.close();
  return result.continuation;
}

/** The address `agent-continuations console` prints once it listens. */
function address(process: ChildProcessWithoutNullStreams): Promise<string> {
  let stdout = '';
  let stderr = '';
  process.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    process.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = /The approval inbox is at (http:\/\/\S+\/) /.exec(stdout);
      if (found) resolve(found[1]!);
    });
    process.once('exit', (code) => reject(new Error(`console exited with ${code}: ${stderr}`)));
  });
}
