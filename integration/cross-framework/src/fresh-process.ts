/**
 * Run a worker task in a fresh Node process: the task goes in through a file, the report comes
 * back through another, so nothing but the serialized continuation crosses the process boundary.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnTypeScript } from '@agent-continuations/testing';
import type { WorkerTask } from './worker-main';

const WORKER = join(import.meta.dirname, 'worker-main.ts');

/** What a worker process reported, with the pid it ran under. */
export interface WorkerOutcome<T> {
  pid: number;
  report: T;
}

/** Spawn `node --conditions=@agent-continuations/source --import tsx worker-main.ts` for `task`. */
export async function inFreshProcess<T>(task: WorkerTask): Promise<WorkerOutcome<T>> {
  const dir = mkdtempSync(join(tmpdir(), 'cross-framework-'));
  const input = join(dir, 'task.json');
  const output = join(dir, 'report.json');
  writeFileSync(input, JSON.stringify(task));
  const child = spawnTypeScript(WORKER, [input, output]);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`The worker exited with ${code}: ${stderr}`);
  return { pid: child.pid!, report: JSON.parse(readFileSync(output, 'utf8')) as T };
}
