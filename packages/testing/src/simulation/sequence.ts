/**
 * One seeded sequence: plan an agent tree, run it through random operations (run, resume in the
 * same or a new process, stream, resumeStored, streamStored, concurrent and duplicated resumes,
 * durable runs and recovery, forged continuations) while faults strike at await points, then
 * drain it with faults off and check the invariants.
 */
import {
  type Action,
  type ContinuableAgent,
  type Continuation,
  type ContinuationStore,
  createMemoryStore,
  type Decisions,
  isContinuationError,
  listActions,
  type RunResult,
  recover,
  resumeDurably,
  resumeStored,
  runDurably,
  type SealConfig,
  type StoredSummary,
  serializeContinuation,
  streamStored,
} from '@agent-continuations/core';
import type { ConformanceHarness } from '../conformance-harness';
import { createMemoryCheckpointLog } from './memory-log';
import { chanceOf, type Random, seededRandom } from './random';
import { approves, buildTree, depthOf, leavesOf, type PlannedAgent, planTree } from './tree';
import {
  type FaultKind,
  type FaultRates,
  Faults,
  Ledger,
  newProcess,
  type Process,
  processLog,
  processStore,
  type SimClock,
} from './world';

/** How the application around the agent keeps its continuations. */
export type SequenceMode = 'direct' | 'stored' | 'durable';

/** What {@link runSequence} needs. */
export interface SequenceOptions {
  harness: ConformanceHarness;
  /** Agents built with a seal (the harness seals what they emit and verifies what they resume): forged continuations are tried on them. */
  sealedHarness?: ConformanceHarness;
  /** Or: a seal handed to `harness` in each agent's spec (`ConformanceAgentSpec.seal`), for the same purpose. */
  seal?: SealConfig;
  /** Modes to draw from; all three by default. */
  modes?: readonly SequenceMode[];
  /** Deepest tree (1 to 3); 3 by default. */
  maxDepth?: number;
  /** Most operations before the drain; 8 by default. */
  maxOps?: number;
  /** Most turns of an agent and calls of a turn; 3 by default. */
  maxWidth?: number;
  /** Fault kinds to leave out (their rates are still drawn, so other draws stay the same). */
  disable?: readonly (keyof FaultRates)[];
  /**
   * A fresh, empty store for each sequence; the in-memory store by default. The store's clock must
   * be `Date.now()` (leases lapse when the simulation advances it).
   */
  createStore?: () => ContinuationStore | Promise<ContinuationStore>;
  clock: SimClock;
}

/** What one sequence did and found. */
export interface SequenceReport {
  seed: number;
  mode: SequenceMode;
  sealed: boolean;
  depth: number;
  ops: number;
  faults: Record<FaultKind, number>;
  /** Calls whose side effects were checked against the ledger. */
  sideEffects: number;
  executions: number;
  violations: string[];
  /** The operation log, to read with a failure. */
  log: string[];
}

/** Longer than any lease used: advancing the clock by it lets every held lease lapse. */
const LAPSE_MS = 31_000;
const LIVE = ['suspended', 'failed'] as const;

interface Proc {
  process: Process;
  agent: ContinuableAgent<string, any>;
  store: ContinuationStore;
  log: ReturnType<typeof processLog>;
}

type Outcome<T> = { value: T } | { error: unknown } | { crashed: true };

/**
 * Run one seeded sequence and check its invariants; never throws for a violation (see the
 * report's `violations`).
 *
 * @example
 * ```ts
 * const report = await runSequence(42, { harness, clock });
 * if (report.violations.length > 0) console.log(report.log.join('\n'));
 * ```
 */
export async function runSequence(seed: number, options: SequenceOptions): Promise<SequenceReport> {
  const sequence = new Sequence(seed, options);
  try {
    await sequence.play();
  } catch (error) {
    sequence.violation(`the simulation itself failed: ${describe(error)}`);
  }
  return sequence.report();
}

class Sequence {
  readonly random: Random;
  readonly lines: string[] = [];
  readonly violations: string[] = [];
  readonly faults: Faults;
  readonly ledger = new Ledger();
  store: ContinuationStore = createMemoryStore();
  readonly checkpoints = createMemoryCheckpointLog();
  readonly plan: PlannedAgent;
  readonly input: string;
  readonly runId: string;
  readonly mode: SequenceMode;
  readonly harness: ConformanceHarness;
  readonly sealed: boolean;
  readonly processes: Process[] = [];
  proc!: Proc;
  opIndex = 0;
  completed = false;
  /** Durable mode: recover() was given a chance to reconcile the log and the store. */
  reconciled = false;
  /** A violation left nothing to go on with. */
  stopped = false;
  /** Direct mode: the continuation the application holds (as text, the way it would keep it). */
  held: string | undefined;
  /** Something was saved for the run (stored modes): a missing record is then a stranded run. */
  saved = false;
  background: Promise<void>[] = [];
  sideEffects = 0;

  constructor(
    readonly seed: number,
    readonly options: SequenceOptions,
  ) {
    this.random = seededRandom(seed);
    const modes = options.modes ?? ['direct', 'stored', 'durable'];
    this.mode = this.random.pick(modes);
    const sealedHarness =
      options.sealedHarness ?? (options.seal ? withSeal(options.harness, options.seal) : undefined);
    this.sealed = sealedHarness !== undefined && this.random.chance(0.3);
    this.harness = this.sealed ? sealedHarness! : options.harness;
    const maxDepth = 1 + this.random.int(options.maxDepth ?? 3);
    this.plan = planTree(this.random, `s${seed.toString(36)}`, 1, maxDepth, options.maxWidth ?? 3);
    this.input = `q${seed.toString(36)}`;
    this.runId = `run-${seed.toString(36)}`;
    const rates: FaultRates = {
      modelError: this.random.pick([0, 0.05, 0.15]),
      toolError: this.random.pick([0, 0.05, 0.1]),
      crash: this.random.pick([0, 0, 0.02, 0.06]),
      leaseLapse: this.mode === 'direct' ? 0 : this.random.pick([0, 0.05, 0.15]),
    };
    for (const kind of options.disable ?? []) rates[kind] = 0;
    this.faults = new Faults(seed, rates, (line) => this.note(line));
    this.note(
      `seed ${seed}: mode ${this.mode}${this.sealed ? ' (sealed)' : ''}, depth ${depthOf(this.plan)}, faults ${JSON.stringify(rates)}`,
    );
    this.note(`plan ${JSON.stringify(this.plan)}`);
  }

  note(line: string): void {
    this.lines.push(line);
  }

  violation(what: string): void {
    this.violations.push(what);
    this.note(`  VIOLATION: ${what}`);
  }

  report(): SequenceReport {
    return {
      seed: this.seed,
      mode: this.mode,
      sealed: this.sealed,
      depth: depthOf(this.plan),
      ops: this.opIndex,
      faults: { ...this.faults.counts },
      sideEffects: this.sideEffects,
      executions: this.ledger.executions.length,
      violations: this.violations,
      log: this.lines,
    };
  }

  async spawn(): Promise<Proc> {
    const process = newProcess();
    this.processes.push(process);
    const agent = await buildTree(this.plan, {
      harness: this.harness,
      faults: this.faults,
      ledger: this.ledger,
      process,
    });
    return {
      process,
      agent,
      store: processStore(this.store, process, this.faults),
      log: processLog(this.checkpoints, process, this.faults),
    };
  }

  /** Run `body` as operation `name` in `proc`; a crash of the process ends it (its work never settles). */
  async op<T>(
    name: string,
    body: (proc: Proc) => Promise<T>,
    proc: Proc = this.proc,
    storedId?: string,
  ): Promise<Outcome<T>> {
    const index = ++this.opIndex;
    proc.process.op = { index, ...(storedId === undefined ? {} : { storedId }) };
    this.note(`#${index} ${name} [process ${proc.process.id}]`);
    const outcome = await Promise.race<Outcome<T>>([
      body(proc).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      proc.process.crashed.then(() => ({ crashed: true as const })),
    ]);
    if ('crashed' in outcome) {
      this.note(`  process ${proc.process.id} crashed`);
      this.clockLapse();
      if (proc === this.proc) this.proc = await this.spawn();
    } else if ('error' in outcome) this.note(`  -> error ${describe(outcome.error)}`);
    else this.note(`  -> ${summary(outcome.value)}`);
    return outcome;
  }

  clockLapse(): void {
    this.options.clock.advance(LAPSE_MS);
  }

  /** Decisions for some (`now`) or all of the actions of `continuation`, each the call's fixed answer. */
  decide(continuation: Continuation, now: number | 'all'): Decisions {
    const actions = listActions(continuation);
    const decisions: Decisions = {};
    for (const action of actions) {
      if (now !== 'all' && chanceOf(this.seed, 'now', now, action.id) >= 0.7) continue;
      decisions[action.id] = this.answer(action);
    }
    if (Object.keys(decisions).length === 0 && actions.length > 0) {
      decisions[actions[0]!.id] = this.answer(actions[0]!);
    }
    return decisions;
  }

  /** The human's fixed answer to an action: approve (or answer, for input) or reject. */
  answer(action: Action): Decisions[string] {
    const nonce = (action.args as { n?: unknown } | null)?.n;
    if (typeof nonce !== 'string' || !approves(this.seed, nonce)) {
      return { type: 'reject', by: 'sim', reason: 'simulated refusal' };
    }
    return action.kind === 'input'
      ? { type: 'input', value: { answer: `yes ${nonce}` }, by: 'sim' }
      : { type: 'approve', by: 'sim' };
  }

  /** Decisions applied by a run that went on must not come back as actions. */
  checkConsumed(decisions: Decisions, next: Continuation, where: string): void {
    const waiting = new Set(listActions(next).map((action) => action.id));
    for (const id of Object.keys(decisions)) {
      if (waiting.has(id))
        this.violation(`${where}: the decision for ${id} was dropped (it is pending again)`);
    }
  }

  async play(): Promise<void> {
    if (this.options.createStore) this.store = await this.options.createStore();
    this.proc = await this.spawn();
    const maxOps = 1 + this.random.int(this.options.maxOps ?? 8);
    await this.start();
    while (this.opIndex < maxOps && !this.completed && !this.stopped) {
      if (this.mode === 'direct') await this.stepDirect();
      else if (this.mode === 'stored') await this.stepStored();
      else await this.stepDurable();
      await this.settleBackground();
    }
    await this.drain();
    await this.checkLeftovers();
    this.check();
  }

  /** Wait for the workers started in the background (take-overs), and for those they started. */
  async settleBackground(): Promise<void> {
    while (this.background.length > 0) {
      const running = this.background;
      this.background = [];
      await Promise.all(running);
    }
  }

  // ---- starting a run ----

  async start(): Promise<void> {
    const streams = hasStream(this.proc.agent) && this.random.chance(0.3);
    if (this.mode === 'durable') {
      const outcome = await this.op('runDurably', (proc) =>
        runDurably(proc.agent, proc.log, this.input, {
          runId: this.runId,
          owner: `p${proc.process.id}`,
        }).then(async (result) => {
          if (result.status === 'suspended') {
            await proc.store.save(result.continuation);
            await proc.log.markSaved?.(this.runId, result.continuation.id);
          }
          return result;
        }),
      );
      this.absorbDurable(outcome);
      return;
    }
    const outcome = await this.op(streams ? 'stream(input)' : 'run(input)', async (proc) => {
      let result: RunResult<any>;
      try {
        result = streams
          ? await consume(streamOf(proc.agent)(this.input, { runId: this.runId }))
          : await proc.agent.run(this.input, { runId: this.runId });
      } catch (error) {
        // The application keeps the last good state a failure carries, to resume it later.
        const state = stateOf(error);
        if (this.mode === 'stored' && state) await proc.store.save(state);
        throw error;
      }
      if (this.mode === 'stored' && result.status === 'suspended') {
        await proc.store.save(result.continuation);
      }
      return result;
    });
    if (this.mode === 'stored') return this.absorbStored(outcome, {});
    this.absorbDirect(outcome, {});
  }

  // ---- direct mode: the application holds the continuation ----

  async stepDirect(): Promise<void> {
    const held = this.held;
    if (held === undefined) {
      // A crash before anything was kept: the request failed; the application starts again.
      await this.start();
      return;
    }
    const continuation = JSON.parse(held) as Continuation;
    const roll = this.random.next();
    if (this.sealed && roll < 0.15) return this.forgeDirect(continuation);
    if (roll < 0.3) {
      this.faults.count('newProcess');
      this.proc = await this.spawn();
    }
    const decisions = this.decide(continuation, this.opIndex + 1);
    const streams = hasStream(this.proc.agent) && this.random.chance(0.3);
    const inProcess = this.random.chance(0.5);
    const outcome = await this.op(
      `${streams ? 'stream' : 'resume'}(${inProcess ? 'object' : 'text'}, ${JSON.stringify(decisions)})`,
      async (proc) => {
        const input = inProcess ? continuation : held;
        return streams
          ? consume(streamOf(proc.agent)({ continuation: input, decisions }))
          : proc.agent.resume(input, decisions);
      },
    );
    this.absorbDirect(outcome, decisions);
  }

  absorbDirect(outcome: Outcome<RunResult<any>>, decisions: Decisions): void {
    if ('crashed' in outcome) return; // the application still holds what it resumed
    if ('error' in outcome) {
      const state = stateOf(outcome.error);
      if (!state) {
        this.violation(`an error left no resumable state: ${describe(outcome.error)}`);
        return;
      }
      this.checkConsumed(decisions, state, 'error state');
      this.held = serializeContinuation(state);
      return;
    }
    const result = outcome.value;
    if (result.status === 'suspended') {
      this.checkConsumed(decisions, result.continuation, 'suspension');
      this.held = serializeContinuation(result.continuation);
    } else this.finish(result);
  }

  finish(result: RunResult<any>): void {
    if (result.status === 'suspended') return;
    if (result.runId !== this.runId)
      this.violation(`completed run has id ${result.runId}, not ${this.runId}`);
    if (result.status !== 'completed') this.violation(`the run ended ${result.status}`);
    this.completed = true;
  }

  async forgeDirect(continuation: Continuation): Promise<void> {
    const forged = forge(continuation, this.random);
    if (!forged) return;
    this.faults.count('forged');
    const before = this.ledger.executions.length;
    const outcome = await this.op(`resume(forged: ${forged.how})`, (proc) =>
      proc.agent.resume(JSON.stringify(forged.continuation), forged.decisions),
    );
    this.checkForgedRefused(outcome, before);
  }

  checkForgedRefused(outcome: Outcome<unknown>, before: number): void {
    if ('crashed' in outcome) return;
    const ran = this.ledger.executions.length - before;
    if (ran > 0) this.violation(`a forged continuation ran ${ran} tool call(s) though the agent is sealed`);
    if ('value' in outcome) this.violation('a forged continuation was resumed though the agent is sealed');
    else if (!isContinuationError(outcome.error) || !FORGERY_CODES.has(outcome.error.code)) {
      this.violation(`a forged continuation failed with ${describe(outcome.error)}, not a seal error`);
    }
  }

  // ---- stored mode: resumeStored / streamStored over a store ----

  async live(): Promise<StoredSummary[]> {
    const { items } = await this.store.list({ runId: this.runId, status: [...LIVE, 'claimed'] });
    return items;
  }

  /** The record to resume now: the one live record of the run (two are a fork). */
  async pickLive(): Promise<StoredSummary | undefined> {
    const live = (await this.live()).filter((item) => item.status !== 'claimed');
    if (live.length > 1) {
      this.violation(
        `the store lists ${live.length} live records for one run: ${live.map((item) => `${item.id} (${item.status})`).join(', ')}`,
      );
    }
    return live[live.length - 1];
  }

  async stepStored(): Promise<void> {
    const record = await this.pickLive();
    if (!record) {
      if ((await this.live()).length > 0) {
        // Claimed by a worker that died or stalled: its lease lapses.
        this.clockLapse();
        return;
      }
      if (this.saved) {
        // Every record is resumed and none waits: the run finished after its worker reported it
        // (a crash in between). The ledger check says whether every call ran.
        this.note('  the store holds no live record: the run finished');
        this.completed = true;
        return;
      }
      await this.start();
      return;
    }
    if (record.status === 'failed') {
      this.note(`  record ${record.id} failed: ${record.error}`);
      await this.store.retry(record.id);
    }
    const roll = this.random.next();
    if (this.sealed && roll < 0.12) return this.forgeStored(record.id);
    if (roll < 0.22) return this.duplicateStored();
    if (roll < 0.35) return this.concurrentStored(record.id);
    if (roll < 0.45) {
      this.faults.count('newProcess');
      this.proc = await this.spawn();
    }
    await this.resumeStoredOnce(this.proc, record.id, this.random.chance(0.3) ? 'stream' : 'resume');
  }

  /** One worker resumes stored `id`; a lease lapse in it lets another worker take over. */
  async resumeStoredOnce(
    proc: Proc,
    id: string,
    how: 'stream' | 'resume',
    now?: number,
  ): Promise<Outcome<unknown>> {
    const decided: Decisions = {};
    const op = now ?? this.opIndex + 1;
    const decisions = (continuation: Continuation) => Object.assign(decided, this.decide(continuation, op));
    let tookOver: Promise<boolean> | undefined;
    const streams = how === 'stream' && hasStream(proc.agent);
    const outcome = await this.op(
      `${streams ? 'streamStored' : 'resumeStored'}(${id})`,
      async (inside) => {
        inside.process.op!.onLapse = () => {
          tookOver = this.takeOver(id);
          return tookOver;
        };
        return streams
          ? consume(
              await streamStored(inside.store, streamingOf(inside.agent), id, decisions, {
                owner: `p${inside.process.id}`,
              }),
            )
          : resumeStored(inside.store, inside.agent, id, decisions, { owner: `p${inside.process.id}` });
      },
      proc,
      id,
    );
    const lapsed = proc.process.op?.lapsed === true || tookOver !== undefined;
    proc.process.op = undefined;
    if (lapsed && tookOver && (await tookOver) && 'value' in outcome) {
      this.violation(
        `a worker whose lease lapsed and was taken over reported success for ${id} (its writes were not fenced)`,
      );
    }
    if (lapsed && proc === this.proc) this.proc = await this.spawn(); // the stalled process is a zombie now
    this.absorbStored(outcome, decided, lapsed);
    return outcome;
  }

  /** Another worker claims `id` while the first one is stalled past its lease; resolves once it claimed (or could not). */
  takeOver(id: string, logged = false): Promise<boolean> {
    this.clockLapse();
    let claimed!: (won: boolean) => void;
    const tookOver = new Promise<boolean>((done) => {
      claimed = done;
    });
    const work = (async () => {
      const other = await this.spawn();
      const base = other.store;
      other.store = {
        ...base,
        claim: async (claimId, claimOptions) => {
          try {
            const claim = await base.claim(claimId, claimOptions);
            claimed(true);
            return claim;
          } catch (error) {
            claimed(false);
            throw error;
          }
        },
      };
      other.process.crashed.then(() => claimed(false));
      if (logged) await this.resumeDurablyOnce(id, 'some', other);
      else await this.resumeStoredOnce(other, id, 'resume');
    })();
    this.background.push(work.catch((error) => this.violation(`take-over failed: ${describe(error)}`)));
    return tookOver;
  }

  absorbStored(outcome: Outcome<unknown>, decisions: Decisions, lapsed = false): void {
    if ('crashed' in outcome) return;
    if ('error' in outcome) {
      const { error } = outcome;
      if (isContinuationError(error, 'LEASE_LOST') && lapsed) return;
      if (isContinuationError(error, 'CLAIM_CONFLICT') && lapsed) return;
      const state = stateOf(error);
      if (state) {
        this.saved = true;
        this.checkConsumed(decisions, state, 'error state');
        return;
      }
      if (isContinuationError(error) && error.code === 'CLAIM_CONFLICT') return;
      this.violation(`unexpected error: ${describe(error)}`);
      return;
    }
    const result = outcome.value as RunResult<any>;
    if (result.status === 'suspended') {
      this.saved = true;
      this.checkConsumed(decisions, result.continuation, 'suspension');
    } else this.finish(result);
  }

  /** Two workers resume the same record at once: exactly one may run it. */
  async concurrentStored(id: string): Promise<void> {
    this.faults.count('concurrentResume');
    const other = await this.spawn();
    const now = this.opIndex + 1;
    const [first, second] = await Promise.all([
      this.resumeStoredOnce(this.proc, id, 'resume', now),
      this.resumeStoredOnce(other, id, 'resume', now),
    ]);
    const ran = [first, second].filter(
      (outcome) => !('error' in outcome && isContinuationError(outcome.error, 'CLAIM_CONFLICT')),
    );
    if (ran.length === 2 && [first, second].every((outcome) => 'value' in outcome)) {
      this.violation(`two concurrent resumes of ${id} both succeeded`);
    }
    if (ran.length === 0) this.violation(`both concurrent resumes of ${id} were refused`);
  }

  /** A job delivered again for a record already resumed: refused, nothing runs. */
  async duplicateStored(): Promise<void> {
    const { items } = await this.store.list({ runId: this.runId, status: 'completed' });
    const old = items[this.random.int(Math.max(1, items.length))];
    if (!old) return;
    this.faults.count('duplicateDelivery');
    const before = this.ledger.executions.length;
    const outcome = await this.op(`duplicate resumeStored(${old.id})`, (proc) =>
      resumeStored(proc.store, proc.agent, old.id, (continuation) => this.decide(continuation, 'all'), {
        owner: `p${proc.process.id}`,
      }),
    );
    if ('crashed' in outcome) return;
    if (this.ledger.executions.length > before) this.violation(`a duplicate delivery of ${old.id} ran tools`);
    if (!('error' in outcome) || !isContinuationError(outcome.error, 'CLAIM_CONFLICT')) {
      this.violation(`a duplicate delivery of ${old.id} was not refused with CLAIM_CONFLICT`);
    }
  }

  async forgeStored(id: string): Promise<void> {
    const stored = await this.store.load(id);
    const forged = stored && forge(stored.continuation, this.random);
    if (!forged) return;
    this.faults.count('forged');
    forged.continuation.id = `${id}-forged`;
    await this.store.save(forged.continuation);
    const before = this.ledger.executions.length;
    const outcome = await this.op(`resumeStored(forged: ${forged.how})`, (proc) =>
      resumeStored(proc.store, proc.agent, forged.continuation.id, forged.decisions, {
        owner: `p${proc.process.id}`,
      }),
    );
    this.checkForgedRefused(outcome, before);
    await this.store.delete(forged.continuation.id);
  }

  // ---- durable mode: a checkpoint log, with the store for what waits for a human ----

  absorbDurable(outcome: Outcome<RunResult<unknown>>, decisions: Decisions = {}): void {
    if ('crashed' in outcome) return;
    if ('error' in outcome) {
      if (!isContinuationError(outcome.error)) this.violation(`unexpected error: ${describe(outcome.error)}`);
      return; // the log holds the run: recovery picks it up once its lease lapses
    }
    const result = outcome.value;
    if (result.status === 'suspended') {
      this.saved = true;
      this.checkConsumed(decisions, result.continuation, 'suspension');
    } else this.finish(result);
  }

  async stepDurable(): Promise<void> {
    const status = await this.checkpoints.status(this.runId);
    if (status?.status === 'running') {
      this.clockLapse();
      await this.recoverOnce();
      return;
    }
    const record = await this.pickLive();
    if (!record) {
      if ((await this.live()).length > 0) {
        this.clockLapse();
        return;
      }
      if (!status) return this.start();
      if (status.status === 'completed' || status.status === 'rejected') {
        // Finished after the worker reported it (a crash in between): the log knows.
        this.note(`  the log says the run ${status.status}`);
        this.completed = true;
        return;
      }
      if (status.status === 'failed' && !this.reconciled) {
        // A worker may have died between the log's failure and the store's failed record:
        // recovery reconciles them; give it a chance first.
        this.reconciled = await this.recoverOnce();
        return;
      }
      if (status.status === 'failed') {
        this.note(`  the log says the run failed: ${status.error}`);
        this.stopped = true;
        this.violation(`the run failed in the log with no failed record to retry: ${status.error}`);
        return;
      }
      if (!this.reconciled) {
        // Recovery may reconcile the log and the store (save the log's suspension): give it a chance.
        this.reconciled = await this.recoverOnce();
        return;
      }
      this.violation(
        `stranded: the log says ${status.status} (suspension ${status.suspensionId}) and the store holds nothing to resume, even after recover()`,
      );
      this.stopped = true;
      return;
    }
    if (record.status === 'failed') await this.store.retry(record.id);
    if (this.random.chance(0.15)) return this.duplicateDurable();
    if (this.random.chance(0.2)) {
      this.faults.count('newProcess');
      this.proc = await this.spawn();
    }
    await this.resumeDurablyOnce(record.id, 'some');
  }

  /** Resume the record under a claim with every step in the log (`resumeStored` with `log`). */
  async resumeDurablyOnce(id: string, which: 'some' | 'all', proc: Proc = this.proc): Promise<void> {
    const decided: Decisions = {};
    const now = which === 'all' ? 'all' : this.opIndex + 1;
    let tookOver: Promise<boolean> | undefined;
    const outcome = await this.op(
      `resumeStored(${id}, with the log)`,
      (inside) => {
        inside.process.op!.onLapse = () => {
          tookOver = this.takeOver(id, true);
          return tookOver;
        };
        return resumeStored(
          inside.store,
          inside.agent,
          id,
          (continuation) => Object.assign(decided, this.decide(continuation, now)),
          { owner: `p${inside.process.id}`, log: inside.log },
        );
      },
      proc,
      id,
    );
    const lapsed = proc.process.op?.lapsed === true || tookOver !== undefined;
    proc.process.op = undefined;
    if (lapsed && tookOver && (await tookOver) && 'value' in outcome) {
      this.violation(
        `a worker whose lease lapsed and was taken over reported success for ${id} with the log (its writes were not fenced)`,
      );
    }
    if (lapsed && proc === this.proc) this.proc = await this.spawn();
    if ('error' in outcome && isContinuationError(outcome.error, 'CLAIM_CONFLICT')) return;
    if (lapsed && 'error' in outcome && isContinuationError(outcome.error, 'LEASE_LOST')) return;
    this.absorbDurable(outcome, decided);
  }

  /** Run `recover` with the store; false when the process crashed in it. */
  async recoverOnce(): Promise<boolean> {
    const outcome = await this.op('recover', (proc) =>
      recover(
        proc.log,
        { [this.plan.name]: proc.agent },
        { store: proc.store, owner: `p${proc.process.id}` },
      ),
    );
    if ('crashed' in outcome) return false;
    if (!('value' in outcome)) return true;
    for (const recovered of outcome.value) {
      if (recovered.runId !== this.runId) continue;
      if (recovered.result) this.absorbDurable({ value: recovered.result });
      else
        this.note(`  recovery failed: ${describe(recovered.error)}${recovered.failed ? ' (given up)' : ''}`);
    }
    return true;
  }

  /** The same continuation resumed again after the log moved past it: refused, nothing runs. */
  async duplicateDurable(): Promise<void> {
    const { items } = await this.store.list({ runId: this.runId, status: 'completed' });
    const old = items[this.random.int(Math.max(1, items.length))];
    if (!old) return;
    this.faults.count('duplicateDelivery');
    const stored = await this.store.load(old.id);
    const before = this.ledger.executions.length;
    const outcome = await this.op(`duplicate resumeDurably(${old.id})`, (proc) =>
      resumeDurably(proc.agent, proc.log, stored!.continuation, this.decide(stored!.continuation, 'all'), {
        owner: `p${proc.process.id}`,
      }),
    );
    if ('crashed' in outcome) return;
    if (this.ledger.executions.length > before) {
      this.violation(`resumeDurably of ${old.id}, which the log had moved past, ran tools again`);
    }
    if ('value' in outcome) {
      this.violation(`resumeDurably accepted ${old.id}, a continuation the log had moved past`);
      this.finish(outcome.value);
    }
  }

  // ---- the drain: faults off, a new process, every action decided ----

  async drain(): Promise<void> {
    await this.settleBackground();
    this.faults.enabled = false;
    this.note('drain (faults off)');
    this.clockLapse();
    this.proc = await this.spawn();
    for (let round = 0; round < 100 && !this.completed && !this.stopped; round++) {
      if (this.mode === 'direct') {
        if (this.held === undefined) {
          await this.start();
          continue;
        }
        const decisions = this.decide(JSON.parse(this.held) as Continuation, 'all');
        const outcome = await this.op(`resume(${JSON.stringify(decisions)})`, (proc) =>
          proc.agent.resume(this.held!, decisions),
        );
        this.absorbDirect(outcome, decisions);
        continue;
      }
      if (this.mode === 'durable') {
        const status = await this.checkpoints.status(this.runId);
        if (status?.status === 'running') {
          this.clockLapse();
          await this.recoverOnce();
          continue;
        }
        const record = await this.pickLive();
        if (!record) {
          await this.stepDurable();
          continue;
        }
        if (record.status === 'failed') await this.store.retry(record.id);
        await this.resumeDurablyOnce(record.id, 'all');
        continue;
      }
      const record = await this.pickLive();
      if (!record) {
        await this.stepStored();
        continue;
      }
      if (record.status === 'failed') await this.store.retry(record.id);
      const outcome = await this.op(`resumeStored(${record.id}, all)`, (proc) =>
        resumeStored(proc.store, proc.agent, record.id, (continuation) => this.decide(continuation, 'all'), {
          owner: `p${proc.process.id}`,
        }),
      );
      this.absorbStored(outcome, {});
    }
    if (!this.completed && !this.stopped) {
      this.violation('the run did not complete after draining with every action decided');
    }
  }

  // ---- invariants ----

  async checkLeftovers(): Promise<void> {
    if (this.mode === 'direct' || !this.completed) return;
    const live = await this.live();
    if (live.length > 0) {
      this.violation(
        `the run completed but the store still lists ${live.map((item) => `${item.id} (${item.status})`).join(', ')} as waiting`,
      );
    }
  }

  check(): void {
    const compromised = new Set(
      this.processes.filter((process) => process.compromised).map((process) => process.id),
    );
    const leaves = leavesOf(this.plan, this.input);
    const known = new Set(leaves.map((leaf) => leaf.nonce));
    for (const execution of this.ledger.executions) {
      if (!known.has(execution.nonce)) this.violation(`a call the model never made ran: ${execution.nonce}`);
    }
    if (!this.completed) return;
    for (const leaf of leaves) {
      this.sideEffects += 1;
      const runs = this.ledger.of(leaf.nonce);
      const keys = new Set(runs.map((run) => run.key));
      if (keys.size > 1)
        this.violation(`${leaf.nonce} ran with ${keys.size} idempotency keys: ${[...keys].join(', ')}`);
      const wanted = leaf.kind === 'lookup' || approves(this.seed, leaf.nonce);
      if (!wanted && runs.length > 0)
        this.violation(`${leaf.nonce} was rejected and ran ${runs.length} time(s)`);
      if (wanted && runs.length === 0)
        this.violation(`${leaf.nonce} (${leaf.kind}) never ran in a completed run`);
      const healthy = runs.filter((run) => !compromised.has(run.process));
      if (healthy.length > 1) {
        this.violation(
          `${leaf.nonce} ran ${healthy.length} times with no crash or lost lease in between (ops ${healthy.map((run) => run.op).join(', ')})`,
        );
      }
    }
  }
}

const FORGERY_CODES = new Set(['SEAL_MISMATCH', 'SEAL_MISSING', 'INVALID_CONTINUATION']);

/** Alter a sealed continuation the way an attacker would; undefined when there is nothing to alter. */
function forge(
  original: Continuation,
  random: Random,
): { continuation: Continuation; decisions: Decisions; how: string } | undefined {
  const continuation = JSON.parse(JSON.stringify(original)) as Continuation;
  let level = continuation;
  const path: string[] = [];
  for (;;) {
    const nested = level.pending.find((entry) => entry.kind === 'agent');
    if (!nested || random.chance(0.4)) break;
    path.push(nested.toolCallId);
    level = (nested as { child: Continuation }).child;
  }
  const target = level.pending.find((entry) => entry.kind === 'approval');
  const how = random.pick(['approve', 'args', 'done', 'strip', 'metadata'] as const);
  if (how === 'strip' || !target) {
    delete continuation.seal;
    return { continuation, decisions: {}, how: 'strip the seal' };
  }
  if (how === 'metadata') {
    continuation.metadata = { ...continuation.metadata, tenant: 'mallory' };
    return { continuation, decisions: {}, how: 'change the metadata' };
  }
  const id = [...path, target.toolCallId].join('/');
  if (how === 'approve') {
    (target as { approved?: boolean }).approved = true;
    return { continuation, decisions: {}, how: `approve ${id}` };
  }
  if (how === 'args') {
    target.args = { n: `${(target.args as { n: string }).n}!forged` };
    return { continuation, decisions: { [id]: { type: 'approve' } }, how: `change the arguments of ${id}` };
  }
  level.done.push({ toolCallId: `${target.toolCallId}x`, toolName: target.toolName, output: 'forged' });
  return { continuation, decisions: { [id]: { type: 'approve' } }, how: `add a done result beside ${id}` };
}

function stateOf(error: unknown): Continuation | undefined {
  if (!isContinuationError(error)) return undefined;
  return (error as { continuation?: Continuation }).continuation;
}

type Streaming = {
  stream(input: unknown, options?: unknown): AsyncIterable<unknown> & { result: Promise<RunResult<any>> };
};

function hasStream(agent: ContinuableAgent<string, any>): boolean {
  return typeof (agent as Partial<Streaming>).stream === 'function';
}

function streamOf(agent: ContinuableAgent<string, any>): Streaming['stream'] {
  const streaming = agent as unknown as Streaming;
  return (input, options) => streaming.stream(input, options);
}

function streamingOf(agent: ContinuableAgent<string, any>): Parameters<typeof streamStored>[1] {
  return agent as unknown as Parameters<typeof streamStored>[1];
}

/** Read a stream to its end, then its result (a failure surfaces through `result`). */
async function consume<T>(stream: AsyncIterable<unknown> & { result: Promise<T> }): Promise<T> {
  try {
    for await (const _ of stream) {
      // events are not checked here; the result is
    }
  } catch {
    // the same failure rejects `result`
  }
  return stream.result;
}

function summary(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} recovered`;
  const result = value as RunResult<any> | undefined;
  if (!result || typeof result !== 'object' || !('status' in result)) return 'ok';
  if (result.status === 'suspended') {
    return `suspended ${result.continuation.id} waiting for ${result.actions.map((action) => action.id).join(', ') || result.continuation.suspendedBy.type}`;
  }
  return result.status;
}

function describe(error: unknown): string {
  if (isContinuationError(error)) return `${error.code}: ${error.message}`.slice(0, 300);
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300);
  return String(error).slice(0, 300);
}

/** The harness's agents, each sealed with `seal` (through `ConformanceAgentSpec.seal`). */
function withSeal(harness: ConformanceHarness, seal: SealConfig): ConformanceHarness {
  return {
    ...harness,
    name: `${harness.name} (sealed)`,
    createAgent: (spec) => harness.createAgent({ ...spec, seal }),
  };
}
