/**
 * Narrowing a run's result in a test: the result when it has the status the test expects, a
 * thrown error naming the status it had otherwise.
 */
import type { CompletedResult, RunResult, SuspendedResult } from '@agent-continuations/core';

/**
 * `result` as a suspension; throws, with the status and the start of the result, otherwise.
 *
 * @example
 * ```ts
 * const { continuation, actions } = suspended(await agent.run('Pay bob 50'));
 * ```
 */
export function suspended<O>(result: RunResult<O>): SuspendedResult {
  if (result.status !== 'suspended')
    throw new Error(
      `Expected a suspended run, got ${result.status}: ${JSON.stringify(result).slice(0, 400)}`,
    );
  return result;
}

/**
 * `result` as a completed run; throws, with the status it had, otherwise.
 *
 * @example
 * ```ts
 * expect(completed(await agent.resume(continuation, decisions)).output).toContain('paid');
 * ```
 */
export function completed<O>(result: RunResult<O>): CompletedResult<O> {
  if (result.status !== 'completed') throw new Error(`Expected a completed run, got ${result.status}`);
  return result;
}
