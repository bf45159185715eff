/**
 * The chat app in a real Chromium: the page built with Vite, `useChat` posting to `chatRoute`,
 * continuations in a SQLite file, the models scripted. Transfers are counted in this process, or
 * read from the output of a server run as its own process.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptedOpenAIServer } from '@agent-continuations/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChatApp, startChatApp, startChatModels } from '../src/app';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const root = new URL('..', import.meta.url).pathname;

let models: ScriptedOpenAIServer;
let browser: Browser;
let dir: string;
let app: ChatApp;
let transfers: Array<{ to: string; amount: number }>;
/** The statuses `POST /api/chat` answered, as the pages saw them. */
let statuses: number[];
let chats = 0;

const start = (port?: number) =>
  startChatApp({
    database: join(dir, 'chat.sqlite'),
    modelsURL: models.baseURL,
    onTransfer: (transfer) => transfers.push(transfer),
    ...(port ? { port } : {}),
  });

beforeAll(async () => {
  // The page's build script, as a person runs it (vitest's environment would change the bundle).
  execFileSync(join(root, 'node_modules/.bin/vite'), ['build'], { cwd: root, stdio: 'ignore' });
  models = await startChatModels();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  dir = mkdtempSync(join(tmpdir(), 'ac-chat-'));
  app = await start();
}, 60_000);
afterAll(async () => {
  for (const child of processes) child.kill('SIGKILL');
  await browser?.close();
  await app?.close();
  await models?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  transfers = [];
  statuses = [];
});

/** A tab on a chat (tabs of one context share the saved messages). */
async function open(
  context: Awaited<ReturnType<Browser['newContext']>>,
  chat: string,
  url = app.url,
): Promise<Page> {
  const page = await context.newPage();
  page.on('response', (response) => {
    if (response.url().endsWith('/api/chat')) statuses.push(response.status());
  });
  await page.goto(`${url}/?chat=${chat}`);
  return page;
}

/** Server processes started by the tests, killed at the end whatever happens. */
const processes: ChildProcess[] = [];

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The example's server as its own process, started as `pnpm start` starts it, with `PORT` and
 * `DATABASE`; `transfers()` reads the transfers it logged.
 */
async function serverProcess(port: number, database: string) {
  const child = spawn(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', 'src/start.ts'],
    { cwd: root, env: { ...process.env, PORT: String(port), DATABASE: database }, stdio: 'pipe' },
  );
  processes.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  await Promise.race([
    new Promise<void>((resolve) => {
      const ready = () => output.includes(`Open http://127.0.0.1:${port}`) && resolve();
      child.stdout.on('data', ready);
    }),
    exited.then(() => {
      throw new Error(`The server exited before it listened:\n${output}`);
    }),
  ]);
  return {
    transfers: () =>
      [...output.matchAll(/^transfer ran: (.*)$/gm)].map((match) => JSON.parse(match[1]!) as unknown),
    async kill(signal: NodeJS.Signals) {
      child.kill(signal);
      await exited;
    },
  };
}

/** Ask for a payment and wait for the approval it stops on. */
async function ask(page: Page): Promise<void> {
  await page.getByPlaceholder('Ask').fill('Pay Bob 500', { timeout: 5000 });
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('[data-approval]').waitFor({ timeout: 5000 });
  await page.locator('output[data-status="ready"]').waitFor({ state: 'attached' });
}

const answer = (page: Page) => page.locator('li[data-role="assistant"] p').last();

describe('a chat app with a nested approval', () => {
  it('an approval clicked in the page is sent once and the transfer runs once', async () => {
    const context = await browser.newContext();
    const page = await open(context, `approve-${++chats}`);
    await ask(page);
    expect(transfers).toEqual([]);
    // The nested approval names the sub-agent's call, the one it runs.
    expect(await page.locator('[data-approval] span').textContent()).toBe(
      'Approval needed: transfer {"to":"Bob","amount":500}',
    );
    // The README's picture of it; rewritten only when asked (UPDATE_SCREENSHOT=1).
    const shot = await page.locator('main').screenshot({
      ...(process.env.UPDATE_SCREENSHOT ? { path: join(root, 'screenshot.png') } : {}),
    });
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => answer(page).textContent()).toMatch(/^payments says: .*transfer says: .*sent/);
    await page.locator('output[data-status="ready"]').waitFor({ state: 'attached' });
    expect(transfers).toEqual([{ to: 'Bob', amount: 500 }]);
    expect(statuses).toEqual([200, 200]);
    await context.close();
  });

  it('two browsers approve the same approval at once: it runs once and the other says why', async () => {
    const context = await browser.newContext();
    const chat = `tabs-${++chats}`;
    const first = await open(context, chat);
    await ask(first);
    // Another browser context (its own storage and connections), given the chat as the page saved it.
    const elsewhere = await browser.newContext({ storageState: await context.storageState() });
    const second = await open(elsewhere, chat);
    await second.locator('[data-approval]').waitFor();
    await Promise.all([
      first.getByRole('button', { name: 'Approve' }).click(),
      second.getByRole('button', { name: 'Approve' }).click(),
    ]);
    const alert = (page: Page) => page.getByRole('alert');
    await expect.poll(async () => (await alert(first).count()) + (await alert(second).count())).toBe(1);
    const loser = (await alert(first).count()) === 1 ? first : second;
    const winner = loser === first ? second : first;
    expect(await alert(loser).textContent()).toMatch(/decided|claimed|already/i);
    await expect.poll(() => answer(winner).textContent()).toMatch(/transfer says: .*sent/);
    expect(transfers).toHaveLength(1);
    expect(statuses.sort()).toEqual([200, 200, 409]);
    await context.close();
    await elsewhere.close();
  });

  it('the server process is killed between the question and the click: a new process resumes, the transfer runs once', async () => {
    const port = await freePort();
    const database = join(dir, 'restarted.sqlite');
    const first = await serverProcess(port, database);
    const context = await browser.newContext();
    const page = await open(context, `restart-${++chats}`, `http://127.0.0.1:${port}`);
    await ask(page);
    await first.kill('SIGKILL');
    const second = await serverProcess(port, database);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => answer(page).textContent()).toMatch(/^payments says: .*transfer says: .*sent/);
    await expect.poll(() => second.transfers()).toEqual([{ to: 'Bob', amount: 500 }]);
    expect(first.transfers()).toEqual([]);
    // The question went to the first process, the approval to the second; no retry, no error.
    expect(statuses).toEqual([200, 200]);
    await context.close();
    await second.kill('SIGTERM');
    expect(second.transfers()).toHaveLength(1);
  }, 20_000);

  it('a rejection: the transfer never runs and the model is told', async () => {
    const context = await browser.newContext();
    const page = await open(context, `reject-${++chats}`);
    await ask(page);
    await page.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => answer(page).textContent()).toMatch(/rejected.*Not now/);
    expect(transfers).toEqual([]);
    const told = models.requests.filter((request) => request.model === 'payments').at(-1);
    expect(JSON.stringify(told?.body)).toContain('Not now');
    await context.close();
  });
});
