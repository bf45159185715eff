/**
 * The console the safety tests in Chromium drive: a payments agent whose run asks for two
 * transfers at once, served under a base path over a runtime with a SQLite store and log (one
 * file), and an `authorize` that separates tenants (a person is `name@tenant`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConsoleOptions, createConsole } from '@agent-continuations/console';
import {
  type CheckpointLog,
  type ContinuationStore,
  createContinuableAgent,
  createRuntime,
  defineTool,
  listActions,
  type Runtime,
  type ToolPolicy,
} from '@agent-continuations/core';
import { createSqliteCheckpointLog, createSqliteStore } from '@agent-continuations/store-sqlite';
import { firstUserText, lastToolResults, scriptedModel } from '@agent-continuations/testing';
import { getRequestListener } from '@hono/node-server';
import { z } from 'zod';
import { USER_HEADER } from './harness';

export const SECRET = 'browser-safety-console-secret';
export const BASE = '/inbox';

/** Armed, the next transfer is where its worker dies: `died` is called and the call never returns. */
export interface Crash {
  armed: boolean;
  died?: () => void;
}

/** Transfers: a run asks for two at once (the request names whose tenant it is), then answers. */
export function paymentsAgent(
  sent: Array<{ to: string; amount: number }>,
  crash?: Crash,
  policy?: ToolPolicy,
) {
  const transfer = defineTool({
    name: 'transfer',
    description: 'Send money from the company account',
    parameters: z.object({ to: z.string().min(1), amount: z.number().int().positive() }),
    needsApproval: true,
    ...(policy ? { policy } : {}),
    execute: async (args) => {
      if (crash?.armed) {
        crash.died?.();
        return new Promise<never>(() => {});
      }
      sent.push(args);
      return { sent: args.amount, to: args.to };
    },
  });
  return createContinuableAgent({
    name: 'payments',
    model: scriptedModel([
      (request) => {
        const text = firstUserText(request.messages);
        return {
          toolCalls: [
            { name: 'transfer', args: { to: `${text} one`, amount: 100 }, id: 'call_one' },
            { name: 'transfer', args: { to: `${text} two`, amount: 200 }, id: 'call_two' },
          ],
        };
      },
      (request) => {
        const results = lastToolResults(request.messages);
        if (results.length === 1 && request.messages.filter((m) => m.role === 'tool').length === 1) {
          return 'waiting for the other';
        }
        return `Done: ${results.map((part) => JSON.stringify(part.output)).join(' ')}`;
      },
      (request) => `Done: ${JSON.stringify(lastToolResults(request.messages).map((part) => part.output))}`,
    ]),
    tools: [transfer],
  });
}

export interface Served {
  url: string;
  /** The SQLite file of the store and the log. */
  file: string;
  runtime: Runtime;
  store: ContinuationStore;
  log: CheckpointLog;
  sent: Array<{ to: string; amount: number }>;
  /** Start a run for `tenant`; resolves to its continuation id and its two action ids. */
  start(tenant: string, who: string): Promise<{ id: string; actions: string[] }>;
  close(): Promise<void>;
}

/**
 * Serve a console under {@link BASE} on a free port, over a runtime with a SQLite store and log.
 * A person is `name@tenant` (the header); they see only their tenant's runs. Given the `file` of
 * another served console, this one opens the same database with connections of its own, as a
 * second console process behind a load balancer would; that file stays for its first console.
 */
export async function serveConsole(
  extra: Partial<ConsoleOptions> = {},
  policy?: ToolPolicy,
  shared?: string,
): Promise<Served> {
  const dir = shared ? undefined : mkdtempSync(join(tmpdir(), 'ac-browser-safety-'));
  const file = shared ?? join(dir!, 'console.sqlite');
  const store = createSqliteStore({ path: file });
  const log = createSqliteCheckpointLog({ database: file });
  const sent: Array<{ to: string; amount: number }> = [];
  const runtime = createRuntime({ agents: [paymentsAgent(sent, undefined, policy)], store, log });
  let handler: ((request: Request) => Promise<Response>) | undefined;
  const server: Server = createServer(getRequestListener((request) => handler!(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${BASE}`;
  const inbox = createConsole({
    runtime,
    secret: SECRET,
    basePath: BASE,
    baseUrl: url,
    authorize: (request, access) => {
      const user = request.headers.get(USER_HEADER) ?? '';
      const tenant = user.split('@')[1];
      if (!tenant) return undefined;
      if ('run' in access && access.run && access.run.metadata.tenant !== tenant) return false;
      return { id: user };
    },
    ...extra,
  });
  handler = inbox.fetch;
  return {
    url,
    file,
    runtime,
    store,
    log,
    sent,
    async start(tenant, who) {
      const result = await runtime.start('payments', who, { metadata: { tenant } });
      if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
      return { id: result.continuation.id, actions: listActions(result.continuation).map((a) => a.id) };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
