/**
 * Structured output, as openai-node's `chat.completions.parse()` and `responses.parse()` read it:
 * with a `json_schema` response format (`response_format` for Chat Completions, `text.format` for
 * Responses), the completed run's output is the final text parsed by the format's own parser
 * (`zodResponseFormat`, `zodTextFormat`), or as JSON. The format is agent configuration, sent with
 * every model call, so it holds across suspensions and resumes in any process.
 */
import type { RunResult } from '@agent-continuations/core';
import type { ModelSettings } from './chat-model';

/** The parser of a run's final text, or `undefined` when the settings ask for no structured output. */
export type OutputParser = (text: string) => unknown;

/**
 * The output parser of an agent's model settings.
 *
 * @example
 * ```ts
 * const parse = outputParser('chat', { response_format: zodResponseFormat(Weather, 'weather') });
 * parse?.('{"city":"Oslo","celsius":21}'); // { city: 'Oslo', celsius: 21 }
 * ```
 */
export function outputParser(
  api: 'chat' | 'responses',
  settings: ModelSettings | undefined,
): OutputParser | undefined {
  const format = (
    api === 'chat' ? settings?.response_format : (settings?.text as { format?: unknown } | undefined)?.format
  ) as { type?: unknown; $parseRaw?: unknown } | undefined;
  if (format?.type !== 'json_schema') return undefined;
  if (typeof format.$parseRaw === 'function') return format.$parseRaw as OutputParser;
  return (text) => JSON.parse(text);
}

/**
 * A completed result with its output parsed; other results as they are. A final answer that does
 * not parse throws the parser's own error, as `parse()` does.
 */
export function withParsedOutput<Output>(
  result: RunResult<string>,
  parse: OutputParser | undefined,
): RunResult<Output> {
  if (!parse || result.status !== 'completed') return result as RunResult<Output>;
  return { ...result, output: parse(result.output) as Output };
}
