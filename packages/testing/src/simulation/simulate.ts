/**
 * Many seeded sequences in a row, with totals: sequences, faults injected by kind, side effects
 * checked. A failing sequence keeps its seed and operation log, to replay it alone.
 */
import { runSequence, type SequenceMode, type SequenceOptions, type SequenceReport } from './sequence';
import { type FaultKind, installClock } from './world';

/** Options of {@link runSimulation}. */
export interface SimulationOptions extends Omit<SequenceOptions, 'clock'> {
  /** The first seed; each sequence's seed is `seed + index`. */
  seed: number;
  /** How many sequences. */
  runs: number;
  /** Stop at the first failing sequence; false by default. */
  stopAtFirstFailure?: boolean;
  /** Failing reports kept in the summary (with their logs); 100 by default. All are counted in `failing`. */
  keepFailures?: number;
  /** Called after each sequence (e.g. to print progress). */
  onSequence?(report: SequenceReport): void;
}

/** Totals of a simulation. */
export interface SimulationSummary {
  sequences: number;
  /** How many sequences failed. */
  failing: number;
  /** The first failing reports (see `keepFailures`). */
  failures: SequenceReport[];
  faults: Record<FaultKind, number>;
  /** Calls of completed runs checked against the ledger. */
  sideEffects: number;
  /** Tool executions recorded. */
  executions: number;
  /** Decisions made on calls in doubt. */
  inDoubt: number;
  operations: number;
  byMode: Record<SequenceMode, number>;
  byDepth: Record<number, number>;
  sealed: number;
  ms: number;
}

/**
 * Run `runs` seeded sequences against an adapter's harness.
 *
 * @example
 * ```ts
 * const summary = await runSimulation({ harness, seed: 1, runs: 10_000 });
 * console.log(formatSummary(summary));
 * expect(summary.failures.map(formatFailure)).toEqual([]);
 * ```
 */
export async function runSimulation(options: SimulationOptions): Promise<SimulationSummary> {
  const { seed, runs, stopAtFirstFailure, keepFailures = 100, onSequence, ...sequence } = options;
  const started = performance.now();
  const summary: SimulationSummary = {
    sequences: 0,
    failing: 0,
    failures: [],
    faults: {
      modelError: 0,
      toolError: 0,
      crash: 0,
      leaseLapse: 0,
      lapseBetweenTools: 0,
      concurrentResume: 0,
      duplicateDelivery: 0,
      forged: 0,
      newProcess: 0,
    },
    sideEffects: 0,
    executions: 0,
    inDoubt: 0,
    operations: 0,
    byMode: { direct: 0, stored: 0, durable: 0 },
    byDepth: {},
    sealed: 0,
    ms: 0,
  };
  const clock = installClock();
  try {
    for (let index = 0; index < runs; index++) {
      const report = await runSequence(seed + index, { ...sequence, clock });
      summary.sequences += 1;
      for (const [kind, count] of Object.entries(report.faults)) summary.faults[kind as FaultKind] += count;
      summary.sideEffects += report.sideEffects;
      summary.executions += report.executions;
      summary.inDoubt += report.inDoubt;
      summary.operations += report.ops;
      summary.byMode[report.mode] += 1;
      summary.byDepth[report.depth] = (summary.byDepth[report.depth] ?? 0) + 1;
      if (report.sealed) summary.sealed += 1;
      onSequence?.(report);
      if (report.violations.length > 0) {
        summary.failing += 1;
        if (summary.failures.length < keepFailures) summary.failures.push(report);
        if (stopAtFirstFailure) break;
      }
    }
  } finally {
    clock.restore();
  }
  summary.ms = performance.now() - started;
  return summary;
}

/** The totals, one block of text. */
export function formatSummary(summary: SimulationSummary, label = 'simulation'): string {
  const faults = Object.entries(summary.faults)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  return [
    `${label}: ${summary.sequences} sequences in ${(summary.ms / 1000).toFixed(1)} s, ${summary.failing} failing`,
    `  operations ${summary.operations}; modes ${JSON.stringify(summary.byMode)}; depths ${JSON.stringify(summary.byDepth)}; sealed ${summary.sealed}`,
    `  faults injected: ${faults}`,
    `  side effects checked: ${summary.sideEffects} calls of completed runs; tool executions ${summary.executions}; calls in doubt decided ${summary.inDoubt}`,
  ].join('\n');
}

/**
 * A failing sequence: its seed, what broke, and its operation log; `replay` says how to run it
 * alone (e.g. `(seed) => \`pnpm simulate --seed ${seed} --modes direct,stored\``).
 */
export function formatFailure(report: SequenceReport, replay?: (seed: number) => string): string {
  return [
    `seed ${report.seed} (${report.mode}${report.sealed ? ', sealed' : ''}, depth ${report.depth}) failed:`,
    ...(replay ? [`  replay: ${replay(report.seed)}`] : []),
    ...report.violations.map((violation) => `  - ${violation}`),
    '  operation log:',
    ...report.log.map((line) => `    ${line}`),
  ].join('\n');
}
