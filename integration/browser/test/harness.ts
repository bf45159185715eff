/**
 * What the browser tests drive: engine agents on scripted models (a depth-3 salary chain and a
 * helpdesk that asks a manager), a SQLite store in a temporary folder, and the console served
 * over real HTTP on a free port. Tool runs are counted in this process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsole } from '@agent-continuations/console';
import {
  agentTool,
  createContinuableAgent,
  defineTool,
  humanTool,
  type ModelRequest,
  type SuspendedResult,
} from '@agent-continuations/core';
import { createSqliteStore, type SqliteStore } from '@agent-continuations/store-sqlite';
import { firstUserText, lastToolResults, scriptedModel } from '@agent-continuations/testing';
import { serve } from '@hono/node-server';
import type { Page } from 'playwright-core';
import { z } from 'zod';

/** The system Chromium; the tests fail when it is missing (CI installs it). */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];

/** The secret of the console under test: CSRF tokens and approval links. */
export const SECRET = 'browser-test-console-secret';
/** The header a browser context names its person with; `mallory` is refused. */
export const USER_HEADER = 'x-test-user';
export const REFUSED_USER = 'mallory';

/** What the agents' tools did, in order. */
export interface ToolLog {
  salaries: Array<{ employee: string; salary: number }>;
  letters: string[];
  /** What the salary agent's model was told when a person rejected its call. */
  rejections: unknown[];
  answers: unknown[];
}

/** Each agent answers with what its tool returned, so the result shows the chain's outcome. */
const relay = (who: string) => (request: ModelRequest) =>
  `${who}: ${lastToolResults(request.messages)
    .map((part) => JSON.stringify(part.output))
    .join(' ')}`;

/** Build the agents; their tools write to `log`. */
export function buildAgents(log: ToolLog) {
  const updateSalary = defineTool({
    name: 'update_salary',
    description: 'Set an employee salary',
    parameters: z.object({ employee: z.string(), salary: z.number().int().min(1) }),
    needsApproval: true,
    execute: async (args) => {
      log.salaries.push(args);
      return { updated: args.employee, salary: args.salary };
    },
  });
  const sendLetter = defineTool({
    name: 'send_letter',
    description: 'Write to an employee',
    parameters: z.object({ employee: z.string(), text: z.string() }),
    needsApproval: true,
    execute: async (args) => {
      log.letters.push(args.employee);
      return { sent: args.employee };
    },
  });
  // Each level hands its input down, so the deepest tool call names the employee of the run. An
  // input that asks for a letter gets a second approval (send_letter) after the salary.
  const salary = createContinuableAgent({
    name: 'salary',
    instructions: 'You change salaries.',
    model: scriptedModel([
      (request) => ({
        toolCalls: [
          { name: 'update_salary', args: { employee: firstUserText(request.messages), salary: 120_000 } },
        ],
      }),
      (request) => {
        const [result] = lastToolResults(request.messages);
        if (JSON.stringify(result?.output).includes('rejected')) log.rejections.push(result?.output);
        const employee = firstUserText(request.messages);
        if (!employee.includes('write to them')) return relay('salary')(request);
        return { toolCalls: [{ name: 'send_letter', args: { employee, text: 'About your salary.' } }] };
      },
      relay('salary'),
    ]),
    tools: [updateSalary, sendLetter],
  });
  const payroll = createContinuableAgent({
    name: 'payroll',
    instructions: 'You run payroll.',
    model: scriptedModel([
      (request) => ({ toolCalls: [{ name: 'salary', args: { input: firstUserText(request.messages) } }] }),
      relay('payroll'),
    ]),
    tools: [agentTool(salary)],
  });
  const hr = createContinuableAgent({
    name: 'hr',
    instructions: 'You help HR.',
    model: scriptedModel([
      (request) => ({ toolCalls: [{ name: 'payroll', args: { input: firstUserText(request.messages) } }] }),
      relay('hr'),
    ]),
    tools: [agentTool(payroll)],
  });
  const helpdesk = createContinuableAgent({
    name: 'helpdesk',
    instructions: 'You answer staff questions.',
    model: scriptedModel([
      (request) => ({
        toolCalls: [{ name: 'ask_manager', args: { question: firstUserText(request.messages) } }],
      }),
      (request) => {
        const output = lastToolResults(request.messages)[0]?.output;
        log.answers.push(output);
        return `helpdesk: ${JSON.stringify(output)}`;
      },
    ]),
    tools: [
      humanTool({
        name: 'ask_manager',
        parameters: z.object({ question: z.string() }),
        response: z.object({
          allowed: z.boolean(),
          days: z.number().int().min(1).max(5).optional(),
          note: z.string().optional(),
        }),
      }),
    ],
  });
  return { hr, helpdesk };
}

/** The console under test and what it runs on. */
export interface ConsoleUnderTest {
  url: string;
  store: SqliteStore;
  log: ToolLog;
  /** Run `agent` with `input` and save its suspension; resolves to it. */
  suspend(agent: 'hr' | 'helpdesk', input: string): Promise<SuspendedResult>;
  close(): Promise<void>;
}

/**
 * Start the console over a fresh SQLite store on a free port. Every request's person is the
 * {@link USER_HEADER} header (`anonymous` without it); {@link REFUSED_USER} is refused everything.
 */
export async function startConsole(): Promise<ConsoleUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-browser-'));
  const store = createSqliteStore({ path: join(dir, 'console.sqlite') });
  const log: ToolLog = { salaries: [], letters: [], rejections: [], answers: [] };
  const agents = buildAgents(log);
  const inbox = createConsole({
    store,
    agents,
    secret: SECRET,
    authorize: async (request: Request) => {
      const user = request.headers.get(USER_HEADER) ?? 'anonymous';
      return user === REFUSED_USER ? false : { id: user };
    },
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = serve({ fetch: inbox.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(listening as Server),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    log,
    async suspend(name, input) {
      const result = await agents[name].run(input);
      if (result.status !== 'suspended')
        throw new Error(`expected ${name} to suspend, it is ${result.status}`);
      await store.save(result.continuation);
      return result;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A rebinding attacker's page: `page` opens `${site}/attack`, served by the test, whose form
 * auto-submits `fields` to `action` (a path, same-origin under the attacker's name). Resolves to
 * the status the POST got.
 */
export async function attackerPost(
  page: Page,
  site: string,
  action: string,
  fields: Record<string, string>,
): Promise<number> {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input name="${name}" value="${value}">`)
    .join('');
  await page.route(`${site}/attack`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<form method="post" action="${action}">${inputs}</form>`,
    }),
  );
  await page.goto(`${site}/attack`);
  const posted = page.waitForResponse((response) => response.request().method() === 'POST');
  await page.evaluate(() => document.forms[0]!.submit());
  return (await posted).status();
}
