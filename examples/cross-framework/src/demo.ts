/**
 * The cross-framework demo. With no argument it runs the whole story in two processes:
 *   1. `intake`: the AI SDK worker triages ticket T-42 until the refund needs approval, saves the
 *      continuation, exits;
 *   2. `finish`: the LangGraph worker, in a new process, shows the pending action, approves it as a
 *      support lead, resumes the run with its own agent and prints the answer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Decisions,
  listActions,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { supportDesk } from './desk';
import { endpoint } from './models';
import { triageWithAiSdk } from './triage-ai-sdk';
import { triageWithLangGraph } from './triage-langgraph';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.CROSS_DEMO_DIR ?? join(here, '..', '.data');
const continuationFile = join(dataDir, 'ticket-T-42.json');
const say = (line: string) => console.log(`[process ${process.pid}] ${line}`);

async function intake(): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const at = await endpoint();
  try {
    const agent = triageWithAiSdk(supportDesk(dataDir, 'ai-sdk'), at);
    const result = await agent.run('Ticket T-42: my order O-1001 arrived broken. I want my 49 EUR back.', {
      metadata: { ticket: 'T-42', queue: 'refunds' },
    });
    if (result.status === 'completed') {
      // Only a real model may choose to answer without a refund.
      return say(`the AI SDK agent finished without a refund: ${result.output}`);
    }
    if (result.status !== 'suspended') throw new Error(`expected the run to wait, it is ${result.status}`);
    writeFileSync(continuationFile, serializeContinuation(result.continuation));
    say(
      `AI SDK worker: suspended with ${result.actions.length} action(s) waiting; continuation saved (${readFileSync(continuationFile).byteLength} bytes). Exiting.`,
    );
  } finally {
    await at.close();
  }
}

async function finish(): Promise<void> {
  if (!existsSync(continuationFile)) return say('nothing waits for approval.');
  const continuation = parseContinuation(readFileSync(continuationFile, 'utf8'));
  say(`LangGraph worker: picked up a continuation made by "${continuation.agent.framework}".`);
  const decisions: Decisions = {};
  for (const action of listActions(continuation)) {
    say(
      `pending ${action.kind}: ${action.agent}.${action.toolName} ${JSON.stringify(action.args)}  (id ${action.id})`,
    );
    decisions[action.id] = { type: 'approve', by: 'lead@support.example' };
  }
  const at = await endpoint();
  const desk = supportDesk(dataDir, 'langgraph');
  const result = await triageWithLangGraph(desk, at)
    .resume(continuation, decisions)
    .finally(() => at.close());
  if (result.status !== 'completed') throw new Error(`expected the run to complete, it is ${result.status}`);
  rmSync(continuationFile);
  say('approved and finished by the LangGraph agent.');
  console.log(`Final answer: ${result.output}`);
  for (const run of desk.executions())
    console.log(`executed ${run.tool} in the ${run.framework} worker (process ${run.pid})`);
  console.log(`refunds issued: ${Object.keys(desk.refunds()).length}`);
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
