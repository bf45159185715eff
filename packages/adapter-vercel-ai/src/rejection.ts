/**
 * Recognising a rejected call in the transcript. The engine records a rejection as an error
 * result holding the core's `rejectionMessage(reason)`; the AI SDK tells its model about a denied
 * call with an `execution-denied` output, so the adapter sends a rejection in that form.
 */
import type { JsonValue } from '@agent-continuations/core';
import { rejectionMessage } from '@agent-continuations/core/adapter-kit';

const PREFIX = 'A human rejected this tool call: ';
const SUFFIX = ' Do not retry it unchanged.';

/**
 * True when a tool result's output is the core's rejection text (with or without a reason).
 *
 * @example
 * ```ts
 * isRejection(rejectionMessage('not today')); // true
 * isRejection('lookup failed');               // false
 * ```
 */
export function isRejection(output: JsonValue): boolean {
  if (typeof output !== 'string') return false;
  if (output === rejectionMessage()) return true;
  if (!output.startsWith(PREFIX) || !output.endsWith(SUFFIX)) return false;
  const reason = output.slice(PREFIX.length, output.length - SUFFIX.length);
  // The core adds a full stop to a reason without one.
  return rejectionMessage(reason) === output || rejectionMessage(reason.replace(/\.$/, '')) === output;
}
