/**
 * The support desk demo. With no argument it runs the whole story in two processes:
 *   1. `intake`: the triage agent hands ticket T-42 to billing, whose refund needs approval; the
 *      runtime saves the waiting run in the SQLite store (`.data/desk.sqlite`) and the process exits;
 *   2. `approve`: a new process finds the waiting action in the runtime's inbox, approves it as a
 *      support lead and resumes the run under the store's claim, inside the billing agent.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime } from '@agent-continuations/core';
import { continuable } from '@agent-continuations/openai-agents';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { supportAgents } from './agents';
import { endpoint } from './models';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.DESK_DEMO_DIR ?? join(here, '..', '.data');
const say = (line: string) => console.log(`[process ${process.pid}] ${line}`);

async function open() {
  mkdirSync(dataDir, { recursive: true });
  const at = await endpoint();
  const store = createSqliteStore({ path: join(dataDir, 'desk.sqlite') });
  const triage = supportAgents(at.model, join(dataDir, 'refunds.log'));
  // The one wrap line.
  const runtime = createRuntime({
    agents: [continuable(triage, { modelProvider: at.modelProvider })],
    store,
  });
  return {
    runtime,
    close: async () => {
      await at.close();
      await store.close();
    },
  };
}

async function intake(): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  const { runtime, close } = await open();
  try {
    const result = await runtime.start('triage', 'Ticket T-42: order O-1001 arrived broken, I paid 49 EUR.', {
      metadata: { ticket: 'T-42' },
    });
    if (result.status === 'completed') return say(`finished without an approval: ${String(result.output)}`);
    if (result.status !== 'suspended') throw new Error(`expected the run to wait, it is ${result.status}`);
    const [action] = result.actions;
    say(`waiting in agent "${action!.agent}": ${action!.toolName} ${JSON.stringify(action!.args)}. Exiting.`);
  } finally {
    await close();
  }
}

async function approve(): Promise<void> {
  const { runtime, close } = await open();
  try {
    const [item] = (await runtime.inbox({ metadata: { ticket: 'T-42' } })).items;
    if (!item) return say('nothing waits for approval.');
    say(`approving ${item.action.toolName} ${JSON.stringify(item.action.args)} (id ${item.action.id})`);
    const result = await runtime.resume(item.continuationId, {
      [item.action.id]: { type: 'approve', by: 'lead@support.example' },
    });
    if (result.status !== 'completed')
      throw new Error(`expected the run to complete, it is ${result.status}`);
    console.log(`Final answer: ${String(result.output)}`);
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'intake') return intake();
  if (command === 'approve') return approve();
  for (const step of ['intake', 'approve']) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), step], {
      stdio: 'inherit',
      env: { ...process.env, DESK_DEMO_DIR: dataDir },
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}

await main();
