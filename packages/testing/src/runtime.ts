/**
 * @agent-continuations/testing/runtime: the parts of the kit that run outside a test runner
 * (scripted models, the scripted OpenAI-compatible server, the durable test agents, the crash kit
 * and the fault simulation). Nothing here imports `vitest`, so a demo, an example or a worker
 * process loads no test runner; the suites live in the package root, which re-exports all of this.
 */

export {
  type Counts,
  countedScript,
  lookupTool,
  nestedChain,
  reportResults,
  transferTool,
} from './conformance-fixtures';
export type {
  ConformanceAgentSpec,
  ConformanceHarness,
  ConformanceTool,
  ConformanceToolContext,
} from './conformance-harness';
export {
  type CrashLedger,
  type CrashLedgerReport,
  type CrashScenarioReport,
  type CrashWorkerOptions,
  checkCrashReport,
  checkStoreAfterCrashes,
  crashRunIds,
  crashWorkerMain,
  type KillPoint,
  mulberry32,
  runCrashScenario,
  spawnTypeScript,
} from './crash-kit';
// Durability tests and benchmarks: an agent whose plan is its input (checkpoints and workers block).
export {
  type DurablePlan,
  type DurableTestAgentOptions,
  type DurableToolArgs,
  durableParentAgent,
  durablePlanInput,
  durableTestAgent,
} from './durable-agent';
export { freePort } from './free-port';
export { killableLog } from './killable-log';
// The scripted OpenAI-compatible HTTP server.
export {
  type RecordedRequest,
  type ScriptedOpenAIServer,
  type ScriptedOpenAIServerOptions,
  startScriptedOpenAIServer,
} from './openai-server/scripted-openai-server';
export { completed, suspended } from './results';
export {
  firstUserText,
  lastToolResults,
  SCRIPTED_USAGE,
  type Script,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptedTurn,
  scriptedModel,
  toResponse,
  turnIndex,
} from './scripted-model';
export {
  createMemoryCheckpointLog,
  engineHarness,
  formatFailure,
  formatSummary,
  type MemoryCheckpointLog,
  runSequence,
  runSimulation,
  type SequenceMode,
  type SequenceOptions,
  type SequenceReport,
  type SimulationOptions,
  type SimulationSummary,
} from './simulation';
export { waitingDisagreements } from './store-log-agreement';
