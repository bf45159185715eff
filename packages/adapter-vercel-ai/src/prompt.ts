/**
 * The prompt of one model step: the engine's transcript in the SDK's message form, each message
 * converted once, with tool results as the tool's `toModelOutput` makes them and rejected calls
 * in the SDK's denial form.
 */
import type { Message } from '@agent-continuations/core';
import type { ModelMessage, Tool } from 'ai';
import { AI_SDK_KEY, toModelMessage } from './messages';
import { isUnmarkedRejection } from './rejection';

/**
 * The prompt for one step. Results the engine recorded carry the tool's return value; like the
 * SDK, send the model what the tool's `toModelOutput` makes of it. A call a human rejected goes
 * in the SDK's own denial form, `execution-denied` with the human's reason.
 */
export async function promptMessages(
  messages: readonly Message[],
  tools: Record<string, Tool>,
): Promise<ModelMessage[]> {
  const converted = promptOf(messages);
  if (!Object.values(tools).some((tool) => tool.toModelOutput)) return converted;
  const inputs = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool-call') inputs.set(part.toolCallId, part.args);
  }
  return Promise.all(
    converted.map(async (message, index) => {
      const neutral = messages[index]!;
      if (message.role !== 'tool' || neutral.role !== 'tool') return message;
      const content = await Promise.all(
        message.content.map(async (part) => {
          if (part.type !== 'tool-result') return part;
          const source = neutral.content.find((result) => result.toolCallId === part.toolCallId);
          const toModelOutput = tools[part.toolName]?.toModelOutput;
          const ownForm = (source?.providerMetadata?.[AI_SDK_KEY] as { output?: unknown } | undefined)
            ?.output;
          if (!source || !toModelOutput || source.isError || ownForm !== undefined) return part;
          if (part.output.type === 'execution-denied') return part;
          const output = await toModelOutput({
            toolCallId: part.toolCallId,
            input: inputs.get(part.toolCallId),
            output: source.output,
          });
          return { ...part, output };
        }),
      );
      return { ...message, content };
    }),
  );
}

/**
 * Each message of a transcript as the SDK's, converted once: the engine adds to a run's
 * transcript and never changes a message in it, and each step sends the whole transcript.
 */
const promptForms = new WeakMap<Message, ModelMessage>();

/** A transcript's SDK form so far, by the transcript: a step converts only the messages added since. */
const transcriptForms = new WeakMap<readonly Message[], { sources: Message[]; converted: ModelMessage[] }>();

function promptOf(messages: readonly Message[]): ModelMessage[] {
  let known = transcriptForms.get(messages);
  if (!known) {
    known = { sources: [], converted: [] };
    transcriptForms.set(messages, known);
  }
  const { sources, converted } = known;
  let same = 0;
  const shared = Math.min(sources.length, messages.length);
  while (same < shared && sources[same] === messages[same]) same++;
  sources.length = same;
  converted.length = same;
  for (let index = same; index < messages.length; index++) {
    const message = messages[index]!;
    sources.push(message);
    converted.push(promptMessage(message));
  }
  // A copy: the user's `prepareStep` and the SDK may keep or change the array they are given.
  return converted.slice();
}

function promptMessage(message: Message): ModelMessage {
  let converted = promptForms.get(message);
  if (!converted) {
    converted = deniedForm(message, toModelMessage(message));
    promptForms.set(message, converted);
  }
  return converted;
}

/**
 * Rejected calls' results in the SDK's own denial form, `execution-denied`, for continuations
 * written before the core marked rejections: `toModelMessage` gives a marked one that form, and
 * these are recognised by the core's rejection text. The reason is that whole text, with the
 * human's reason in it: the words every adapter's model reads, so a run handed over between
 * frameworks reads the same.
 */
function deniedForm(neutral: Message, message: ModelMessage): ModelMessage {
  if (message.role !== 'tool' || neutral.role !== 'tool') return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result') return part;
    const source = neutral.content.find((result) => result.toolCallId === part.toolCallId);
    if (!source || !isUnmarkedRejection(source)) return part;
    changed = true;
    return { ...part, output: { type: 'execution-denied' as const, reason: source.output as string } };
  });
  return changed ? { ...message, content } : message;
}
