/**
 * Transcripts in a comparable neutral form: what a model was sent, with the wire's incidental
 * differences removed (string versus text-part content, empty text, provider extras).
 */
import type { JsonValue, Message } from '@agent-continuations/core';

/** A message reduced to what the model reads. */
export interface PlainMessage {
  role: Message['role'];
  content: Array<Record<string, JsonValue>>;
}

/** Reduce `messages` to what a model reads, merging consecutive tool messages into one turn's results. */
export function plainTranscript(messages: readonly Message[]): PlainMessage[] {
  const result: PlainMessage[] = [];
  for (const message of messages) {
    const parts =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const content = parts
      .filter((part) => !(part.type === 'text' && part.text === ''))
      .map((part) => {
        const { providerMetadata: _, ...rest } = part as typeof part & { providerMetadata?: unknown };
        return rest as Record<string, JsonValue>;
      });
    const previous = result[result.length - 1];
    if (message.role === 'tool' && previous?.role === 'tool') previous.content.push(...content);
    else result.push({ role: message.role, content });
  }
  return result;
}
