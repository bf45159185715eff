/**
 * @agent-continuations/testing: deterministic scripted models, the adapter conformance suite and
 * the store contract suite. The suites need `vitest`; everything that runs without a test runner
 * is also exported by `@agent-continuations/testing/runtime`, which loads none.
 */

export {
  type CheckpointLogFactory,
  type CheckpointLogUnderTest,
  type EncryptedCheckpointLogFactory,
  runCheckpointLogContract,
  runEncryptedCheckpointLogContract,
} from './checkpoint-contract';
export { runConformanceSuite } from './conformance';
export { setupScriptedOpenAIServer } from './openai-server/setup-scripted-openai-server';
export * from './runtime';
export { type RuntimeSuiteFactory, type RuntimeUnderTest, runRuntimeSuite } from './runtime-suite';
// The store contract suite (stores' block).
export { runSharedDatabaseContract, type SharedDatabase } from './shared-database-contract';
export { runStoreContract } from './store-contract';
export { payrollAgent, type ToolRuns, toolRuns } from './store-contract-fixtures';
export type {
  StoreContractContext,
  StoreContractFactory,
  StoreContractOptions,
  StoreUnderTest,
} from './store-contract-harness';
