/**
 * Small helpers of the simulation's operations: streaming an agent when it can, reading a
 * failure's last good state, and one-line descriptions for the operation log.
 */
import {
  type ContinuableAgent,
  type Continuation,
  isContinuationError,
  type RunResult,
  type streamStored,
} from '@agent-continuations/core';

/** The last good state a failure carries, to resume it later. */
export function stateOf(error: unknown): Continuation | undefined {
  if (!isContinuationError(error)) return undefined;
  return (error as { continuation?: Continuation }).continuation;
}

type Streaming = {
  stream(input: unknown, options?: unknown): AsyncIterable<unknown> & { result: Promise<RunResult<any>> };
};

export function hasStream(agent: ContinuableAgent<string, any>): boolean {
  return typeof (agent as Partial<Streaming>).stream === 'function';
}

export function streamOf(agent: ContinuableAgent<string, any>): Streaming['stream'] {
  const streaming = agent as unknown as Streaming;
  return (input, options) => streaming.stream(input, options);
}

export function streamingOf(agent: ContinuableAgent<string, any>): Parameters<typeof streamStored>[1] {
  return agent as unknown as Parameters<typeof streamStored>[1];
}

/** Read a stream to its end, then its result (a failure surfaces through `result`). */
export async function consume<T>(stream: AsyncIterable<unknown> & { result: Promise<T> }): Promise<T> {
  try {
    for await (const _ of stream) {
      // events are not checked here; the result is
    }
  } catch {
    // the same failure rejects `result`
  }
  return stream.result;
}

/** An operation's value, in one line. */
export function summary(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} recovered`;
  const result = value as RunResult<any> | undefined;
  if (!result || typeof result !== 'object' || !('status' in result)) return 'ok';
  if (result.status === 'suspended') {
    return `suspended ${result.continuation.id} waiting for ${result.actions.map((action) => action.id).join(', ') || result.continuation.suspendedBy.type}`;
  }
  return result.status;
}

/** An error, in one line. */
export function describe(error: unknown): string {
  if (isContinuationError(error)) return `${error.code}: ${error.message}`.slice(0, 300);
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300);
  return String(error).slice(0, 300);
}
