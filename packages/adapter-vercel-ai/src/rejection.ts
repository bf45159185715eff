/**
 * Rejected calls in continuations written before the core marked rejections. The core now marks
 * the result of a call a human rejected (`rejected: true`, read with its `isRejected`), and the
 * adapter sends such a result in the SDK's denial form (`execution-denied`). Older continuations
 * carry only the core's rejection text on an error result, so for them the text is the sign. Once
 * no stored continuation predates the mark, this module can go.
 */
import { isRejected, type ToolResultPart } from '@agent-continuations/core';
import { rejectionMessage } from '@agent-continuations/core/adapter-kit';

const PREFIX = 'A human rejected this tool call: ';
const SUFFIX = ' Do not retry it unchanged.';

/**
 * True for an unmarked error result whose output is exactly the core's rejection text (with or
 * without a reason): a rejection written before the core marked them.
 *
 * @example
 * ```ts
 * const part = { type: 'tool-result', toolCallId: 'c1', toolName: 'pay', output: rejectionMessage('no'), isError: true } as const;
 * isUnmarkedRejection(part);                     // true
 * isUnmarkedRejection({ ...part, rejected: true }); // false: marked, read with isRejected
 * ```
 */
export function isUnmarkedRejection(part: ToolResultPart): boolean {
  if (isRejected(part) || part.isError !== true) return false;
  const { output } = part;
  if (typeof output !== 'string') return false;
  if (output === rejectionMessage()) return true;
  if (!output.startsWith(PREFIX) || !output.endsWith(SUFFIX)) return false;
  const reason = output.slice(PREFIX.length, output.length - SUFFIX.length);
  // The core adds a full stop to a reason without one.
  return rejectionMessage(reason) === output || rejectionMessage(reason.replace(/\.$/, '')) === output;
}
