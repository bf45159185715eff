/**
 * A deterministic stand-in for a real model, built on the AI SDK's own mock language model. Each
 * agent's "model" decides its next step from the conversation alone, so a resumed run in a new
 * process makes the same choices. Swap in `openai('gpt-4.1')` or any provider for the real thing.
 */
import { MockLanguageModelV3 } from 'ai/test';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type Result = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Prompt = CallOptions['prompt'];

/** What a scripted step says: plain text, or one tool call. */
export type Step = { text: string } | { tool: string; input: unknown };

/** A mock model whose reply is a function of the prompt; `id` makes unique tool-call ids per step. */
export function mockModel(name: string, decide: (prompt: Prompt) => Step): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    modelId: name,
    doGenerate: async ({ prompt }) => {
      const step = decide(prompt);
      const turn = prompt.filter((message) => message.role === 'assistant').length + 1;
      const content: Result['content'] =
        'text' in step
          ? [{ type: 'text', text: step.text }]
          : [
              {
                type: 'tool-call',
                toolCallId: `${name}_${turn}`,
                toolName: step.tool,
                input: JSON.stringify(step.input),
              },
            ];
      return {
        content,
        finishReason: { unified: 'text' in step ? 'stop' : 'tool-calls', raw: undefined },
        usage: {
          inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 30, text: 30, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

/** The outputs of the tool results in the prompt, by tool name (the last one wins). */
export function toolOutputs(prompt: Prompt): Map<string, unknown> {
  const outputs = new Map<string, unknown>();
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result')
        outputs.set(part.toolName, 'value' in part.output ? part.output.value : part.output);
    }
  }
  return outputs;
}

/** The text of the first user message. */
export function task(prompt: Prompt): string {
  const user = prompt.find((message) => message.role === 'user');
  return user?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
}
