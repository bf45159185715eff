/**
 * @agent-continuations/testing: deterministic scripted models, the adapter conformance suite and
 * the store contract suite.
 */

export {
  type CheckpointLogFactory,
  type CheckpointLogUnderTest,
  type EncryptedCheckpointLogFactory,
  runCheckpointLogContract,
  runEncryptedCheckpointLogContract,
} from './checkpoint-contract';
export { runConformanceSuite } from './conformance';
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
// The scripted OpenAI-compatible HTTP server (adapter-openai's block).
export {
  type RecordedRequest,
  type ScriptedOpenAIServer,
  type ScriptedOpenAIServerOptions,
  startScriptedOpenAIServer,
} from './openai-server/scripted-openai-server';
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
// The store contract suite (stores' block).
export { runSharedDatabaseContract, type SharedDatabase } from './shared-database-contract';
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
export { runStoreContract } from './store-contract';
export { payrollAgent, type ToolRuns, toolRuns } from './store-contract-fixtures';
export type {
  StoreContractContext,
  StoreContractFactory,
  StoreContractOptions,
  StoreUnderTest,
} from './store-contract-harness';
