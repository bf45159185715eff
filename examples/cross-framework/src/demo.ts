/**
 * The cross-framework demo. With no argument it runs the whole story in two processes:
 *   1. `intake`: the AI SDK worker triages ticket T-42 until the refund needs approval, saves the
 *      continuation in the SQLite store (`.data/support.sqlite`, which also holds the desk's
 *      tables), exits;
 *   2. `finish`: the LangGraph worker, in a new process, finds the waiting continuation in the
 *      store, shows the pending action, approves it as a support lead, resumes the run with its own
 *      agent under the store's claim and prints the answer.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, type Decisions, serializeContinuation } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { supportDesk } from './desk';
import { endpoint } from './models';
import { AGENT_NAME, triageWithAiSdk } from './triage-ai-sdk';
import { triageWithLangGraph } from './triage-langgraph';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.CROSS_DEMO_DIR ?? join(here, '..', '.data');
const say = (line: string) => console.log(`[process ${process.pid}] ${line}`);

/** The continuation store and the desk's tables share one SQLite file. */
function open(framework: string) {
  mkdirSync(dataDir, { recursive: true });
  const store = createSqliteStore({ path: join(dataDir, 'support.sqlite') });
  return { store, desk: supportDesk(store.database, framework) };
}

async function intake(): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  const { store, desk } = open('ai-sdk');
  const at = await endpoint();
  try {
    const agent = triageWithAiSdk(desk, at);
    const runtime = createRuntime({ agents: [agent], store, owner: `ai-sdk-worker-${process.pid}` });
    // A suspension is saved in the store by the runtime.
    const result = await runtime.start(
      AGENT_NAME,
      'Ticket T-42: my order O-1001 arrived broken. I want my 49 EUR back.',
      { metadata: { ticket: 'T-42', queue: 'refunds' } },
    );
    if (result.status === 'completed') {
      // Only a real model may choose to answer without a refund.
      return say(`the AI SDK agent finished without a refund: ${result.output}`);
    }
    if (result.status !== 'suspended') throw new Error(`expected the run to wait, it is ${result.status}`);
    const bytes = serializeContinuation(result.continuation).length;
    say(
      `AI SDK worker: suspended with ${result.actions.length} action(s) waiting; continuation ${result.continuation.id} saved in the SQLite store (${bytes} bytes). Exiting.`,
    );
  } finally {
    await at.close();
    await store.close();
  }
}

async function finish(): Promise<void> {
  const { store, desk } = open('langgraph');
  const at = await endpoint();
  try {
    // The same agent name, built on LangGraph: the runtime resumes the run with it. (The runtime's
    // agent type names the core's stream events; a graph's stream is typed wider.)
    const agent = triageWithLangGraph(desk, at);
    const runtime = createRuntime({ agents: [agent], store, owner: `langgraph-worker-${process.pid}` });
    const [item] = (await runtime.inbox({ agentName: AGENT_NAME, metadata: { ticket: 'T-42' } })).items;
    const waiting = item && (await runtime.get(item.continuationId));
    if (!waiting) return say('nothing waits for approval.');
    say(`LangGraph worker: picked up a continuation made by "${waiting.continuation.agent.framework}".`);
    const decisions: Decisions = {};
    for (const action of waiting.actions) {
      say(
        `pending ${action.kind}: ${action.agent}.${action.toolName} ${JSON.stringify(action.args)}  (id ${action.id})`,
      );
      decisions[action.id] = { type: 'approve', by: 'lead@support.example' };
    }
    // The claim makes sure the run is finished once, even if two workers pick it up at once.
    const result = await runtime.resume(waiting.id, decisions);
    if (result.status !== 'completed')
      throw new Error(`expected the run to complete, it is ${result.status}`);
    say('approved and finished by the LangGraph agent.');
    console.log(`Final answer: ${result.output}`);
    for (const run of desk.executions())
      console.log(`executed ${run.tool} in the ${run.framework} worker (process ${run.pid})`);
    console.log(`refunds issued: ${desk.refunds().length}`);
  } finally {
    await at.close();
    await store.close();
  }
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'intake') return intake();
  if (command === 'finish') return finish();
  for (const step of ['intake', 'finish']) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), step], {
      stdio: 'inherit',
      env: { ...process.env, CROSS_DEMO_DIR: dataDir },
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}

await main();
