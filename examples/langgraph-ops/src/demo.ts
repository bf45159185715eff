/**
 * The ops demo. With no argument it runs the whole story in separate processes:
 *   1. `start`: the ops agent asks diagnostics, whose heap dump needs approval; the run suspends,
 *      its continuation is saved in the SQLite store (`.data/ops.sqlite`, which also holds the
 *      operations log), and the process exits;
 *   2. `approve`, in a new process: find the waiting continuation in the store, approve what it
 *      waits for (the nested heap dump) and resume it under the store's claim; the run suspends
 *      again on the restart, and the store keeps the next continuation;
 *   3. `approve` once more, in another process: approve the restart and finish the run.
 * Each process has its own local scripted OpenAI-compatible server for the models (a real provider
 * in production); all a process shares with the others is the SQLite file.
 * Set OPS_DEMO_DIR to choose where the file goes.
 *
 *   pnpm --filter @agent-continuations/example-langgraph-ops demo
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ActionPathSegment,
  createRuntime,
  type Decisions,
  type RunResult,
  type Runtime,
  serializeContinuation,
} from '@agent-continuations/core';
import { createSqliteStore, type SqliteStore } from '@agent-continuations/store-sqlite';
import { startScriptedOpenAIServer } from '@agent-continuations/testing/runtime';
import { buildOpsAgent } from './agents';
import { type Ledger, sqliteLedger } from './ledger';
import { scripts } from './scripts';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.OPS_DEMO_DIR ?? join(here, '..', '.data');
const AGENT_NAME = 'ops';
const say = (line: string) => console.log(`[process ${process.pid}] ${line}`);

/** The continuation store and the operations log share one SQLite file. */
function open(): { store: SqliteStore; ledger: Ledger } {
  mkdirSync(dataDir, { recursive: true });
  const store = createSqliteStore({ path: join(dataDir, 'ops.sqlite') });
  return { store, ledger: sqliteLedger(store.database) };
}

/** Run `work` with a runtime of the ops agent over this process's own scripted model server. */
async function withRuntime<T>(
  store: SqliteStore,
  ledger: Ledger,
  owner: string,
  work: (runtime: Runtime) => Promise<T>,
) {
  const server = await startScriptedOpenAIServer({ scripts });
  try {
    // The runtime's agent type names the core's stream events; a graph's stream is typed wider.
    const agent = buildOpsAgent(server.baseURL, ledger);
    return await work(createRuntime({ agents: [agent], store, owner }));
  } finally {
    await server.close();
  }
}

async function start(): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  const { store, ledger } = open();
  try {
    say('ops: "checkout is failing, fix it"');
    // A suspension is saved in the store by the runtime.
    const result = await withRuntime(store, ledger, `oncall-${process.pid}`, (runtime) =>
      runtime.start(AGENT_NAME, 'checkout is failing, fix it', { metadata: { incident: 'INC-7' } }),
    );
    if (result.status !== 'suspended')
      throw new Error(`expected the run to wait for approval, it is ${result.status}`);
    report(result);
    const bytes = serializeContinuation(result.continuation).length;
    say(`continuation ${result.continuation.id} saved in the SQLite store (${bytes} bytes). Exiting.`);
  } finally {
    await store.close();
  }
}

async function approve(): Promise<void> {
  const { store, ledger } = open();
  try {
    const result = await withRuntime(store, ledger, `oncall-${process.pid}`, async (runtime) => {
      const { items } = await runtime.inbox({ agentName: AGENT_NAME });
      const waiting = items[0]?.continuationId;
      if (!waiting) return undefined;
      const decisions: Decisions = {};
      for (const { action } of items.filter((item) => item.continuationId === waiting)) {
        say(`approving ${pathOf(action.path)} (id ${action.id})`);
        decisions[action.id] = { type: 'approve', by: 'oncall@example.com' };
      }
      // The claim makes sure this continuation is resumed once, even if two on-call engineers
      // approve at once; when the run suspends again, the runtime saves the next continuation.
      return runtime.resume(waiting, decisions);
    });
    if (!result) return say('nothing waits for approval.');
    report(result);
    if (result.status === 'suspended') {
      say(`continuation ${result.continuation.id} saved in the SQLite store. Exiting.`);
    } else if (result.status === 'completed') {
      for (const { tool, runs, pid } of ledger.operations()) {
        say(`${tool} executions: ${runs} (first run in process ${pid})`);
      }
    }
  } finally {
    await store.close();
  }
}

/** Print what a run ended with: its pending approvals, or its answer. */
function report(result: RunResult<unknown>): void {
  if (result.status === 'suspended') {
    for (const action of result.actions)
      say(`pending approval: ${pathOf(action.path)} ${JSON.stringify(action.args)}`);
  } else if (result.status === 'completed') {
    say(`Final answer: ${result.output}`);
  } else {
    throw new Error(`the run ended ${result.status}`);
  }
}

function pathOf(path: readonly ActionPathSegment[]): string {
  return path.map((segment) => `${segment.agent}.${segment.toolName}`).join(' > ');
}

/** Whether a continuation of the ops agent waits in the store. */
async function somethingWaits(): Promise<boolean> {
  const { store } = open();
  try {
    return (await store.list({ status: 'suspended', agentName: AGENT_NAME })).items.length > 0;
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'start') return start();
  if (command === 'approve') return approve();
  const step = (name: string) => {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], {
      stdio: 'inherit',
      env: process.env,
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  };
  step('start');
  // Each approval in a new process, as long as something waits (the story needs two).
  for (let round = 0; round < 3 && (await somethingWaits()); round++) step('approve');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
