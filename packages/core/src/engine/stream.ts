/**
 * Streaming a run: an async iterable of events that ends with the run's result.
 */
import type { JsonValue } from '../format/json';
import type { ToolCallPart } from '../format/messages';
import type { ModelResponse, ModelStreamEvent } from './model';
import type { RunEvent, RunResult } from './protocol';
import { queuedRun } from './push-queue';

/**
 * What a streamed run yields. The last event is always `result` (or the iteration throws).
 * Events of sub-agents carry `path`: the tool-call ids from the root down to the sub-agent.
 */
export type AgentStreamEvent<Output = string> = (
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string }
  | { type: 'tool-call'; toolCall: ToolCallPart }
  | {
      type: 'tool-result';
      toolCallId: string;
      toolName: string;
      output: JsonValue;
      isError: boolean;
      /** True when the call did not run because a human rejected it. */
      rejected?: boolean;
    }
  | { type: 'step'; step: number }
  | { type: 'result'; result: RunResult<Output> }
) & { path?: string[] };

/** A streamed run: iterate it for events, or await `result`. */
export interface AgentStream<Output = string> extends AsyncIterable<AgentStreamEvent<Output>> {
  readonly result: Promise<RunResult<Output>>;
}

interface Sink {
  event(event: RunEvent): void;
  model(events: AsyncIterable<ModelStreamEvent>): Promise<ModelResponse>;
  /** A streamed sub-agent's event, already tagged with its path. */
  forward(event: AgentStreamEvent<unknown>): void;
}

/**
 * The stream event a run event shows as (a model call as a `step`, a tool result as itself), tagged
 * with `path` when given; other run events are not streamed.
 */
export function streamEventOf(event: RunEvent, path?: string[]): AgentStreamEvent<never> | undefined {
  const at = path ? { path } : {};
  if (event.type === 'model-call') return { type: 'step', step: event.step, ...at };
  if (event.type !== 'tool-result') return undefined;
  return {
    type: 'tool-result',
    toolCallId: event.toolCallId,
    toolName: event.toolName,
    output: event.output,
    isError: event.isError,
    ...(event.rejected ? { rejected: true } : {}),
    ...at,
  };
}

/** Run `work` with a sink that turns engine events into stream events, through the one push queue. */
export function createStream<Output>(work: (sink: Sink) => Promise<RunResult<Output>>): AgentStream<Output> {
  return queuedRun<AgentStreamEvent<Output>, RunResult<Output>>(
    (push) =>
      work({
        event(event) {
          const shown = streamEventOf(event, event.path);
          if (shown) push(shown);
        },
        forward(event) {
          if (event.type !== 'result') push(event as AgentStreamEvent<Output>);
        },
        async model(events) {
          for await (const event of events) {
            if (event.type === 'finish') return event.response;
            push(event);
          }
          throw new Error('The model stream ended without a finish event.');
        },
      }),
    (result) => ({ type: 'result', result }),
  );
}
