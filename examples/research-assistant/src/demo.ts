/**
 * The research assistant demo. With no argument it runs the whole story in separate processes:
 *   1. `start`: the assistant delegates to the researcher, which searches and then wants to publish;
 *      publishing needs approval, so the whole run suspends and its continuation goes to a file;
 *   2. `approve`: a new process reads the file, lists what waits (the researcher's `publish_report`,
 *      two levels down), approves it with an edited title, and resumes both agents to the end.
 * Set RESEARCH_DEMO_DIR to choose where the files go.
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
import { buildAssistant } from './agents';
import { filePublisher } from './publisher';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.RESEARCH_DEMO_DIR ?? join(here, '..', '.data');
const continuationFile = join(dataDir, 'continuation.json');
const publisher = filePublisher(join(dataDir, 'publications.json'));
const say = (line: string) => console.log(`[process ${process.pid}] ${line}`);

async function start(): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const counts = { search: 0 };
  const result = await buildAssistant(publisher, counts).run('the 2026 solar market', {
    metadata: { requestedBy: 'marketing' },
  });
  if (result.status !== 'suspended')
    throw new Error(`expected the run to wait for approval, it is ${result.status}`);
  writeFileSync(continuationFile, serializeContinuation(result.continuation));
  say(
    `suspended with ${result.actions.length} action(s) waiting; continuation saved (${readFileSync(continuationFile).byteLength} bytes).`,
  );
  say(`search_web executions in this process: ${counts.search}. Exiting.`);
}

async function approve(): Promise<void> {
  if (!existsSync(continuationFile)) throw new Error('Nothing to approve: run the demo with `start` first.');
  const continuation = parseContinuation(readFileSync(continuationFile, 'utf8'));
  const decisions: Decisions = {};
  for (const action of listActions(continuation)) {
    const path = action.path.map((segment) => `${segment.agent}.${segment.toolName}`).join(' > ');
    say(`pending ${action.kind}: ${path} ${JSON.stringify(action.args)}`);
    // The editor approves, with a shorter title.
    const args = { ...(action.args as Record<string, unknown>), title: 'Solar market brief 2026' };
    decisions[action.id] = { type: 'approve', args, by: 'editor@example.com' };
  }
  const counts = { search: 0 };
  const result = await buildAssistant(publisher, counts).resume(continuation, decisions);
  if (result.status !== 'completed') throw new Error(`expected the run to complete, it is ${result.status}`);
  rmSync(continuationFile);
  say('approved and resumed.');
  console.log(`Final answer: ${result.output}`);
  console.log(`publish_report executions: ${publisher.count()}`);
  console.log(`search_web executions in the resuming process: ${counts.search}`);
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
