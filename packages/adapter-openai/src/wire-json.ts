/**
 * JSON text on the OpenAI wire (tool-call arguments, tool outputs) to neutral values and back,
 * without loss: text that a plain `JSON.stringify` would not reproduce is kept verbatim in
 * `providerMetadata.openai.raw`.
 */
import type { JsonObject, JsonValue } from '@agent-continuations/core';

/** Provider metadata of this adapter, under the `openai` key. */
export type OpenAIMetadata = { [key: string]: JsonValue | undefined };

/** The `openai` entry of a part's or message's provider metadata. */
export function openaiMeta(providerMetadata: JsonObject | undefined): OpenAIMetadata {
  const value = providerMetadata?.openai;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as OpenAIMetadata) : {};
}

/** `{ providerMetadata: { openai: meta } }`, or nothing when `meta` has no defined entry. */
export function withMeta(meta: OpenAIMetadata): { providerMetadata?: JsonObject } {
  const entries = Object.entries(meta).filter(
    ([, value]) => value !== undefined && !isEmptyObject(value),
  ) as [string, JsonValue][];
  return entries.length > 0 ? { providerMetadata: { openai: Object.fromEntries(entries) } } : {};
}

/**
 * Wire JSON text to a value. Text that is not JSON (a model's malformed arguments) stays a string,
 * so the tool's validation turns it into an error result for the model. `raw` is set when the
 * value would not print back as the same text.
 */
export function parseWireJson(text: string, keepStrings: boolean): { value: JsonValue; raw?: string } {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    // Kept verbatim either way; as arguments it must also print back verbatim.
    return keepStrings ? { value: text } : { value: text, raw: text };
  }
  // A tool's plain-text output stays text; only structured output is parsed.
  if (keepStrings && typeof value === 'string') return { value: text };
  return JSON.stringify(value) === text ? { value } : { value, raw: text };
}

/** A value back to wire text: the recorded raw text if any, strings as they are when asked, JSON otherwise. */
export function printWireJson(value: JsonValue, raw: JsonValue | undefined, keepStrings: boolean): string {
  if (typeof raw === 'string') return raw;
  if (keepStrings && typeof value === 'string') return value;
  return JSON.stringify(value);
}

function isEmptyObject(value: JsonValue | undefined): boolean {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

/** The media type of a `data:` URL. */
export function mediaTypeOf(url: string): { mediaType?: string } {
  const match = /^data:([^;,]+)[;,]/.exec(url);
  return match ? { mediaType: match[1]! } : {};
}
