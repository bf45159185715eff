/**
 * Recognising a rejected call in the transcript. The engine records a rejection as an error
 * result holding the core's `rejectionMessage(reason)`; the AI SDK tells its model with an
 * `execution-denied` output and the human's reason, so the adapter turns one into the other.
 */
import { type JsonValue, rejectionMessage } from '@agent-continuations/core';

const PREFIX = 'A human rejected this tool call: ';
const SUFFIX = ' Do not retry it unchanged.';

/**
 * The human's reason of a rejected call's result: `null` for a rejection without a reason,
 * `undefined` when the output is not a rejection.
 *
 * @example
 * ```ts
 * rejectionReason(rejectionMessage('not today')); // 'not today'
 * rejectionReason('lookup failed');               // undefined
 * ```
 */
export function rejectionReason(output: JsonValue): string | null | undefined {
  if (typeof output !== 'string') return undefined;
  if (output === rejectionMessage()) return null;
  if (!output.startsWith(PREFIX) || !output.endsWith(SUFFIX)) return undefined;
  const reason = output.slice(PREFIX.length, output.length - SUFFIX.length);
  // The core adds a full stop to a reason without one; take it off when it added it.
  const bare = reason.endsWith('.') ? reason.slice(0, -1) : reason;
  if (rejectionMessage(bare) === output && !/[.!?]$/.test(bare)) return bare;
  return rejectionMessage(reason) === output ? reason : undefined;
}
