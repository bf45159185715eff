/**
 * The runtime's seal, put around an agent: every continuation the agent emits (its suspensions,
 * their `suspend` events that checkpoint logs and stores record, and the state a failure carries)
 * leaves sealed, and every continuation it resumes from outside the process (a store's record
 * included) is verified first, before anything runs.
 */

import type { ContinuableAgent, Decisions, RunEvent, RunOptions, RunResult } from '../engine/protocol';
import type { AgentStreamEvent } from '../engine/stream';
import { isContinuationError } from '../errors';
import { parseContinuation } from '../format/codec';
import type { Continuation } from '../format/format';
import { type SealConfig, sealContinuation, verifySeal } from '../trust/seal';
import { isTrusted } from '../trust/trust';

/**
 * A streamed run as an agent returns it: the agent's own events (the core's `AgentStreamEvent`s
 * from the core, AI SDK and OpenAI adapters; LangGraph's chunks from a graph), and its result.
 */
export interface RuntimeStream<Event = AgentStreamEvent<unknown>> extends AsyncIterable<Event> {
  readonly result: Promise<RunResult<unknown>>;
}

/**
 * An agent as the runtime holds it: the protocol, and a stream when the agent has one. Every
 * adapter's agent is one as it is (the runtime streams resumes only, so `stream` is asked for no
 * more than a text or a continuation with its decisions).
 *
 * @example
 * ```ts
 * const runtime = createRuntime({ agents: [fromGraph(graph, { name: 'ops' }), continuable(agent)], store });
 * ```
 */
export type RuntimeAgent = ContinuableAgent<any, unknown> & {
  stream?(
    input: string | { continuation: Continuation; decisions?: Decisions },
    options?: RunOptions,
  ): RuntimeStream<unknown>;
};

/** `agent`, sealing what it emits and verifying what it resumes with `seal`. */
export function sealedAgent<A extends RuntimeAgent>(agent: A, seal: SealConfig): A {
  const seals = {
    async result(result: RunResult<unknown>): Promise<RunResult<unknown>> {
      if (result.status !== 'suspended') return result;
      return { ...result, continuation: await sealContinuation(result.continuation, seal) };
    },
    async failure(error: unknown): Promise<never> {
      if (isContinuationError(error) && error.continuation && !error.continuation.seal) {
        const continuation = await sealContinuation(error.continuation, seal);
        Object.defineProperty(error, 'continuation', { value: continuation, enumerable: true });
      }
      throw error;
    },
    options(options: RunOptions = {}): RunOptions {
      const observe = options.onEvent;
      return {
        ...options,
        onEvent: async (event: RunEvent) => {
          // What a log records and a store saves is what the caller gets: sealed.
          const seen =
            event.type === 'suspend'
              ? { ...event, continuation: await sealContinuation(event.continuation, seal) }
              : event;
          await observe?.(seen);
        },
      };
    },
  };
  const opened = async (input: Continuation | string): Promise<Continuation> => {
    const continuation = typeof input === 'string' ? parseContinuation(input) : input;
    if (!isTrusted(continuation)) await verifySeal(continuation, seal);
    return continuation;
  };
  const wrapped: RuntimeAgent = {
    ...agent,
    run: (input, options) => agent.run(input, seals.options(options)).then(seals.result, seals.failure),
    resume: async (input, decisions, options) => {
      const continuation = await opened(input);
      return agent.resume(continuation, decisions, seals.options(options)).then(seals.result, seals.failure);
    },
    checkDecisions: async (continuation, decisions, options) => {
      await opened(continuation);
      await agent.checkDecisions?.(continuation, decisions, options);
    },
  };
  const stream = agent.stream?.bind(agent);
  if (stream) {
    wrapped.stream = (input, options) => {
      const started = (async () => {
        if (typeof input === 'object' && !Array.isArray(input)) await opened(input.continuation);
        return stream(input, seals.options(options));
      })();
      const result = started.then((run) => run.result).then(seals.result, seals.failure);
      result.catch(() => {});
      return {
        result,
        async *[Symbol.asyncIterator](): AsyncIterator<unknown> {
          for await (const event of await started)
            yield isResultEvent(event) ? { ...event, result: await seals.result(event.result) } : event;
        },
      };
    };
  }
  return wrapped as A;
}

/** The core's closing `result` event (a framework's native chunk is passed on as it is). */
function isResultEvent(event: unknown): event is Extract<AgentStreamEvent<unknown>, { type: 'result' }> {
  return typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'result';
}
