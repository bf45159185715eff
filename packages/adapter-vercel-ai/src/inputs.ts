/**
 * Checks and conversions of what a continuable AI SDK agent is given: its tools, its inputs (the
 * SDK's call parameters among them), and its instructions as the fingerprint reads them.
 */
import { ContinuationError } from '@agent-continuations/core';
import type { AnySettings } from './compat';
import { toNeutralMessages } from './messages';
import type { SdkCallParameters, VercelAgentInput } from './types';

/** The SDK's `{ prompt }` / `{ messages }` parameters, as opposed to this adapter's inputs. */
export function isSdkParameters(input: unknown): input is SdkCallParameters {
  return (
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    !('continuation' in input) &&
    ('prompt' in input || 'messages' in input)
  );
}

export function checkTools(settings: AnySettings): void {
  for (const [name, tool] of Object.entries(settings.tools ?? {})) {
    if (typeof tool !== 'object' || tool === null || !('inputSchema' in tool)) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `Tool "${name}" is not an AI SDK tool (it has no inputSchema).`,
      );
    }
  }
}

export function withoutUndefined(values: AnySettings): AnySettings {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

export function toNeutralInput(input: VercelAgentInput) {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'A run takes a prompt string or an array of AI SDK messages.',
    );
  }
  checkNotApprovals(input);
  return toNeutralMessages(input);
}

/** Refuse the messages useChat posts back with approval responses: they belong to a suspended run. */
export function checkNotApprovals(input: VercelAgentInput): void {
  if (!Array.isArray(input)) return;
  const last = input[input.length - 1];
  if (
    last?.role === 'tool' &&
    last.content.some((part) => (part as { type: string }).type === 'tool-approval-response')
  ) {
    // What useChat posts back after addToolApprovalResponse: the decisions belong to a suspended
    // run, whose continuation the conversation does not hold.
    throw new ContinuationError(
      'INVALID_OPERATION',
      'These messages end with approval responses for a suspended run: a new run cannot take them. Bind the agent to the chat, whose suspension is found in the store and resumed: chatAgent(runtime, agent, { chat: id }) in createAgentUIStreamResponse, or chatRoute(runtime, { agent }) as the route.',
    );
  }
}

/**
 * The instructions as text, for the agent's fingerprint. The SDK receives them in their own form
 * (string, or system messages with provider options) from the model port.
 */
export function fingerprintInstructions(instructions: unknown): { instructions?: string } {
  if (instructions === undefined) return {};
  if (typeof instructions === 'string') return { instructions };
  const list = Array.isArray(instructions) ? instructions : [instructions];
  return {
    instructions: list.map((message: { content?: unknown }) => String(message.content ?? '')).join('\n'),
  };
}
