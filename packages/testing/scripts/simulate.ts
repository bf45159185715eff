/**
 * `pnpm simulate [--runs N] [--seed N] [--modes direct,stored,durable] [--width N] [--ops N] [--pay-once]`:
 * the seeded fault simulation on the core engine, in process (memory store, in-memory checkpoint
 * log). With `--runs 1` (the default when only `--seed` is given) it replays one sequence and
 * prints its operation log; a seed replays with the same `--modes`, `--width` and `--ops`. Prints
 * the seed of every failing sequence and a replay command; exits 1 on any failure.
 */
import {
  engineHarness,
  formatFailure,
  formatSummary,
  runSimulation,
  type SequenceMode,
} from '@agent-continuations/testing/runtime';

const args = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const seed = Number(value('--seed') ?? Date.now() % 1_000_000_000);
const runs = Number(value('--runs') ?? (value('--seed') === undefined ? 10_000 : 1));
const modes = value('--modes')?.split(',') as SequenceMode[] | undefined;
const maxWidth = value('--width') === undefined ? undefined : Number(value('--width'));
const maxOps = value('--ops') === undefined ? undefined : Number(value('--ops'));
// Durable sequences declare `pay` idempotent: false and check it never runs twice.
const payOnce = args.includes('--pay-once');
/** The flags that shape a sequence: a seed replays only with the same ones. */
const shape = [
  ...(modes ? [`--modes ${modes.join(',')}`] : []),
  ...(maxWidth === undefined ? [] : [`--width ${maxWidth}`]),
  ...(maxOps === undefined ? [] : [`--ops ${maxOps}`]),
  ...(payOnce ? ['--pay-once'] : []),
].join(' ');
const verbose = args.includes('--verbose') || runs === 1;
const maxFailures = Number(value('--max-failures') ?? 20);

if (!Number.isInteger(seed) || !Number.isInteger(runs) || runs < 1) {
  console.error(
    'usage: pnpm simulate [--runs N] [--seed N] [--modes direct,stored,durable] [--width N] [--ops N] [--pay-once] [--verbose] [--max-failures N]',
  );
  process.exit(2);
}

console.log(`simulating ${runs} sequence(s) from seed ${seed}`);
let printed = 0;
let failed = 0;
const failingSeeds: number[] = [];
const violations = new Map<string, { count: number; seeds: number[] }>();
const summary = await runSimulation({
  harness: engineHarness(),
  sealedHarness: engineHarness({ secret: 'simulation-secret', keyId: 'sim-1' }),
  seed,
  runs,
  ...(modes ? { modes } : {}),
  ...(maxWidth === undefined ? {} : { maxWidth }),
  ...(maxOps === undefined ? {} : { maxOps }),
  ...(payOnce ? { payOnce } : {}),
  keepFailures: 0,
  onSequence(report) {
    if (runs >= 100_000 && (report.seed - seed + 1) % 10_000 === 0) {
      console.log(`... ${report.seed - seed + 1} sequences, ${failed} failing`);
    }
    if (report.violations.length > 0) failed += 1;
    if (verbose && report.violations.length === 0) console.log(report.log.join('\n'));
    if (report.violations.length === 0) return;
    for (const violation of report.violations) {
      // Group by the kind of violation: the text without ids and numbers.
      const kind = violation.replace(
        /[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}(-forged)?|[a-z0-9]+(-[a-z0-9]+)*@\d+|\b\d+(\.\d+)*\b|q[a-z0-9]+(\/[\d.]+)*/g,
        '#',
      );
      const entry = violations.get(kind) ?? { count: 0, seeds: [] };
      entry.count += 1;
      if (entry.seeds.length < 5) entry.seeds.push(report.seed);
      violations.set(kind, entry);
    }
    const replay = (failing: number) => `pnpm simulate --seed ${failing}${shape ? ` ${shape}` : ''}`;
    failingSeeds.push(report.seed);
    if (printed++ < maxFailures) console.log(`\n${formatFailure(report, replay)}\n`);
    else console.log(`seed ${report.seed} failed: ${report.violations[0]}`);
  },
});
console.log(`\n${formatSummary(summary)}`);
if (violations.size > 0) {
  console.log('violations by kind:');
  for (const [kind, { count, seeds }] of violations)
    console.log(`  ${count} x ${kind} (seeds ${seeds.join(', ')})`);
  console.log(
    `failing seeds: ${failingSeeds.slice(0, 1000).join(' ')}${failingSeeds.length > 1000 ? ' ...' : ''}`,
  );
}
process.exit(summary.failing > 0 ? 1 : 0);
