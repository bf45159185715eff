/**
 * The checks every adapter makes before resuming, so the rules of a handoff are the same
 * everywhere: the agent's name must match; fingerprints are compared within one framework only;
 * every pending call needs a tool of its name; a run that ended cannot resume.
 */
import { ContinuationError } from '../errors';
import type { AgentRef, Continuation, PendingEntry } from '../format/format';
import { toolCallsOf } from '../format/messages';
import { diffFingerprints } from './fingerprint';

/** How {@link checkResumable} sees the resuming agent. */
export interface ResumingAgent {
  /** Name, framework and current fingerprint of the agent that resumes. */
  agent: AgentRef;
  /** Whether the agent can settle this pending entry (has a tool of its name, or another way). */
  canSettle(entry: PendingEntry): boolean;
}

/**
 * Refuse, before anything runs, a continuation the agent cannot resume: `AGENT_MISMATCH`,
 * `AGENT_CHANGED` (unless `allowChangedAgent`), `UNKNOWN_TOOL` or `NOT_RESUMABLE`.
 *
 * @example
 * ```ts
 * await checkResumable(continuation, {
 *   agent: { name: 'bank', framework: 'my-adapter', fingerprint: await fingerprintAgent(definition) },
 *   canSettle: (entry) => tools.has(entry.toolName),
 * }, options);
 * ```
 */
export function checkResumable(
  continuation: Continuation,
  resuming: ResumingAgent,
  options: { allowChangedAgent?: boolean } = {},
): void {
  const { name, framework, fingerprint: current } = resuming.agent;
  if (continuation.agent.name !== name) {
    throw new ContinuationError(
      'AGENT_MISMATCH',
      `This continuation belongs to agent "${continuation.agent.name}", not "${name}".`,
    );
  }
  const saved = continuation.agent.fingerprint;
  // Each framework hashes what it can see, so fingerprints only compare within one framework.
  if (
    saved &&
    current &&
    continuation.agent.framework === framework &&
    saved !== current &&
    !options.allowChangedAgent
  ) {
    const changes = diffFingerprints(saved, current);
    throw new ContinuationError(
      'AGENT_CHANGED',
      `Agent "${name}" changed since this continuation was made: ${changes.join('; ')}. Pass allowChangedAgent to resume anyway.`,
      { details: changes },
    );
  }
  for (const entry of continuation.pending) {
    if (!resuming.canSettle(entry)) {
      throw new ContinuationError(
        'UNKNOWN_TOOL',
        `Agent "${name}" has no tool "${entry.toolName}", which the continuation waits on.`,
        { details: { toolName: entry.toolName } },
      );
    }
  }
  const last = continuation.messages[continuation.messages.length - 1];
  if (
    continuation.pending.length === 0 &&
    continuation.suspendedBy.type === 'actions' &&
    toolCallsOf(last).length === 0
  ) {
    throw new ContinuationError(
      'NOT_RESUMABLE',
      'This continuation waits for nothing: its run already ended.',
    );
  }
}
