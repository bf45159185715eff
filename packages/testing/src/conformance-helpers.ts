/**
 * Assertions shared by the conformance scenarios.
 */
import {
  type Continuation,
  isContinuationError,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { expect } from 'vitest';
import type { ConformanceHarness } from './conformance-harness';

/**
 * True when the harness declared the feature unsupported. Given the test's context, it skips the
 * test visibly (with the harness's reason) instead of returning true.
 */
export type Skip = (
  feature: keyof NonNullable<ConformanceHarness['unsupported']>,
  context?: { skip(condition: boolean, note?: string): void },
) => boolean;

export { completed, suspended } from './results';

/** Simulate a process boundary: the continuation goes through JSON text and back. */
export function throughText(continuation: Continuation): Continuation {
  return parseContinuation(JSON.parse(JSON.stringify(serializeContinuation(continuation))) as string);
}

export async function rejects(promise: Promise<unknown>, code: Parameters<typeof isContinuationError>[1]) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isContinuationError(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
}
