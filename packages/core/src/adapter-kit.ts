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
} from './engine/agent-shell';
export { type DecisionsByCall, decisionsByCall } from './engine/children';
export { auditEntries } from './engine/decisions';
export { diffFingerprints, fingerprintAgent } from './engine/fingerprint';
export { type ContinuationParts, newContinuation, type RunFacts } from './engine/new-continuation';
export { toPredicates } from './engine/predicates';
export { type QueuedRun, queuedRun } from './engine/push-queue';
export { checkResumable, type ResumingAgent } from './engine/resumable';
export type { RunState } from './engine/run-state';
export { streamEventOf } from './engine/stream';
export { rejectionMessage, STREAMS_RUNS } from './engine/turn';
export { raiseFrom } from './errors';
export { inputMessages, markRejections, toolCallIdsIn, uniqueToolCallIds } from './format/messages';
export { applyDeadlines } from './people/deadlines';
