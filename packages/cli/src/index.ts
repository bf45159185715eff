/**
 * @agent-continuations/cli: the `agent-continuations` command line, and the same as functions.
 */
export { type AgentsModule, loadAgents } from './agents-module';
export { type CliIo, EXIT, runCli } from './run-cli';
export { type OpenStore, openStore, parseStoreUrl, redact, type StoreTarget } from './store-url';
export { pendingTree, type TreeEntry, type TreeNode, treeLines } from './tree';
export { isUsageError, UsageError } from './usage-error';
