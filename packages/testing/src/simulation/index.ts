/**
 * The seeded fault simulation: random agent trees driven through random operations with faults at
 * every await point, checked against exactly-once invariants. Runs against any adapter's
 * `ConformanceHarness`.
 */

export { engineHarness } from './engine-harness';
export { createMemoryCheckpointLog, type MemoryCheckpointLog } from './memory-log';
export { chanceOf, hashOf, type Random, seededRandom } from './random';
export { runSequence, type SequenceMode, type SequenceOptions, type SequenceReport } from './sequence';
export {
  formatFailure,
  formatSummary,
  runSimulation,
  type SimulationOptions,
  type SimulationSummary,
} from './simulate';
export { approves, leavesOf, type PlannedAgent, type PlannedCall, type PlannedLeaf, planTree } from './tree';
export { type FaultKind, type FaultRates, installClock, Ledger, type SimClock } from './world';
