/**
 * What every mode of a sequence shares: the seeded draws, the world (store, checkpoint log,
 * ledger, clock), the processes, the operation log with its violations, the human's fixed answers,
 * and the checks that hold whatever the mode.
 */
import {
  type Action,
  type ContinuableAgent,
  type Continuation,
  type ContinuationStore,
  createMemoryStore,
  type Decisions,
  listActions,
  type RunEvent,
  type RunResult,
  type SealConfig,
  type StoredSummary,
} from '@agent-continuations/core';
import type { ConformanceHarness } from '../conformance-harness';
import { createMemoryCheckpointLog } from './memory-log';
import { chanceOf, type Random, seededRandom } from './random';
import { consume, describe, hasStream, stateOf, streamOf, summary } from './run-helpers';
import { approves, buildTree, depthOf, type PlannedAgent, planTree } from './tree';
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
  /**
   * In durable sequences, `pay` declares `idempotent: false`, and the invariant that it never runs
   * twice (crash or not) is checked; a call recovery finds in doubt is decided by a person who
   * knows the ledger (it ran: its result; it did not: approve). The harness must pass
   * `ConformanceTool.idempotent` to its tools. Off by default.
   */
  payOnce?: boolean;
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
  /** Decisions the person made on calls in doubt (see `SequenceOptions.payOnce`). */
  inDoubt: number;
  violations: string[];
  /** The operation log, to read with a failure. */
  log: string[];
}

/**
 * One mode's moves: how the application starts the run, one random operation while faults strike,
 * and one round of the drain (faults off, every action decided).
 */
export interface Mode {
  start(): Promise<void>;
  step(): Promise<void>;
  drainRound(): Promise<void>;
  /** After the drain, before the invariants: a last move of the mode's own, with its checks. */
  afterDrain?(): Promise<void>;
}

/** A process with the agent tree it built and its views of the store and the log. */
export interface Proc {
  process: Process;
  agent: ContinuableAgent<string, any>;
  store: ContinuationStore;
  log: ReturnType<typeof processLog>;
}

/** How an operation ended: a value, an error, or its process crashed (it never settles). */
export type Outcome<T> = { value: T } | { error: unknown } | { crashed: true };

/** Longer than any lease used: advancing the clock by it lets every held lease lapse. */
const LAPSE_MS = 31_000;
/** Stored records that still wait for someone. */
const LIVE = ['suspended', 'failed'] as const;

/** The shared state and moves of one seeded sequence; each mode drives it (see {@link Mode}). */
export class SequenceContext {
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
  /** `pay` cannot run twice in this sequence (see `SequenceOptions.payOnce`). */
  readonly payOnce: boolean;
  readonly processes: Process[] = [];
  proc!: Proc;
  opIndex = 0;
  completed = false;
  /** A violation left nothing to go on with. */
  stopped = false;
  /** Workers started in the background (take-overs), awaited between operations. */
  background: Promise<void>[] = [];
  sideEffects = 0;
  inDoubt = 0;

  constructor(
    readonly seed: number,
    readonly options: SequenceOptions,
  ) {
    this.random = seededRandom(seed);
    const modes = options.modes ?? ['direct', 'stored', 'durable'];
    this.mode = this.random.pick(modes);
    this.payOnce = options.payOnce === true && this.mode === 'durable';
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
      // Hashed from the seed, not drawn: the draws after it, and so every older seed, stay the same.
      lapseBetweenTools:
        this.mode === 'direct' ? 0 : ([0, 0.05, 0.15] as const)[Math.floor(chanceOf(seed, 'between') * 3)]!,
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
      inDoubt: this.inDoubt,
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
      payOnce: this.payOnce,
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

  /**
   * Start the run in a process of its own (`run`, or `stream` when `streams`); with `keep`, the
   * application saves what it should resume later in the store: a suspension, or the last good
   * state a failure carries.
   */
  runInput(streams: boolean, keep: boolean): Promise<Outcome<RunResult<any>>> {
    return this.op(streams ? 'stream(input)' : 'run(input)', async (proc) => {
      let result: RunResult<any>;
      try {
        result = streams
          ? await consume(streamOf(proc.agent)(this.input, { runId: this.runId }))
          : await proc.agent.run(this.input, { runId: this.runId });
      } catch (error) {
        // The application keeps the last good state a failure carries, to resume it later.
        const state = stateOf(error);
        if (keep && state) await proc.store.save(state);
        throw error;
      }
      if (keep && result.status === 'suspended') await proc.store.save(result.continuation);
      return result;
    });
  }

  /** Whether the next run or resume streams (drawn whether or not the agent can). */
  drawStreams(): boolean {
    return hasStream(this.proc.agent) && this.random.chance(0.3);
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

  /**
   * The human's fixed answer to an action: approve (or answer, for input) or reject. A call in
   * doubt is answered from the ledger: its result when it ran, else approve (run it).
   */
  answer(action: Action): Decisions[string] {
    const nonce = (action.args as { n?: unknown } | null)?.n;
    if (action.inDoubt && typeof nonce === 'string') {
      const ran = this.ledger.of(nonce)[0];
      this.inDoubt += 1;
      this.note(`  ? ${action.id} in doubt: ${ran ? 'it ran' : 'it did not run'}`);
      return ran
        ? { type: 'input', value: { n: nonce, key: ran.key }, by: 'sim' }
        : { type: 'approve', by: 'sim' };
    }
    if (typeof nonce !== 'string' || !approves(this.seed, nonce)) {
      return { type: 'reject', by: 'sim', reason: 'simulated refusal' };
    }
    return action.kind === 'input'
      ? { type: 'input', value: { answer: `yes ${nonce}` }, by: 'sim' }
      : { type: 'approve', by: 'sim' };
  }

  /**
   * Decisions applied by a run that went on must not come back as actions; a call that started
   * after its approval and came back in doubt asks a new question.
   */
  checkConsumed(decisions: Decisions, next: Continuation, where: string): void {
    const waiting = new Set(
      listActions(next)
        .filter((action) => !action.inDoubt)
        .map((action) => action.id),
    );
    for (const id of Object.keys(decisions)) {
      if (waiting.has(id))
        this.violation(`${where}: the decision for ${id} was dropped (it is pending again)`);
    }
  }

  /** The run ended: it must be this run, and it must have completed. */
  finish(result: RunResult<any>): void {
    if (result.status === 'suspended') return;
    if (result.runId !== this.runId)
      this.violation(`completed run has id ${result.runId}, not ${this.runId}`);
    if (result.status !== 'completed') this.violation(`the run ended ${result.status}`);
    this.completed = true;
  }

  /** The run's stored records that still wait for someone, or are claimed. */
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

  /**
   * Another worker takes the record over while the first one is stalled past its lease: `resume`
   * claims and resumes it in a new process; resolves once it claimed (or could not).
   */
  takeOver(resume: (other: Proc) => Promise<unknown>): Promise<boolean> {
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
      await resume(other);
    })();
    this.background.push(work.catch((error) => this.violation(`take-over failed: ${describe(error)}`)));
    return tookOver;
  }

  /**
   * Resume stored `id` in `proc` as operation `name`: a lease lapse inside it lets another worker
   * take the record over (`takeOver`, in a new process), and the stalled process is a zombie from
   * then on. A stalled worker whose record was taken over must not report success (`what` names
   * the resume in that violation).
   */
  async resumeUnderLease<T>(
    name: string,
    proc: Proc,
    id: string,
    resume: (inside: Proc) => Promise<T>,
    takeOver: (other: Proc) => Promise<unknown>,
    what = id,
  ): Promise<{ outcome: Outcome<T>; lapsed: boolean }> {
    let tookOver: Promise<boolean> | undefined;
    const outcome = await this.op(
      name,
      (inside) => {
        const op = inside.process.op!;
        op.onLapse = async () => {
          tookOver = this.takeOver(takeOver);
          if (await tookOver) op.takenOver = true;
        };
        return resume(inside);
      },
      proc,
      id,
    );
    const lapsed = proc.process.op?.lapsed === true || tookOver !== undefined;
    proc.process.op = undefined;
    if (lapsed && tookOver && (await tookOver) && 'value' in outcome) {
      this.violation(
        `a worker whose lease lapsed and was taken over reported success for ${what} (its writes were not fenced)`,
      );
    }
    if (lapsed && proc === this.proc) this.proc = await this.spawn(); // the stalled process is a zombie now
    return { outcome, lapsed };
  }

  /**
   * The run's observer in a resume under a claim: after each tool's result (recorded in the log,
   * in durable mode), a lease lapse between two tools may strike.
   */
  betweenTools(proc: Proc): (event: RunEvent) => Promise<void> {
    return async (event) => {
      if (event.type !== 'tool-result') return;
      const at = [...(event.path ?? []), event.toolCallId].join('/');
      await this.faults.between(proc.process, `after ${at}`);
    };
  }

  /** Wait for the workers started in the background (take-overs), and for those they started. */
  async settleBackground(): Promise<void> {
    while (this.background.length > 0) {
      const running = this.background;
      this.background = [];
      await Promise.all(running);
    }
  }
}

/** The harness's agents, each sealed with `seal` (through `ConformanceAgentSpec.seal`). */
function withSeal(harness: ConformanceHarness, seal: SealConfig): ConformanceHarness {
  return {
    ...harness,
    name: `${harness.name} (sealed)`,
    createAgent: (spec) => harness.createAgent({ ...spec, seal }),
  };
}
