/**
 * Durable runs: run, resume and recover agents with a checkpoint at every step into a
 * {@link CheckpointLog}, holding the run's lease, so a crashed run is picked up at its last
 * recorded step by another worker.
 */
import {
  type CheckpointBase,
  type CheckpointLog,
  type CheckpointStart,
  checkpointer,
  type LeaseOptions,
  type RunLease,
  replayCheckpoints,
} from './checkpoint';
import { parseContinuation } from './codec';
import { ContinuationError } from './errors';
import type { Continuation } from './format';
import { inputMessages, type Message } from './messages';
import type { ContinuableAgent, Decisions, RunOptions, RunResult } from './protocol';
import type { ContinuationStore } from './store';

/** Options of {@link runDurably}, {@link resumeDurably}, {@link recoverRun} and {@link recover}. */
export interface DurableOptions extends Omit<RunOptions, 'runId'> {
  /** Who runs it (a worker id); a random one by default. */
  owner?: string;
  /** How long the run's lease holds without a step; renewed every third of it. 30 s by default. */
  leaseMs?: number;
}

/** Any agent: the durable runners only call `run` and `resume`. */
type AnyAgent = ContinuableAgent<any, unknown>;

/**
 * Run an agent with a checkpoint at every step into `log`, holding the run's lease. If the process
 * dies, {@link recover} picks the run up at its last recorded step.
 *
 * @example
 * ```ts
 * const result = await runDurably(agent, log, 'Pay the March invoices', { runId: 'run-42', owner: 'worker-1' });
 * ```
 */
export async function runDurably(
  agent: AnyAgent,
  log: CheckpointLog,
  input: string | Message[],
  options: DurableOptions & { runId?: string } = {},
): Promise<RunResult<unknown>> {
  const runId = options.runId ?? crypto.randomUUID();
  const messages = inputMessages(input);
  const metadata = options.metadata ?? {};
  const start: CheckpointStart = {
    type: 'start',
    runId,
    agentName: agent.name,
    at: new Date().toISOString(),
    input: messages,
    metadata,
  };
  const lease = await log.begin(start, leaseOptions(options));
  const base = { messages, done: [], pending: [], decisions: [] };
  return driveDurably(log, lease, base, options, (run) => agent.run(messages, { ...run, runId, metadata }));
}

/**
 * Resume a continuation with a checkpoint at every step into `log`. When the continuation is the
 * log's own last suspension, the log refers to it by id instead of storing it again.
 *
 * @example
 * ```ts
 * const result = await resumeDurably(agent, log, continuation, { [actionId]: { type: 'approve' } });
 * ```
 */
export async function resumeDurably(
  agent: AnyAgent,
  log: CheckpointLog,
  input: Continuation | string,
  decisions: Decisions = {},
  options: DurableOptions = {},
): Promise<RunResult<unknown>> {
  const continuation = parseContinuation(input);
  const record = await log.status(continuation.runId);
  const known = record?.status === 'suspended' && record.suspensionId === continuation.id;
  const start: CheckpointStart = {
    type: 'start',
    runId: continuation.runId,
    agentName: continuation.agent.name,
    at: new Date().toISOString(),
    ...(known ? { fromId: continuation.id } : { from: continuation }),
    decisions,
  };
  const lease = await log.begin(start, leaseOptions(options));
  return driveDurably(log, lease, continuation, options, (run) => agent.resume(continuation, decisions, run));
}

/**
 * Take over a run whose lease expired and go on from its last recorded step. A tool call whose
 * result was recorded never runs again; one that started without a recorded result runs again,
 * with the same `ctx.idempotencyKey`. Throws `CLAIM_CONFLICT` when another worker took it first.
 *
 * @example
 * ```ts
 * const result = await recoverRun(agent, log, 'run-42', { owner: 'worker-2' });
 * ```
 */
export async function recoverRun(
  agent: AnyAgent,
  log: CheckpointLog,
  runId: string,
  options: DurableOptions = {},
): Promise<RunResult<unknown>> {
  const lease = await log.takeOver(runId, leaseOptions(options));
  const replay = replayCheckpoints(await log.read(runId));
  const next = replay.next;
  if (!next) {
    const state = replay.continuation!;
    await log.append(lease, { type: 'end', status: 'completed', output: replay.output ?? null });
    return {
      status: 'completed',
      output: replay.output,
      messages: state.messages,
      runId,
      usage: state.usage,
      step: state.step,
      decisions: state.decisions,
    };
  }
  if (next.kind === 'run') {
    const base = { messages: next.input, done: [], pending: [], decisions: [] };
    const metadata = next.metadata;
    return driveDurably(log, lease, base, options, (run) =>
      agent.run(next.input, { ...run, runId, metadata }),
    );
  }
  return driveDurably(log, lease, next.continuation, options, (run) =>
    agent.resume(next.continuation, next.decisions, run),
  );
}

/** One run handled by {@link recover}. */
export interface RecoveredRun {
  runId: string;
  result?: RunResult<unknown>;
  error?: unknown;
}

/**
 * Find runs whose worker died (lease expired) and go on with each from its last checkpoint.
 * Suspended results are saved into `store` when given. Runs another worker took first are skipped.
 *
 * @example
 * ```ts
 * const recovered = await recover(log, { [agent.name]: agent }, { store, owner: 'worker-2' });
 * ```
 */
export async function recover(
  log: CheckpointLog,
  agents: Readonly<Record<string, AnyAgent>>,
  options: DurableOptions & { store?: ContinuationStore; limit?: number } = {},
): Promise<RecoveredRun[]> {
  const runIds = await log.expired({ limit: options.limit ?? 100 });
  const outcomes = await Promise.all(
    runIds.map(async (runId): Promise<RecoveredRun | undefined> => {
      const record = await log.status(runId);
      const agent = record ? agents[record.agentName] : undefined;
      if (!agent) {
        const error = new ContinuationError(
          'NOT_FOUND',
          `No agent "${record?.agentName}" to recover run "${runId}" with.`,
        );
        return { runId, error };
      }
      try {
        const result = await recoverRun(agent, log, runId, options);
        if (result.status === 'suspended') await options.store?.save(result.continuation);
        return { runId, result };
      } catch (error) {
        if (error instanceof ContinuationError && error.code === 'CLAIM_CONFLICT') return undefined;
        return { runId, error };
      }
    }),
  );
  return outcomes.filter((outcome): outcome is RecoveredRun => outcome !== undefined);
}

async function driveDurably(
  log: CheckpointLog,
  lease: RunLease,
  base: CheckpointBase,
  options: DurableOptions,
  go: (options: RunOptions) => Promise<RunResult<unknown>>,
): Promise<RunResult<unknown>> {
  const { owner: _owner, leaseMs = 30_000, onEvent: observe, ...runOptions } = options;
  const record = checkpointer((entry) => log.append(lease, entry), base);
  // A failed renewal is not fatal here: the next append is fenced by the lease and fails loudly.
  const heartbeat = setInterval(() => log.renew(lease).catch(() => undefined), Math.max(10, leaseMs / 3));
  try {
    const result = await go({
      ...runOptions,
      onEvent: async (event) => {
        await record(event);
        await observe?.(event);
      },
    });
    if (result.status === 'rejected') await log.append(lease, { type: 'end', status: 'rejected' });
    return result;
  } finally {
    clearInterval(heartbeat);
  }
}

function leaseOptions(options: DurableOptions): LeaseOptions {
  return { owner: options.owner ?? crypto.randomUUID(), leaseMs: options.leaseMs ?? 30_000 };
}
