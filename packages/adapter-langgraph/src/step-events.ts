/**
 * Run events while a graph runs: after each step, a model-call event for a new assistant message
 * and a tool-result event for each new tool result, each with a checkpoint to resume from.
 */
import { addUsage, type RunOptions } from '@agent-continuations/core';
import { newContinuation, type RunState } from '@agent-continuations/core/adapter-kit';
import { neutralMessages } from './messages';
import type { ModelCallCounter } from './step-control';

/**
 * Turns the state after each step into run events: a new assistant message is a model call, new
 * tool messages are tool results. Each event's checkpoint resumes from that step (from the neutral
 * messages: LangGraph's own checkpoint of a step in flight is not final).
 */
export function stepObserver(
  context: RunState,
  counter: ModelCallCounter,
  messagesKey: string,
  onEvent: NonNullable<RunOptions['onEvent']>,
): (values: Record<string, unknown>) => Promise<void> {
  let seen: number | undefined;
  return async (values) => {
    const messages = neutralMessages(values, messagesKey);
    const from = seen ?? messages.length;
    seen = messages.length;
    const step = context.step + counter.calls;
    const usage = addUsage(context.usage, counter.usage);
    const checkpoint = () =>
      newContinuation(context, {
        messages,
        pending: [],
        done: [],
        step,
        usage,
        suspendedBy: { type: 'checkpoint' },
      });
    for (const message of messages.slice(from)) {
      if (message.role === 'assistant') {
        await onEvent({ type: 'model-call', runId: context.runId, step, message, usage, checkpoint });
      } else if (message.role === 'tool') {
        for (const part of message.content) {
          await onEvent({
            type: 'tool-result',
            runId: context.runId,
            step,
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            output: part.output,
            isError: part.isError === true,
            checkpoint,
          });
        }
      }
    }
  };
}
