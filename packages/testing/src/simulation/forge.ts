/**
 * Forged continuations: a sealed continuation altered the way an attacker would, and the check
 * that a sealed agent refuses it with a seal error and runs nothing.
 */
import { type Continuation, type Decisions, isContinuationError } from '@agent-continuations/core';
import type { Outcome, SequenceContext } from './context';
import type { Random } from './random';
import { describe } from './run-helpers';

const FORGERY_CODES = new Set(['SEAL_MISMATCH', 'SEAL_MISSING', 'INVALID_CONTINUATION']);

/** Alter a sealed continuation the way an attacker would; undefined when there is nothing to alter. */
export function forge(
  original: Continuation,
  random: Random,
): { continuation: Continuation; decisions: Decisions; how: string } | undefined {
  const continuation = JSON.parse(JSON.stringify(original)) as Continuation;
  let level = continuation;
  const path: string[] = [];
  for (;;) {
    const nested = level.pending.find((entry) => entry.kind === 'agent');
    if (!nested || random.chance(0.4)) break;
    path.push(nested.toolCallId);
    level = (nested as { child: Continuation }).child;
  }
  const target = level.pending.find((entry) => entry.kind === 'approval');
  const how = random.pick(['approve', 'args', 'done', 'strip', 'metadata'] as const);
  if (how === 'strip' || !target) {
    delete continuation.seal;
    return { continuation, decisions: {}, how: 'strip the seal' };
  }
  if (how === 'metadata') {
    continuation.metadata = { ...continuation.metadata, tenant: 'mallory' };
    return { continuation, decisions: {}, how: 'change the metadata' };
  }
  const id = [...path, target.toolCallId].join('/');
  if (how === 'approve') {
    (target as { approved?: boolean }).approved = true;
    return { continuation, decisions: {}, how: `approve ${id}` };
  }
  if (how === 'args') {
    target.args = { n: `${(target.args as { n: string }).n}!forged` };
    return { continuation, decisions: { [id]: { type: 'approve' } }, how: `change the arguments of ${id}` };
  }
  level.done.push({ toolCallId: `${target.toolCallId}x`, toolName: target.toolName, output: 'forged' });
  return { continuation, decisions: { [id]: { type: 'approve' } }, how: `add a done result beside ${id}` };
}

/** A forged continuation must be refused with a seal error, having run nothing since `before`. */
export function checkForgedRefused(
  sequence: SequenceContext,
  outcome: Outcome<unknown>,
  before: number,
): void {
  if ('crashed' in outcome) return;
  const ran = sequence.ledger.executions.length - before;
  if (ran > 0) sequence.violation(`a forged continuation ran ${ran} tool call(s) though the agent is sealed`);
  if ('value' in outcome) sequence.violation('a forged continuation was resumed though the agent is sealed');
  else if (!isContinuationError(outcome.error) || !FORGERY_CODES.has(outcome.error.code)) {
    sequence.violation(`a forged continuation failed with ${describe(outcome.error)}, not a seal error`);
  }
}
