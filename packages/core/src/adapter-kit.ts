/**
 * @agent-continuations/core/adapter-kit: what only authors of adapters need. Agent authors use the
 * package root; an adapter imports from both. The agent shell holds every framework-neutral rule
 * (step limit, drift, resume preamble, `onReject: 'end'`, seal and verify, stream dispatch,
 * decision checks); an adapter drives its framework for one segment and maps its messages and tools.
 *
 * @example
 * ```ts
 * import type { Continuation } from '@agent-continuations/core';
 * import { createAgentShell, newContinuation, queuedRun } from '@agent-continuations/core/adapter-kit';
 * ```
 */
export {
  type AgentShell,
  type AgentShellConfig,
  createAgentShell,
  type OpenedResume,
} from './agent-shell';
export { type DecisionsByCall, decisionsByCall } from './children';
export { applyDeadlines } from './deadlines';
export { auditEntries } from './decisions';
export { raiseFrom } from './errors';
export { diffFingerprints, fingerprintAgent } from './fingerprint';
export { inputMessages, toolCallIdsIn, uniqueToolCallIds } from './messages';
export { type ContinuationParts, newContinuation, type RunFacts } from './new-continuation';
export { toPredicates } from './predicates';
export { type QueuedRun, queuedRun } from './push-queue';
export { checkResumable, type ResumingAgent } from './resumable';
export type { RunState } from './run-state';
export { streamEventOf } from './stream';
export { rejectionMessage, STREAMS_RUNS } from './turn';
