/**
 * The approval inbox example as a function: open the SQLite store, run the HR agent until its
 * deepest agent waits for a salary approval, save that continuation, and serve the web console
 * over the store. A decision taken in the browser resumes the run in this process.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createConsole } from '@agent-continuations/console';
import { listActions } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { serve } from '@hono/node-server';
import { hrAgent } from './agents';
import { type Ledger, type SalaryChange, sqliteLedger } from './ledger';

/** Options of {@link startApprovalInbox}. */
export interface ApprovalInboxOptions {
  /** The folder of the SQLite file (`inbox.sqlite`); created when missing. */
  dir: string;
  /** The port to listen on; 0 picks a free one. */
  port?: number;
  /** The interface to listen on; 127.0.0.1 (this machine only) by default. */
  host?: string;
  /** Signs the console's CSRF tokens and approval links (at least 16 bytes). */
  secret?: string;
  /** The person every decision is recorded as made by. */
  user?: string;
  /** Hears of each salary change `update_salary` applies. */
  onSalaryChange?: (change: SalaryChange) => void;
}

/** A running inbox. */
export interface ApprovalInbox {
  /** The inbox's address, e.g. `http://127.0.0.1:4318/`. */
  url: string;
  /** The id of the continuation that waits for the salary approval. */
  continuationId: string;
  /** A signed approval link for the salary change (what a notification would carry). */
  approveLink: string;
  /** The salary changes `update_salary` made. */
  ledger: Ledger;
  /** Stop serving and close the store and the model server. */
  close(): Promise<void>;
}

/**
 * Start the example: one HR run waiting on `benefits.update_salary`, and the console serving it.
 *
 * @example
 * ```ts
 * const inbox = await startApprovalInbox({ dir: '.data', port: 4318 });
 * console.log(`Open ${inbox.url}`);
 * ```
 */
export async function startApprovalInbox(options: ApprovalInboxOptions): Promise<ApprovalInbox> {
  mkdirSync(options.dir, { recursive: true });
  const store = createSqliteStore({ path: join(options.dir, 'inbox.sqlite') });
  const ledger = sqliteLedger(store.database, options.onSalaryChange);
  const agents = await hrAgent(ledger);
  try {
    const result = await agents.hr.run('Please give Ada a 3000 raise.', { metadata: { ticket: 'HR-1001' } });
    if (result.status !== 'suspended') {
      throw new Error(`The HR agent should wait for a salary approval; its run is ${result.status}.`);
    }
    await store.save(result.continuation);

    // Listen first: the approval links the console signs carry the address it is served at.
    let inbox: ReturnType<typeof createConsole> | undefined;
    const host = options.host ?? '127.0.0.1';
    const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const listening = serve(
        { fetch: (request) => inbox!.fetch(request), port: options.port ?? 4318, hostname: host },
        () => resolve(listening),
      );
      listening.once('error', reject);
    });
    const url = `http://${host}:${(server.address() as AddressInfo).port}/`;
    const user = options.user ?? 'hr-manager@example.com';
    inbox = createConsole({
      store,
      agents: { hr: agents.hr },
      secret: options.secret ?? 'approval-inbox-example-secret',
      baseUrl: url,
      // The example trusts whoever reaches it (it listens on this machine only by default).
      authorize: () => ({ id: user }),
    });
    const [action] = listActions(result.continuation);
    return {
      url,
      continuationId: result.continuation.id,
      approveLink: await inbox.links.url(result.continuation.id, action!.id, 'approve'),
      ledger,
      async close() {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        await agents.close();
        await store.close();
      },
    };
  } catch (error) {
    await agents.close();
    await store.close();
    throw error;
  }
}
