/**
 * Replay guard: what `runtime.resumeOnce` costs. Per resume of a sealed continuation that came
 * back from outside the store (a chat that carries it): the stateless resume (seal verified, the
 * agent resumed, nothing stored) against the guarded one (seal verified, `saveIfAbsent`, claim,
 * load, resume, complete), on SQLite, Postgres and Redis. Each resume is timed on its own, one at a
 * time, each of a fresh continuation; the table shows medians and 90th percentiles of
 * {@link RESUMES} resumes after {@link WARM_UP}. The guard keeps one record per continuation used.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Continuation, createRuntime, type Decisions, type Runtime } from '@agent-continuations/core';
import { durablePlanInput, durableTestAgent } from '@agent-continuations/testing';
import { table } from './report';
import { BENCH_STORES, dropBenchStores, openBenchStore } from './stores-open';

const RESUMES = 300;
const WARM_UP = 30;
const seal = { secret: 'bench-replay-guard-seal-secret' };

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-bench-guard-'));
  const rows: Record<string, unknown>[] = [];
  try {
    for (const kind of BENCH_STORES) {
      const store = await openBenchStore(kind, join(dir, `${kind}.db`), dir);
      const agent = durableTestAgent({ charge: () => 'charged', notify: () => 'sent' });
      const runtime = createRuntime({ agents: [agent], store, seal });
      const plain = await timed(runtime, (continuation, decisions) =>
        runtime.agent('durable').resume(continuation, decisions),
      );
      const guarded = await timed(runtime, (continuation, decisions) =>
        runtime.resumeOnce(continuation, decisions),
      );
      rows.push({
        store: kind,
        'stateless median (ms)': plain.median.toFixed(3),
        'guarded median (ms)': guarded.median.toFixed(3),
        'added median (ms)': (guarded.median - plain.median).toFixed(3),
        'stateless p90 (ms)': plain.p90.toFixed(3),
        'guarded p90 (ms)': guarded.p90.toFixed(3),
        'records kept': (await store.list({ limit: 1000 })).items.length,
        'continuation (bytes)': guarded.bytes,
      });
      await store.close?.();
    }
  } finally {
    await dropBenchStores(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  table(
    'Replay guard: per-resume time of a sealed continuation from outside, without and with resumeOnce',
    rows,
  );
}

/** Median and 90th percentile of resuming fresh sealed continuations with `resume`, in ms, and their size. */
async function timed(
  runtime: Runtime,
  resume: (continuation: Continuation, decisions: Decisions) => Promise<unknown>,
): Promise<{ median: number; p90: number; bytes: number }> {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARM_UP + RESUMES; i++) {
    // A run that waits for approval, sealed and not saved: the continuation a chat carries.
    const started = await runtime.agent('durable').run(durablePlanInput({ steps: 1, approvals: [0] }));
    if (started.status !== 'suspended') throw new Error(`expected a suspension, got ${started.status}`);
    const decisions: Decisions = { [started.actions[0]!.id]: { type: 'approve' } };
    const text = JSON.stringify(started.continuation);
    bytes = text.length;
    const begun = performance.now();
    await resume(JSON.parse(text) as Continuation, decisions);
    if (i >= WARM_UP) samples.push(performance.now() - begun);
  }
  samples.sort((a, b) => a - b);
  return {
    median: samples[Math.floor(samples.length / 2)]!,
    p90: samples[Math.floor(samples.length * 0.9)]!,
    bytes,
  };
}
