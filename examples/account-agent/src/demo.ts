/**
 * The account demo. With no argument it tells the story twice, each time across processes:
 *   `start`   run until the transfer needs approval, save the continuation, exit;
 *   `approve` (or `reject`) in a new process, decide, resume, print the answer.
 * Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL, OPENAI_MODEL) to use a real model.
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
import { buildAccountAgent } from './agent';
import { fileBank } from './bank';
import { demoClient } from './client';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.ACCOUNT_DEMO_DIR ?? join(here, '..', '.data');
const continuationFile = join(dataDir, 'continuation.json');
const bank = fileBank(join(dataDir, 'bank.json'));
const api = process.env.ACCOUNT_DEMO_API === 'responses' ? 'responses' : 'chat';
const log = (line: string) => console.log(`[process ${process.pid}] ${line}`);

async function start(): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const model = await demoClient();
  try {
    log(`asking ${model.label} (${api} API)`);
    const agent = buildAccountAgent(model.client, model.model, bank, api);
    const result = await agent.run('Send 50 EUR from ACC-1 to ACC-2.', { metadata: { customer: 'C-7' } });
    if (result.status === 'completed') return log(`the model finished without a transfer: ${result.output}`);
    if (result.status !== 'suspended') throw new Error(`unexpected status ${result.status}`);
    writeFileSync(continuationFile, serializeContinuation(result.continuation));
    log(`suspended, waiting for ${result.actions.length} approval(s); continuation saved. Exiting.`);
  } finally {
    await model.close();
  }
}

async function decide(verdict: 'approve' | 'reject'): Promise<void> {
  if (!existsSync(continuationFile)) return log('nothing waits for a decision.');
  const continuation = parseContinuation(readFileSync(continuationFile, 'utf8'));
  const decisions: Decisions = {};
  for (const action of listActions(continuation)) {
    log(`pending ${action.kind}: ${action.toolName} ${JSON.stringify(action.args)}`);
    decisions[action.id] =
      verdict === 'approve'
        ? { type: 'approve', by: 'ops@example.com' }
        : { type: 'reject', by: 'ops@example.com', reason: 'Transfers to ACC-2 are on hold.' };
  }
  const model = await demoClient();
  try {
    const result = await buildAccountAgent(model.client, model.model, bank, api).resume(
      continuation,
      decisions,
    );
    if (result.status !== 'completed')
      throw new Error(`expected the run to complete, it is ${result.status}`);
    rmSync(continuationFile);
    log(`${verdict === 'approve' ? 'approved' : 'rejected'} and resumed.`);
    console.log(`Final answer: ${result.output}`);
    console.log(`transfers executed: ${bank.transfers()}`);
  } finally {
    await model.close();
  }
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'start') return start();
  if (command === 'approve' || command === 'reject') return decide(command);
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
