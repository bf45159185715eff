/**
 * The account demo. With no argument it tells the story twice, each time across processes:
 *   `start`   run until the transfer needs approval, save the continuation in the SQLite store
 *             (`.data/accounts.sqlite`, which also holds the bank's tables), exit;
 *   `approve` (or `reject`) in a new process, find the waiting continuation in the store, decide,
 *             resume it under the store's claim, print the answer. `approve <id>` decides on one
 *             continuation, as an approval link would; two clicks on it resume it once.
 * Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL, OPENAI_MODEL) to use a real model.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createRuntime,
  type Decisions,
  isContinuationError,
  listActions,
  serializeContinuation,
} from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { AGENT_NAME, buildAccountAgent } from './agent';
import { sqliteBank } from './bank';
import { demoClient } from './client';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.ACCOUNT_DEMO_DIR ?? join(here, '..', '.data');
const api = process.env.ACCOUNT_DEMO_API === 'responses' ? 'responses' : 'chat';
const log = (line: string) => console.log(`[process ${process.pid}] ${line}`);

/** The runtime over the continuation store; the store and the bank share one SQLite file. */
async function open(owner: string) {
  mkdirSync(dataDir, { recursive: true });
  const store = createSqliteStore({ path: join(dataDir, 'accounts.sqlite') });
  const bank = sqliteBank(store.database);
  const model = await demoClient();
  const agent = buildAccountAgent(model.client, model.model, bank, api);
  const runtime = createRuntime({ agents: [agent], store, owner });
  const close = async () => {
    await model.close();
    await store.close();
  };
  return { runtime, store, bank, label: model.label, close };
}

async function start(): Promise<void> {
  // Each story starts with a new bank and an empty store.
  rmSync(dataDir, { recursive: true, force: true });
  const { runtime, label, close } = await open(`requester-${process.pid}`);
  try {
    log(`asking ${label} (${api} API)`);
    // A suspension is saved in the store by the runtime.
    const result = await runtime.start(AGENT_NAME, 'Send 50 EUR from ACC-1 to ACC-2.', {
      metadata: { customer: 'C-7' },
    });
    if (result.status === 'completed') return log(`the model finished without a transfer: ${result.output}`);
    if (result.status !== 'suspended') throw new Error(`unexpected status ${result.status}`);
    const bytes = serializeContinuation(result.continuation).length;
    log(
      `suspended, waiting for ${result.actions.length} approval(s); continuation ${result.continuation.id} saved in the SQLite store (${bytes} bytes). Exiting.`,
    );
  } finally {
    await close();
  }
}

async function decide(verdict: 'approve' | 'reject', id?: string): Promise<void> {
  const { runtime, store, bank, close } = await open(`operator-${process.pid}`);
  try {
    id ??= (await runtime.inbox({ agentName: AGENT_NAME })).items[0]?.continuationId;
    // Read as a link would, whatever its state: a second click finds it claimed or resumed.
    const stored = id ? await store.load(id) : undefined;
    if (!id || !stored) return log('nothing waits for a decision.');
    const decisions: Decisions = {};
    for (const action of listActions(stored.continuation)) {
      log(`pending ${action.kind}: ${action.toolName} ${JSON.stringify(action.args)}`);
      decisions[action.id] =
        verdict === 'approve'
          ? { type: 'approve', by: 'ops@example.com' }
          : { type: 'reject', by: 'ops@example.com', reason: 'Transfers to ACC-2 are on hold.' };
    }
    // The claim makes sure the continuation is resumed once, even if two operators decide at once.
    const result = await runtime.resume(id, decisions).catch((error: unknown) => {
      if (!isContinuationError(error, 'CLAIM_CONFLICT')) throw error;
      log(`another operator decided first, nothing ran here: ${error.message}`);
    });
    if (!result) return;
    if (result.status !== 'completed')
      throw new Error(`expected the run to complete, it is ${result.status}`);
    log(`${verdict === 'approve' ? 'approved' : 'rejected'} and resumed.`);
    console.log(`Final answer: ${result.output}`);
    console.log(`transfers executed: ${bank.transfers()}`);
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'start') return start();
  if (command === 'approve' || command === 'reject') return decide(command, process.argv[3]);
  for (const verdict of ['approve', 'reject']) {
    console.log(`--- ${verdict} path ---`);
    for (const step of ['start', verdict]) {
      const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), step], {
        stdio: 'inherit',
        env: process.env,
      });
      if (child.status !== 0) process.exit(child.status ?? 1);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
