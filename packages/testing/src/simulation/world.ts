/**
 * What survives a simulated crash (the store, the checkpoint log, the side-effect ledger and the
 * clock) and what does not (a "process": its agents and everything in flight). Faults strike at
 * await points, decided by hashing the point, so a seed replays them exactly.
 */
import type { CheckpointLog, ContinuationStore } from '@agent-continuations/core';
import type { MemoryCheckpointLog } from './memory-log';
import { chanceOf } from './random';

/** Kinds of injected faults, counted per run of the simulation. */
export type FaultKind =
  | 'modelError'
  | 'toolError'
  | 'crash'
  | 'leaseLapse'
  | 'lapseBetweenTools'
  | 'concurrentResume'
  | 'duplicateDelivery'
  | 'forged'
  | 'newProcess';

/** Fault rates of one sequence, per await point. */
export interface FaultRates {
  modelError: number;
  toolError: number;
  crash: number;
  /** Inside a tool's body: the tool already running when its worker froze. */
  leaseLapse: number;
  /** After a tool's result is recorded, before the next start: another worker may take the run. */
  lapseBetweenTools: number;
}

/**
 * A controllable clock: `Date.now()` runs `offset` ms ahead of real time, so leases lapse when the
 * simulation says so (a stalled or dead worker) and never by accident.
 */
export interface SimClock {
  advance(ms: number): void;
  restore(): void;
}

/**
 * Make `Date.now()` controllable until `restore()`.
 *
 * @example
 * ```ts
 * const clock = installClock();
 * try { clock.advance(31_000); } finally { clock.restore(); }
 * ```
 */
export function installClock(): SimClock {
  const real = Date.now;
  let offset = 0;
  Date.now = () => real() + offset;
  return {
    advance(ms) {
      offset += ms;
    },
    restore() {
      Date.now = real;
    },
  };
}

/** One execution of a tool's body. */
export interface Execution {
  nonce: string;
  key: string;
  process: number;
  op: number;
}

/**
 * The bank's ledger: every execution of a tool, and the side effects it applied, de-duplicated by
 * the idempotency key as a careful tool would do.
 */
export class Ledger {
  readonly executions: Execution[] = [];
  /** Tool bodies that started in a process after another worker took its lapsed lease. */
  readonly lapsedStarts: Execution[] = [];
  /** Side effects applied, by idempotency key: which call and how often it was asked for. */
  readonly effects = new Map<string, { nonce: string; applied: number; requests: number }>();

  execute(execution: Execution): void {
    this.executions.push(execution);
    const effect = this.effects.get(execution.key);
    if (effect) effect.requests += 1;
    else this.effects.set(execution.key, { nonce: execution.nonce, applied: 1, requests: 1 });
  }

  of(nonce: string): Execution[] {
    return this.executions.filter((execution) => execution.nonce === nonce);
  }
}

/** A simulated process: agents and runs in flight; its crash loses them all. */
export interface Process {
  readonly id: number;
  dead: boolean;
  /** It crashed, or lost a lease while it ran: what it did may be done again by another. */
  compromised: boolean;
  /** Settles when the process crashes. */
  readonly crashed: Promise<void>;
  crash(): void;
  /** The op running in it (for the fault points), and whether a lease lapse struck it. */
  op: ProcessOp | undefined;
}

/** The operation a process runs. */
export interface ProcessOp {
  index: number;
  /** The stored record it resumes under a claim: only then can its lease lapse. */
  storedId?: string;
  /** A lease lapse struck it. */
  lapsed?: boolean;
  /** Another worker claimed the record after the lapse: nothing may start in this op from then on. */
  takenOver?: boolean;
  /** What the lapse sets off (another worker's take-over); resolves once that worker claimed, or could not. */
  onLapse?: () => Promise<unknown>;
}

let processes = 0;

/** A new process with a fresh id. */
export function newProcess(): Process {
  let resolve!: () => void;
  const crashed = new Promise<void>((done) => {
    resolve = done;
  });
  const process: Process = {
    id: ++processes,
    dead: false,
    compromised: false,
    crashed,
    op: undefined,
    crash() {
      process.dead = true;
      process.compromised = true;
      resolve();
    },
  };
  return process;
}

/** What never settles: the rest of a dead process's work. */
export function hang<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

/** Decides and counts faults for one sequence. */
export class Faults {
  /** Off during the final drain. */
  enabled = true;
  readonly counts: Record<FaultKind, number> = {
    modelError: 0,
    toolError: 0,
    crash: 0,
    leaseLapse: 0,
    lapseBetweenTools: 0,
    concurrentResume: 0,
    duplicateDelivery: 0,
    forged: 0,
    newProcess: 0,
  };
  private readonly hits = new Map<string, number>();

  constructor(
    readonly seed: number,
    readonly rates: FaultRates,
    readonly note: (line: string) => void,
  ) {}

  /** Whether a fault of `kind` strikes at `where` in `op` (each repeated visit is its own chance). */
  strikes(kind: keyof FaultRates, op: number, where: string): boolean {
    if (!this.enabled || this.rates[kind] <= 0) return false;
    const slot = `${kind}|${op}|${where}`;
    const visit = (this.hits.get(slot) ?? 0) + 1;
    this.hits.set(slot, visit);
    if (chanceOf(this.seed, slot, visit) >= this.rates[kind]) return false;
    this.counts[kind] += 1;
    this.note(`  ! ${kind} at ${where}`);
    return true;
  }

  count(kind: FaultKind): void {
    this.counts[kind] += 1;
  }

  /**
   * An await point in `process`: it may crash there (the rest never settles) or, inside a stored
   * resume, stall past its lease so another worker takes the continuation.
   */
  async point(process: Process, where: string, options: { lapse?: boolean } = {}): Promise<void> {
    if (process.dead) return hang();
    const op = process.op;
    if (!op) return;
    if (this.strikes('crash', op.index, where)) {
      process.crash();
      return hang();
    }
    if (options.lapse) await this.lapse(process, op, 'leaseLapse', where);
  }

  /**
   * Between two tools of a resume under a claim (one's result recorded, the next not started):
   * the worker stalls past its lease there, and another worker may take the record over.
   */
  async between(process: Process, where: string): Promise<void> {
    if (process.dead) return hang();
    const op = process.op;
    if (op) await this.lapse(process, op, 'lapseBetweenTools', where);
  }

  /** A lease lapse of `kind` may strike `op` (once per op): the process is compromised from then on. */
  private async lapse(
    process: Process,
    op: ProcessOp,
    kind: 'leaseLapse' | 'lapseBetweenTools',
    where: string,
  ): Promise<void> {
    if (op.storedId === undefined || op.lapsed || !this.strikes(kind, op.index, where)) return;
    op.lapsed = true;
    process.compromised = true;
    await op.onLapse?.();
  }
}

/** The store as one process sees it: a crash can strike before or after any call, and a dead process's calls never settle. */
export function processStore(store: ContinuationStore, process: Process, faults: Faults): ContinuationStore {
  const wrap =
    <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await faults.point(process, `store.${name}:before`);
      const result = await call(...args);
      await faults.point(process, `store.${name}:after`);
      return result;
    };
  return {
    capabilities: store.capabilities,
    save: wrap('save', (continuation, options) => store.save(continuation, options)),
    load: wrap('load', (id) => store.load(id)),
    list: wrap('list', (filter) => store.list(filter)),
    delete: wrap('delete', (id) => store.delete(id)),
    claim: wrap('claim', (id, options) => store.claim(id, options)),
    renew: async (claim, options) => {
      if (process.dead) return hang();
      return store.renew(claim, options);
    },
    complete: wrap('complete', (claim, options) => store.complete(claim, options)),
    release: wrap('release', (claim) => store.release(claim)),
    fail: wrap('fail', (claim, error) => store.fail(claim, error)),
    retry: wrap('retry', (id) => store.retry(id)),
  };
}

/** The checkpoint log as one process sees it: crashes before or after appends, begins and take-overs. */
export function processLog(log: MemoryCheckpointLog, process: Process, faults: Faults): CheckpointLog {
  const wrap =
    <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await faults.point(process, `log.${name}:before`);
      const result = await call(...args);
      await faults.point(process, `log.${name}:after`);
      return result;
    };
  const quiet =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (process.dead) return hang();
      return call(...args);
    };
  return {
    begin: wrap('begin', (start, options) => log.begin(start, options)),
    append: wrap('append', (lease, entry) => log.append(lease, entry)),
    renew: quiet((lease) => log.renew(lease)),
    fail: wrap('fail', (lease, error) => log.fail(lease, error)),
    read: quiet((runId) => log.read(runId)),
    status: quiet((runId) => log.status(runId)),
    expired: quiet((options) => log.expired(options)),
    takeOver: wrap('takeOver', (runId, options) => log.takeOver(runId, options)),
    unsaved: quiet((options) => log.unsaved(options)),
    markSaved: wrap('markSaved', (runId, suspensionId) => log.markSaved(runId, suspensionId)),
  } as CheckpointLog;
}
