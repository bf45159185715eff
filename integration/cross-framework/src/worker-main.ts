/**
 * Entry point of a fresh worker process: `worker-main.ts <task.json> <report.json>`. It builds its
 * agents from scratch and knows of the first process only what the task file holds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Framework } from './frameworks';
import { type HandoffJob, runHandoffJobs } from './handoff-worker';
import { type NestingJob, runNestingJobs } from './nesting-worker';

/** What a worker process is asked to do. */
export type WorkerTask =
  | { task: 'handoff'; target: Framework; baseURL: string; jobs: HandoffJob[] }
  | { task: 'nesting'; baseURL: string; jobs: NestingJob[] };

async function main(): Promise<void> {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error('usage: worker-main.ts <task.json> <report.json>');
  const task = JSON.parse(readFileSync(input, 'utf8')) as WorkerTask;
  const results =
    task.task === 'handoff'
      ? await runHandoffJobs(task.target, task.baseURL, task.jobs)
      : await runNestingJobs(task.baseURL, task.jobs);
  writeFileSync(output, JSON.stringify({ pid: process.pid, results }));
}

await main();
