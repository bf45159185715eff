/**
 * Agents and a cookie-keeping client for the console tests: a three-level HR run (hr → payroll →
 * benefits, whose `update_salary` needs approval) and a one-level desk agent that asks a human.
 */
import {
  agentTool,
  type ContinuationStore,
  createContinuableAgent,
  defineTool,
  humanTool,
  type JsonValue,
  type ModelRequest,
  type ToolPolicy,
} from '@agent-continuations/core';
import { lastToolResults, scriptedModel } from '@agent-continuations/testing';
import { z } from 'zod';
import { type ConsoleOptions, createConsole } from '../src/index';

export const SECRET = 'console-test-secret-0123456789';

/** The tool's runs, and an optional gate a test holds the tool at. */
export interface Ledger {
  runs: Array<{ employeeId: string; salary: number }>;
  gate?: { entered: () => void; release: Promise<void> };
}

/** The model's last turn: the tool results it read. */
export const echo = (request: ModelRequest) =>
  `Result: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`;

export function hrAgents(
  ledger: Ledger,
  args: JsonValue = { employeeId: 'E-42', salary: 60_000 },
  policy?: ToolPolicy,
) {
  const benefitsModel = scriptedModel([
    { toolCalls: [{ name: 'update_salary', args, id: 'call_salary' }] },
    echo,
  ]);
  const updateSalary = defineTool({
    name: 'update_salary',
    description: 'Change an employee salary',
    parameters: z.object({
      employeeId: z.string().min(1),
      salary: z.number().int().positive().max(500_000).multipleOf(100),
      note: z.string().optional(),
    }),
    needsApproval: true,
    ...(policy ? { policy } : {}),
    execute: async ({ employeeId, salary }) => {
      if (ledger.gate) {
        ledger.gate.entered();
        await ledger.gate.release;
      }
      ledger.runs.push({ employeeId, salary });
      return `salary of ${employeeId} set to ${salary}`;
    },
  });
  const benefits = createContinuableAgent({ name: 'benefits', model: benefitsModel, tools: [updateSalary] });
  const payroll = createContinuableAgent({
    name: 'payroll',
    model: scriptedModel([
      { toolCalls: [{ name: 'benefits', args: { input: 'raise E-42' }, id: 'call_benefits' }] },
      echo,
    ]),
    tools: [agentTool(benefits)],
  });
  const hr = createContinuableAgent({
    name: 'hr',
    model: scriptedModel([
      { toolCalls: [{ name: 'payroll', args: { input: 'raise for Ann' }, id: 'call_payroll' }] },
      echo,
    ]),
    tools: [agentTool(payroll)],
  });
  return { hr, payroll, benefits, benefitsModel };
}

/**
 * A desk agent whose human tool `ask_manager` waits for an answer: `{ ship: boolean }` by default,
 * any response schema (or none), with a deadline when given.
 */
export function deskAgent(
  options: { question?: string; response?: z.ZodType | undefined; deadline?: Date } = {},
) {
  const { question = 'Ship it?', deadline } = options;
  const response = 'response' in options ? options.response : z.object({ ship: z.boolean() });
  const model = scriptedModel([
    { toolCalls: [{ name: 'ask_manager', args: { question }, id: 'call_ask' }] },
    echo,
  ]);
  const desk = createContinuableAgent({
    name: 'desk',
    model,
    tools: [
      humanTool({
        name: 'ask_manager',
        parameters: z.object({ question: z.string() }),
        ...(response ? { response } : {}),
        ...(deadline ? { deadline } : {}),
      }),
    ],
  });
  return { desk, model };
}

/** The action id of the depth-3 salary approval. */
export const SALARY_ACTION = 'call_payroll/call_benefits/call_salary';

/** A console whose `authorize` reads the user from the `x-user` header (`nobody` is refused). */
export function testConsole(store: ContinuationStore, options: Partial<ConsoleOptions> = {}) {
  return createConsole({
    store,
    secret: SECRET,
    authorize: (request) => {
      const user = request.headers.get('x-user');
      return user && user !== 'nobody' ? { id: user } : undefined;
    },
    ...options,
  });
}

/** A browser-like client: keeps the CSRF cookie, sends forms, does not follow redirects. */
export function client(handler: { fetch(request: Request): Promise<Response> }, user = 'ann') {
  let cookie = '';
  const origin = 'http://console.test';
  async function send(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (user) headers.set('x-user', user);
    if (cookie) headers.set('cookie', cookie);
    const response = await handler.fetch(new Request(`${origin}${path}`, { ...init, headers }));
    // As a browser does: each Set-Cookie in turn, the last one of a name wins.
    for (const set of response.headers.getSetCookie()) cookie = set.split(';')[0]!;
    return {
      status: response.status,
      location: response.headers.get('location'),
      text: await response.text(),
    };
  }
  return {
    /** Act as another user from now on, in the same browser session. */
    as(name: string) {
      user = name;
    },
    get: (path: string) => send(path),
    /** Post a form as the console's forms do: the `csrf` field goes in the URL, the rest in the body. */
    post: (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
      const { csrf, ...rest } = fields;
      const target =
        csrf === undefined
          ? path
          : `${path}${path.includes('?') ? '&' : '?'}csrf=${encodeURIComponent(csrf)}`;
      return send(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(rest).toString(),
      });
    },
    /** Post a body as it is (`type` empty: the one the body sets, e.g. multipart's boundary). */
    raw: (path: string, body: BodyInit, type: string) =>
      send(path, { method: 'POST', ...(type ? { headers: { 'content-type': type } } : {}), body }),
    /** Open a page and read its form's CSRF token. */
    async csrf(path: string) {
      const page = await send(path);
      const token = formToken(page.text);
      if (!token) throw new Error(`no CSRF token on ${path} (${page.status}): ${page.text.slice(0, 300)}`);
      return token;
    },
  };
}

/** The CSRF token in the target of a page's form (`action="…?csrf=<token>"`), if any. */
export function formToken(text: string): string | undefined {
  const found = /<form method="post" action="[^"]*\?csrf=([^"&]+)"/.exec(text)?.[1];
  return found === undefined ? undefined : decodeURIComponent(found);
}

/** One agent whose first turn asks for two transfers at once and whose second asks for one more. */
export function paymentsAgent(sent: string[]) {
  const transfer = defineTool({
    name: 'transfer',
    parameters: z.object({ to: z.string(), amount: z.number().positive() }),
    needsApproval: true,
    execute: async ({ to, amount }) => {
      sent.push(`${amount} to ${to}`);
      return 'sent';
    },
  });
  const model = scriptedModel([
    {
      toolCalls: [
        { name: 'transfer', args: { to: 'ann', amount: 10 }, id: 'call_a' },
        { name: 'transfer', args: { to: 'bob', amount: 20 }, id: 'call_b' },
      ],
    },
    { toolCalls: [{ name: 'transfer', args: { to: 'cy', amount: 30 }, id: 'call_c' }] },
    'done',
  ]);
  return createContinuableAgent({ name: 'payments', model, tools: [transfer] });
}
