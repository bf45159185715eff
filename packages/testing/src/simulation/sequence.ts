/**
 * One seeded sequence: plan an agent tree, run it through random operations while faults strike
 * at await points, then drain it with faults off and check the invariants.
 *
 * The operations depend on how the application keeps its continuations, one file per mode:
 * `direct-mode.ts` (it holds them itself), `stored-mode.ts` (a store, resumed by id under a claim)
 * and `durable-mode.ts` (a checkpoint log with the store, and recovery). What they share (the
 * draws, the world, the processes, the human's answers) is in `context.ts`; the checks after the
 * drain are in `invariants.ts`.
 */
import {
  type Mode,
  SequenceContext,
  type SequenceMode,
  type SequenceOptions,
  type SequenceReport,
} from './context';
import { DirectMode } from './direct-mode';
import { DurableMode } from './durable-mode';
import { checkLedger, checkLeftovers } from './invariants';
import { describe } from './run-helpers';
import { StoredMode } from './stored-mode';

export type { SequenceMode, SequenceOptions, SequenceReport } from './context';

const MODES: Record<SequenceMode, new (sequence: SequenceContext) => Mode> = {
  direct: DirectMode,
  stored: StoredMode,
  durable: DurableMode,
};

/** Drain rounds at most: enough for any planned tree with every action decided. */
const DRAIN_ROUNDS = 100;

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
  const sequence = new SequenceContext(seed, options);
  try {
    await play(sequence, new MODES[sequence.mode](sequence));
  } catch (error) {
    sequence.violation(`the simulation itself failed: ${describe(error)}`);
  }
  return sequence.report();
}

async function play(sequence: SequenceContext, mode: Mode): Promise<void> {
  if (sequence.options.createStore) sequence.store = await sequence.options.createStore();
  sequence.proc = await sequence.spawn();
  const maxOps = 1 + sequence.random.int(sequence.options.maxOps ?? 8);
  await mode.start();
  while (sequence.opIndex < maxOps && !sequence.completed && !sequence.stopped) {
    await mode.step();
    await sequence.settleBackground();
  }
  await drain(sequence, mode);
  await mode.afterDrain?.();
  await checkLeftovers(sequence);
  checkLedger(sequence);
}

/** The drain: faults off, a new process, every action decided, until the run completes. */
async function drain(sequence: SequenceContext, mode: Mode): Promise<void> {
  await sequence.settleBackground();
  sequence.faults.enabled = false;
  sequence.note('drain (faults off)');
  sequence.clockLapse();
  sequence.proc = await sequence.spawn();
  for (let round = 0; round < DRAIN_ROUNDS && !sequence.completed && !sequence.stopped; round++) {
    await mode.drainRound();
  }
  if (!sequence.completed && !sequence.stopped) {
    sequence.violation('the run did not complete after draining with every action decided');
  }
}
