/** An error as a worker reports it: its code when it is a `ContinuationError`, and its message. */
import { isContinuationError } from '@agent-continuations/core';

export interface RunError {
  code?: string;
  message: string;
}

export function runError(error: unknown): RunError {
  return {
    ...(isContinuationError(error) ? { code: error.code } : {}),
    message: error instanceof Error ? error.message : String(error),
  };
}
