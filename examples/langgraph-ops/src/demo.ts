/**
 * The demo: the ops agent suspends for a nested approval (the diagnostics sub-agent's heap dump),
 * its continuation is saved to a file, and each later step runs in a new Node process that has
 * nothing but that file: approve the heap dump, then approve the restart. The model endpoint (a
 * local scripted OpenAI-compatible server here, a real provider in production) outlives them all.
 *
 *   pnpm --filter @agent-continuations/example-langgraph-ops demo
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunResult, serializeContinuation } from '@agent-continuations/core';
import { startScriptedOpenAIServer } from '@agent-continuations/testing';
import { buildOpsAgent } from './agents';
import { fileLedger } from './ledger';
import { scripts } from './scripts';

const say = (line: string) => process.stdout.write(`[process ${process.pid}] ${line}\n`);

/** One step in this process: start the run, or approve what the saved continuation waits for. */
async function step(kind: 'start' | 'approve', dir: string, baseURL: string): Promise<RunResult<string>> {
  const agent = buildOpsAgent(baseURL, fileLedger(dir));
  const file = join(dir, 'continuation.json');
  let result: RunResult<string>;
  if (kind === 'approve') {
    const saved = readFileSync(file, 'utf8');
    const actions = JSON.parse(readFileSync(join(dir, 'actions.json'), 'utf8')) as string[];
    say(`resuming from ${file} (${saved.length} bytes), approving ${actions.join(', ')}`);
    const decisions = Object.fromEntries(
      actions.map((id) => [id, { type: 'approve' as const, by: 'oncall' }]),
    );
    result = await agent.resume(saved, decisions);
  } else {
    say('ops: "checkout is failing, fix it"');
    result = await agent.run('checkout is failing, fix it');
  }
  if (result.status === 'suspended') {
    for (const action of result.actions) {
      const path = action.path.map((segment) => `${segment.agent}.${segment.toolName}`).join(' > ');
      say(`pending approval: ${path} ${JSON.stringify(action.args)}`);
    }
    writeFileSync(file, serializeContinuation(result.continuation));
    writeFileSync(join(dir, 'actions.json'), JSON.stringify(result.actions.map((action) => action.id)));
    say('saved the continuation');
  } else if (result.status === 'completed') {
    say(`Final answer: ${result.output}`);
    for (const [tool, count] of Object.entries(fileLedger(dir).counts())) say(`${tool} executions: ${count}`);
  }
  return result;
}

/** Run this file again as a new process for one approval step. */
function approveInNewProcess(dir: string, baseURL: string): Promise<{ code: number | null; stdout: string }> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', self, 'approve', dir, baseURL],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    process.stdout.write(chunk);
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

const [kind, dir, baseURL] = process.argv.slice(2);
if (kind === 'approve') {
  await step('approve', dir!, baseURL!);
} else {
  const server = await startScriptedOpenAIServer({ scripts });
  try {
    const workdir = mkdtempSync(join(tmpdir(), 'langgraph-ops-'));
    const result = await step('start', workdir, server.baseURL);
    for (let round = 0; round < 3 && result.status === 'suspended'; round++) {
      const next = await approveInNewProcess(workdir, server.baseURL);
      if (next.code !== 0 || next.stdout.includes('Final answer')) break;
    }
  } finally {
    await server.close();
  }
}
