/**
 * The HR demo. With no argument it runs the whole story in separate processes:
 *   1. `start`: run until the deepest agent needs approval, save the continuation in the SQLite
 *      store (`.data/hr.sqlite`), exit;
 *   2. `approve`: in a new process, list the waiting continuation's actions, approve them, resume
 *      it under the store's claim, print the answer.
 * The models are a local scripted OpenAI-compatible server, or a real endpoint when OPENAI_API_KEY
 * is set (with OPENAI_BASE_URL and OPENAI_MODEL to pick another endpoint or model).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, type Decisions, serializeContinuation } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { buildHrAgent } from './agents';
import { demoClient } from './client';
import { sqliteLedger } from './ledger';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.HR_DEMO_DIR ?? join(here, '..', '.data');

/** The runtime over the continuation store; the store and the payroll ledger share one SQLite file. */
async function open(owner: string) {
  mkdirSync(dataDir, { recursive: true });
  const store = createSqliteStore({ path: join(dataDir, 'hr.sqlite') });
  const ledger = sqliteLedger(store.database);
  const models = await demoClient();
  const runtime = createRuntime({ agents: [buildHrAgent(ledger, models)], store, owner });
  const close = async () => {
    await models.close();
    await store.close();
  };
  return { runtime, ledger, close };
}

async function start(): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  const { runtime, close } = await open(`requester-${process.pid}`);
  try {
    // A suspension is saved in the store by the runtime.
    const result = await runtime.start('hr', 'Please give Ada a 3000 raise.', {
      metadata: { ticket: 'HR-1001' },
    });
    if (result.status === 'completed') {
      // Only a real model may choose to answer without changing the salary.
      console.log(`[process ${process.pid}] the model finished without a salary change: ${result.output}`);
      return;
    }
    if (result.status !== 'suspended')
      throw new Error(`expected the run to wait for approval, it is ${result.status}`);
    const bytes = serializeContinuation(result.continuation).length;
    console.log(
      `[process ${process.pid}] suspended: ${result.actions.length} action(s) waiting; continuation ${result.continuation.id} saved in the SQLite store (${bytes} bytes). Exiting.`,
    );
  } finally {
    await close();
  }
}

async function approve(): Promise<void> {
  const { runtime, ledger, close } = await open(`approver-${process.pid}`);
  try {
    const { items } = await runtime.inbox({ agentName: 'hr' });
    const waiting = items[0]?.continuationId;
    if (!waiting) return console.log(`[process ${process.pid}] nothing waits for approval.`);
    const decisions: Decisions = {};
    for (const { action } of items.filter((item) => item.continuationId === waiting)) {
      const path = action.path.map((segment) => `${segment.agent}.${segment.toolName}`).join(' > ');
      console.log(
        `[process ${process.pid}] pending ${action.kind}: ${path} ${JSON.stringify(action.args)}  (id ${action.id})`,
      );
      decisions[action.id] = { type: 'approve', by: 'hr-manager@example.com' };
    }
    // The claim makes sure this continuation is resumed once, even if two approvers click at once.
    const result = await runtime.resume(waiting, decisions);
    if (result.status !== 'completed')
      throw new Error(`expected the run to complete, it is ${result.status}`);
    console.log(`[process ${process.pid}] approved and resumed.`);
    console.log(`Final answer: ${result.output}`);
    console.log(`update_salary executions: ${ledger.applied()}`);
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'start') return start();
  if (command === 'approve') return approve();
  for (const step of ['start', 'approve']) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), step], {
      stdio: 'inherit',
      env: process.env,
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
