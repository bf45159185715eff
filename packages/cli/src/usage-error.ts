/**
 * A mistake in how the command line was called (an unknown option, a bad store URL, a missing
 * agents module): exit code 2, as opposed to a refusal of the library's own (exit code 1).
 *
 * @example
 * ```ts
 * if (!file) throw new UsageError('approve needs --agents FILE.');
 * ```
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * True when `error` is a {@link UsageError}.
 *
 * @example
 * ```ts
 * const code = isUsageError(error) ? 2 : 1;
 * ```
 */
export function isUsageError(error: unknown): error is UsageError {
  return error instanceof UsageError;
}
