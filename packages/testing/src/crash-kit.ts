/**
 * A crash test kit for checkpoint logs: worker processes run many durable runs and kill themselves
 * with SIGKILL at a seeded random point (right after a model call was recorded, inside a tool
 * before its side effect, or after the side effect but before its result was recorded); the next
 * worker recovers what they left. A ledger in the same database counts every tool execution.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  type CheckpointEntry,
  type CheckpointLog,
  type Continuation,
  type ContinuationStore,
  type Decisions,
  type DurableOptions,
  listActions,
  type RunRecord,
  recover,
  recoverRun,
  resumeDurably,
  resumeStored,
  runDurably,
} from '@agent-continuations/core';
import { replayCheckpoints } from '@agent-continuations/core/store-kit';
import { durableParentAgent, durablePlanInput, durableTestAgent } from './durable-agent';
import { waitingDisagreements } from './store-log-agreement';

/** Where a worker chose to die. */
export type KillPoint = 'after-model-call' | 'before-effect' | 'after-effect';

/**
 * Side effects and counters, kept in the database under test. A worker's ledger writes rows
 * tagged with that worker's owner id, each with a global order (an auto-increment id).
 */
export interface CrashLedger {
  /** Note that a tool began executing. */
  attempt(tool: 'charge' | 'notify', key: string): Promise<void>;
  /** The idempotent side effect: a payment unique by key; true when this call made it. */
  pay(key: string): Promise<boolean>;
  /** The plain side effect: one row per call, duplicates included. */
  notify(key: string): Promise<void>;
  /** Note that the tool's result was recorded in the checkpoint log. */
  recorded(key: string): Promise<void>;
  /** Note the chosen kill point, right before dying. */
  killed(point: KillPoint, key: string): Promise<void>;
  report(): Promise<CrashLedgerReport>;
}

/** Every ledger row after a scenario; `id` orders rows across tables. */
export interface CrashLedgerReport {
  attempts: Array<{ id: number; tool: 'charge' | 'notify'; key: string; owner: string }>;
  recorded: Array<{ id: number; key: string; owner: string }>;
  payments: Array<{ key: string }>;
  notifications: Array<{ key: string }>;
  kills: Array<{ point: KillPoint; key: string; owner: string }>;
}

/** Options of one crash worker process. */
export interface CrashWorkerOptions {
  log: CheckpointLog;
  ledger: CrashLedger;
  runs: number;
  steps: number;
  /** Die at this kill opportunity (counted over all runs); run to the end when absent. */
  killAt?: number;
  leaseMs: number;
  concurrency: number;
  owner: string;
  /**
   * Nested variant: a parent calls the durable test agent as a sub-agent (`agentTool`), so the
   * steps, the approvals and the kills happen inside the child.
   */
  nested?: boolean;
  /** Turns whose `charge` needs an approval; the worker approves them as a human would. */
  approvals?: number[];
  /**
   * Stored variant: suspensions are saved here (on the log's connection, in its transaction), a
   * person approves with `resumeStored(..., { log })`, and a run whose worker died is finished by
   * `recoverRun`, with this store for every other run and without it for the rest (a `recover`
   * sweep then settles the store).
   */
  store?: ContinuationStore;
}

/** The run ids of a scenario. */
export function crashRunIds(runs: number): string[] {
  return Array.from({ length: runs }, (_, i) => `crash-run-${i}`);
}

/**
 * The body of a crash worker process: start the runs not started yet, recover those whose worker
 * died once their lease expires, and return when every run ended (unless it dies first).
 */
export async function crashWorkerMain(options: CrashWorkerOptions): Promise<void> {
  const { log, ledger } = options;
  let opportunities = 0;
  const maybeDie = async (point: KillPoint, key: string) => {
    opportunities += 1;
    if (opportunities !== options.killAt) return;
    await ledger.killed(point, key);
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => {});
  };
  const child = durableTestAgent({
    charge: async (_args, ctx) => {
      await ledger.attempt('charge', ctx.idempotencyKey);
      await maybeDie('before-effect', ctx.idempotencyKey);
      const made = await ledger.pay(ctx.idempotencyKey);
      await maybeDie('after-effect', ctx.idempotencyKey);
      return made ? 'paid' : 'already paid';
    },
    notify: async (_args, ctx) => {
      await ledger.attempt('notify', ctx.idempotencyKey);
      await maybeDie('before-effect', ctx.idempotencyKey);
      await ledger.notify(ctx.idempotencyKey);
      await maybeDie('after-effect', ctx.idempotencyKey);
      return 'sent';
    },
  });
  const agent = options.nested ? durableParentAgent(child) : child;
  const durable: DurableOptions = {
    owner: options.owner,
    leaseMs: options.leaseMs,
    onEvent: async (event) => {
      // Observers run after the checkpoint of the event was appended.
      if (event.type === 'model-call') await maybeDie('after-model-call', `${event.runId}@${event.step}`);
      if (event.type === 'tool-result') await ledger.recorded(`${event.runId}:${event.toolCallId}`);
    },
  };
  /** The stored variant's move on one run: start it, approve what waits, or finish it after a death. */
  const goOnStored = async (store: ContinuationStore, runId: string, record: RunRecord | undefined) => {
    if (!record) return void (await runDurably(agent, log, input, { ...durable, runId, store }));
    if (record.status === 'running') {
      const withStore = Number(runId.split('-').at(-1)) % 2 === 0;
      return void (await recoverRun(agent, log, runId, { ...durable, ...(withStore ? { store } : {}) }));
    }
    const id = record.suspensionId!;
    // Finished by `recoverRun` without the store: the sweep saves its suspension there.
    if (!(await store.load(id)))
      return void (await recover(log, { [agent.name]: agent }, { ...durable, store }));
    await resumeStored(store, agent, id, approveAll, { ...durable, log });
  };
  const input = durablePlanInput({
    steps: options.steps,
    ...(options.approvals ? { approvals: options.approvals } : {}),
  });
  for (;;) {
    const records = await Promise.all(
      crashRunIds(options.runs).map(async (runId) => ({ runId, record: await log.status(runId) })),
    );
    const open = records.filter(({ record }) => record?.status !== 'completed');
    if (open.length === 0) return;
    const now = Date.now();
    const ready = open
      .filter(
        ({ record }) => !record || record.status === 'suspended' || Date.parse(record.leaseUntil ?? '') < now,
      )
      .slice(0, options.concurrency);
    if (ready.length === 0) {
      // Runs of a dead worker whose lease has not expired yet.
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    await Promise.all(
      ready.map(async ({ runId, record }) => {
        try {
          if (options.store) await goOnStored(options.store, runId, record);
          else if (record?.status === 'suspended') {
            // A human approves what waits (at any depth), and the run goes on durably.
            const waiting = replayCheckpoints(await log.read(runId)).continuation!;
            await resumeDurably(agent, log, waiting, approveAll(waiting), durable);
          } else if (record) await recoverRun(agent, log, runId, durable);
          else await runDurably(agent, log, input, { ...durable, runId });
        } catch (error) {
          // Another worker got there first (or took the run over from us), or the lease clocks
          // disagree by a hair: look again.
          const code = error instanceof Error && 'code' in error ? error.code : undefined;
          if (code !== 'CLAIM_CONFLICT' && code !== 'LEASE_LOST') throw error;
        }
      }),
    );
  }
}

/** What a crash scenario saw. */
export interface CrashScenarioReport {
  workers: number;
  killed: number;
  ledger: CrashLedgerReport;
  /**
   * Per run: the output, and the `n` of each tool result in the final transcript, in order (for
   * the nested variant, in the child's transcript inside the tree, as last recorded), and the run
   * ids its child had in the log (one when recovery stayed inside the same child run).
   */
  runs: Array<{ runId: string; status: string; output: unknown; results: number[]; childRunIds: string[] }>;
}

/**
 * Spawn worker processes one after another, each told to die at a seeded random point, then one
 * that runs to the end; read back every run's log.
 */
export async function runCrashScenario(options: {
  log: CheckpointLog;
  ledger: CrashLedger;
  runs: number;
  /** Workers that die, before the last one that finishes. */
  kills: number;
  seed: number;
  /** The highest kill opportunity a worker may pick. */
  maxKillAt: number;
  spawnWorker: (killAt: number | undefined, index: number) => ChildProcess;
}): Promise<CrashScenarioReport> {
  const random = mulberry32(options.seed);
  let killed = 0;
  for (let index = 0; index <= options.kills; index++) {
    const killAt = index < options.kills ? 1 + Math.floor(random() * options.maxKillAt) : undefined;
    const child = options.spawnWorker(killAt, index);
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
      (resolve) => child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    if (signal === 'SIGKILL') killed += 1;
    else if (code !== 0) throw new Error(`crash worker ${index} failed (${code ?? signal}): ${stderr}`);
  }
  const runs = await Promise.all(
    crashRunIds(options.runs).map(async (runId) => {
      const entries = await options.log.read(runId);
      const replay = replayCheckpoints(entries);
      const children = childStates(entries);
      const transcript = children.at(-1)?.messages ?? replay.continuation?.messages ?? [];
      const results = transcript.flatMap((message) =>
        message.role === 'tool' ? message.content.map((part) => (part.output as { n: number }).n) : [],
      );
      const childRunIds = [...new Set(children.map((child) => child.runId))];
      return { runId, status: replay.status, output: replay.output, results, childRunIds };
    }),
  );
  return { workers: options.kills + 1, killed, ledger: await options.ledger.report(), runs };
}

/**
 * Check a scenario against the guarantees: every run completed with every step once in its
 * transcript; one payment per charge; a call ran again only after a worker died while running it
 * (at most once per surviving worker); no call ran again once its result was recorded.
 * Returns the violations (empty when all hold) and per-tool execution counts.
 */
export function checkCrashReport(
  report: CrashScenarioReport,
  plan: { runs: number; steps: number },
): {
  violations: string[];
  counts: Record<'charge' | 'notify', { calls: number; executions: number; reruns: number; effects: number }>;
} {
  const violations: string[] = [];
  const expected = Array.from({ length: plan.steps }, (_, n) => n);
  for (const run of report.runs) {
    if (run.status !== 'completed' || run.output !== `completed ${plan.steps} steps`)
      violations.push(`${run.runId} ended ${run.status}`);
    if (run.childRunIds.length > 1)
      violations.push(`${run.runId}'s child ran as ${run.childRunIds.length} runs: ${run.childRunIds}`);
    if (JSON.stringify(run.results) !== JSON.stringify(expected))
      violations.push(`${run.runId} has results ${run.results}`);
  }
  const { attempts, recorded, payments, notifications, kills } = report.ledger;
  const killedOwners = new Set(kills.map((kill) => kill.owner));
  const byKey = new Map<string, typeof attempts>();
  for (const attempt of attempts) byKey.set(attempt.key, [...(byKey.get(attempt.key) ?? []), attempt]);
  for (const [key, list] of byKey) {
    const survivors = list.filter((attempt) => !killedOwners.has(attempt.owner));
    if (survivors.length > 1)
      violations.push(`${key} ran ${survivors.length} times in workers that did not die`);
    const owners = list.map((attempt) => attempt.owner);
    if (new Set(owners).size !== owners.length) violations.push(`${key} ran twice in one worker`);
    const firstRecord = Math.min(...recorded.filter((row) => row.key === key).map((row) => row.id));
    if (list.some((attempt) => attempt.id > firstRecord))
      violations.push(`${key} ran again after its result was recorded`);
  }
  const paid = new Map<string, number>();
  for (const payment of payments) paid.set(payment.key, (paid.get(payment.key) ?? 0) + 1);
  const chargeKeys = [...byKey.keys()].filter((key) => byKey.get(key)![0]!.tool === 'charge');
  if (chargeKeys.length !== plan.runs * Math.ceil(plan.steps / 2))
    violations.push(`${chargeKeys.length} charge calls`);
  for (const key of chargeKeys)
    if (paid.get(key) !== 1) violations.push(`${key} paid ${paid.get(key) ?? 0} times`);
  const count = (tool: 'charge' | 'notify', effects: number) => {
    const list = attempts.filter((attempt) => attempt.tool === tool);
    const calls = new Set(list.map((attempt) => attempt.key)).size;
    return { calls, executions: list.length, reruns: list.length - calls, effects };
  };
  return {
    violations,
    counts: { charge: count('charge', payments.length), notify: count('notify', notifications.length) },
  };
}

/**
 * After a stored scenario: a last `recover` sweep with the store (it settles runs that `recoverRun`
 * finished without it), then the runs on which the store's waiting records are not the log's
 * suspensions, and how many records are still waiting, claimed or failed (none once every run
 * completed).
 */
export async function checkStoreAfterCrashes(
  store: ContinuationStore,
  log: CheckpointLog,
  plan: { runs: number; nested?: boolean },
): Promise<{ disagreements: string[]; live: number }> {
  const effect = () => 'ok';
  const child = durableTestAgent({ charge: effect, notify: effect });
  const agent = plan.nested ? durableParentAgent(child) : child;
  await recover(log, { [agent.name]: agent }, { store, owner: 'sweep' });
  const disagreements = await waitingDisagreements(store, log, crashRunIds(plan.runs));
  const { items } = await store.list({ status: ['suspended', 'claimed', 'failed'] });
  return { disagreements, live: items.length };
}

/** Approve every action a continuation waits for, at any depth. */
function approveAll(continuation: Continuation): Decisions {
  return Object.fromEntries(
    listActions(continuation).map((action) => [action.id, { type: 'approve' as const, by: 'crash-kit' }]),
  );
}

/** The sub-agent states a log recorded (pending `agent` entries of the root), in order. */
function childStates(entries: readonly CheckpointEntry[]): Continuation[] {
  const children: Continuation[] = [];
  for (const entry of entries) {
    const pending =
      entry.type === 'start' ? entry.from?.pending : entry.type === 'end' ? undefined : entry.pending;
    for (const item of pending ?? []) if (item.kind === 'agent') children.push(item.child);
  }
  return children;
}

/** Spawn a TypeScript worker script in a Node process that resolves workspace sources. */
export function spawnTypeScript(script: string, args: readonly string[]): ChildProcess {
  return spawn(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', script, ...args],
    {
      stdio: ['ignore', 'inherit', 'pipe'],
    },
  );
}

/** A small seeded generator, so a failing scenario replays exactly. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
