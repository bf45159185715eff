import { engineHarness, formatFailure, runSimulation } from '@agent-continuations/testing/runtime';
const runs = Number(process.argv[2] ?? 500);
const s = await runSimulation({ harness: engineHarness(), sealedHarness: engineHarness({ secret: 'simulation-secret', keyId: 'sim-1' }), seed: Number(process.argv[3] ?? 1), runs, modes: ['durable'] });
console.log(`${s.sequences} seq, ${s.failing} failing, ${s.operations} ops, ms ${Math.round(s.ms)}`);
for (const f of s.failures.slice(0, 3)) console.log(formatFailure(f).slice(0, 6000));
