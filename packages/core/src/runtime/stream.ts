/**
 * A durable stream: a stored continuation resumed under a claim with a checkpoint at every step,
 * whose events are streamed to the caller as they happen.
 */
import type { CheckpointLog } from '../durable/checkpoint';
import { type ResumeStoredOptions, resumeStored, type StoredDecisions } from '../durable/resume-stored';
import { ContinuationError } from '../errors';
import { parseContinuation } from '../format/codec';
import type { ContinuationStore } from '../stores/store';
import type { RuntimeAgent, RuntimeStream } from './seal';

/**
 * Resume `id` as `resumeStored` does with `log`, running the agent's `stream` for the resume: the
 * returned stream carries its events, and its `result` settles once the store and the log agree.
 * When the log shows an earlier resume of the record under way (its worker died), the stream
 * carries the first segment that runs; one that has nothing left to run yields only its result.
 */
export async function streamLogged(
  store: ContinuationStore,
  agent: RuntimeAgent,
  log: CheckpointLog,
  id: string,
  decisions: StoredDecisions,
  options: ResumeStoredOptions,
): Promise<RuntimeStream<unknown>> {
  const stream = agent.stream?.bind(agent);
  if (!stream) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `Agent "${agent.name}" cannot stream: it has no stream().`,
    );
  }
  let handOut: (run: RuntimeStream<unknown>) => void = () => {};
  const first = new Promise<RuntimeStream<unknown>>((resolve) => {
    handOut = resolve;
  });
  const viaStream: RuntimeAgent = {
    ...agent,
    resume: (continuation, resumeDecisions, runOptions) => {
      const run = stream(
        {
          continuation: typeof continuation === 'string' ? parseContinuation(continuation) : continuation,
          ...(resumeDecisions ? { decisions: resumeDecisions } : {}),
        },
        runOptions,
      );
      handOut(run);
      return run.result;
    },
  };
  const result = resumeStored(store, viaStream, id, decisions, { ...options, log });
  // The iterator reports a failure; an unobserved `result` must not crash the process.
  result.catch(() => {});
  const run = await Promise.race([first, result.then(() => undefined)]);
  if (!run) {
    const settled = await result;
    return {
      result,
      async *[Symbol.asyncIterator]() {
        yield { type: 'result', result: settled };
      },
    };
  }
  return { result, [Symbol.asyncIterator]: () => run[Symbol.asyncIterator]() };
}
