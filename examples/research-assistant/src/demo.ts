/**
 * The research assistant demo. With no argument it runs the whole story in separate processes:
 *   1. `start`: the assistant delegates to the researcher, which searches and then wants to publish;
 *      publishing needs approval, so the whole run suspends and its continuation is saved in the
 *      SQLite store (`.data/research.sqlite`, which also holds the publications table);
 *   2. `approve`: a new process lists what waits in the store (the researcher's `publish_report`,
 *      two levels down), approves it with an edited title, and resumes both agents to the end
 *      under a store claim;
 *   3. `again`: one more process tries to resume the same continuation, as a double-clicked
 *      button would: the claim refuses it, and nothing runs twice.
 * Set RESEARCH_DEMO_DIR to choose where the SQLite file goes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Continuation,
  createRuntime,
  type Decisions,
  isContinuationError,
  listActions,
  type Runtime,
} from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { AGENT_NAME, buildAssistant } from './agents';
import { type Publisher, sqlitePublisher } from './publisher';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.RESEARCH_DEMO_DIR ?? join(here, '..', '.data');
const say = (line: string) => console.log(`[process ${process.pid}] ${line}`);

/**
 * The runtime over the continuation store; the store and the publications table share one SQLite
 * file. `counts` counts this process's searches.
 */
function open(owner: string, counts = { search: 0 }): { runtime: Runtime; publisher: Publisher } {
  mkdirSync(dataDir, { recursive: true });
  const store = createSqliteStore({ path: join(dataDir, 'research.sqlite') });
  const publisher = sqlitePublisher(store.database);
  const agent = buildAssistant(publisher, counts);
  return { runtime: createRuntime({ agents: [agent], store, owner }), publisher };
}

async function start(): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  const counts = { search: 0 };
  const { runtime } = open(`requester-${process.pid}`, counts);
  try {
    // A suspension is saved in the store by the runtime.
    const result = await runtime.start(AGENT_NAME, 'the 2026 solar market', {
      metadata: { requestedBy: 'marketing' },
    });
    if (result.status !== 'suspended')
      throw new Error(`expected the run to wait for approval, it is ${result.status}`);
    say(`suspended with ${result.actions.length} action(s) waiting; continuation saved in the store.`);
    say(`search_web executions in this process: ${counts.search}. Exiting.`);
  } finally {
    await runtime.store.close?.();
  }
}

async function approve(): Promise<void> {
  const counts = { search: 0 };
  const { runtime, publisher } = open(`editor-${process.pid}`, counts);
  try {
    const { items } = await runtime.inbox({ agentName: AGENT_NAME });
    if (items.length === 0) throw new Error('Nothing to approve: run the demo with `start` first.');
    // One set of decisions per waiting continuation.
    const waiting = new Map<string, Decisions>();
    for (const { continuationId, action } of items) {
      const path = action.path.map((segment) => `${segment.agent}.${segment.toolName}`).join(' > ');
      say(`pending ${action.kind}: ${path} ${JSON.stringify(action.args)}`);
      // The editor approves, with a shorter title.
      const args = { ...(action.args as Record<string, unknown>), title: 'Solar market brief 2026' };
      const decisions = waiting.get(continuationId) ?? {};
      decisions[action.id] = { type: 'approve', args, by: 'editor@example.com' };
      waiting.set(continuationId, decisions);
    }
    for (const [id, decisions] of waiting) {
      const result = await runtime.resume(id, decisions);
      if (result.status !== 'completed')
        throw new Error(`expected the run to complete, it is ${result.status}`);
      say('approved and resumed.');
      console.log(`Final answer: ${result.output}`);
    }
    console.log(`publish_report executions: ${publisher.count()}`);
    console.log(`search_web executions in the resuming process: ${counts.search}`);
  } finally {
    await runtime.store.close?.();
  }
}

async function again(): Promise<void> {
  const { runtime, publisher } = open(`editor-${process.pid}`);
  try {
    const [resumed] = (await runtime.store.list({ status: 'completed', agentName: AGENT_NAME })).items;
    if (!resumed) throw new Error('Nothing was resumed yet.');
    const approveAll = (continuation: Continuation): Decisions =>
      Object.fromEntries(listActions(continuation).map((action) => [action.id, { type: 'approve' }]));
    try {
      await runtime.resume(resumed.id, approveAll);
      throw new Error('the same continuation was resumed twice');
    } catch (error) {
      if (!isContinuationError(error, 'CLAIM_CONFLICT')) throw error;
      say(`resuming the same continuation again: ${error.code} (${error.message})`);
    }
    console.log(`publish_report executions: ${publisher.count()}`);
  } finally {
    await runtime.store.close?.();
  }
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'start') return start();
  if (command === 'approve') return approve();
  if (command === 'again') return again();
  for (const step of ['start', 'approve', 'again']) {
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
