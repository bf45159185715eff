/**
 * What rides in `providerMetadata`: the AI SDK's provider options, and under the reserved
 * {@link AI_SDK_KEY} what only the AI SDK knows (parts the neutral format has no place for, the
 * original form of binary data and of tool outputs). Also the data helpers of the conversion.
 */
import type { JsonObject, JsonValue } from '@agent-continuations/core';
import { jsonCopy } from './json-copy';

/**
 * The `providerMetadata` key under which the adapter keeps what only the AI SDK knows.
 *
 * @example
 * ```ts
 * const { [AI_SDK_KEY]: _, ...providerOptions } = part.providerMetadata ?? {};
 * ```
 */
export const AI_SDK_KEY = 'ai-sdk';

/** A part the neutral format has no place for, kept whole with its position in the message. */
export interface KeptPart {
  index: number;
  part: JsonValue;
}

/**
 * Attach provider options, kept parts and part extras as `providerMetadata`; no key at all when
 * there is nothing to keep, so plain messages stay plain.
 */
export function withMeta<T extends object>(
  value: T,
  providerOptions: unknown,
  kept?: KeptPart[],
  extra?: JsonObject,
): T & { providerMetadata?: JsonObject } {
  const meta: JsonObject = providerOptions ? { ...(toJson(providerOptions) as JsonObject) } : {};
  const own: JsonObject = { ...extra };
  if (kept && kept.length > 0) own.parts = kept as unknown as JsonValue;
  if (Object.keys(own).length > 0) meta[AI_SDK_KEY] = own;
  return Object.keys(meta).length > 0 ? { ...value, providerMetadata: meta } : value;
}

export function splitMeta(meta: JsonObject | undefined): {
  options: JsonObject | undefined;
  extra: JsonObject | undefined;
  kept: KeptPart[];
} {
  if (!meta) return { options: undefined, extra: undefined, kept: [] };
  const { [AI_SDK_KEY]: own, ...rest } = meta;
  const extra =
    typeof own === 'object' && own !== null && !Array.isArray(own) ? (own as JsonObject) : undefined;
  const kept = Array.isArray(extra?.parts) ? (extra.parts as unknown as KeptPart[]) : [];
  return { options: Object.keys(rest).length > 0 ? rest : undefined, extra, kept };
}

export function reinsert<T>(parts: T[], kept: readonly KeptPart[]): T[] {
  const out = [...parts];
  for (const { index, part } of [...kept].sort((a, b) => a.index - b.index)) {
    out.splice(Math.min(index, out.length), 0, part as T);
  }
  return out;
}

/** Binary data and URLs as neutral strings; `kind` says how to rebuild the original. */
export function dataToString(data: unknown): { data: string; kind?: 'bytes' | 'url' } {
  if (typeof data === 'string') return { data };
  if (data instanceof URL) return { data: data.href, kind: 'url' };
  if (data instanceof ArrayBuffer) return { data: base64(new Uint8Array(data)), kind: 'bytes' };
  if (ArrayBuffer.isView(data)) {
    return { data: base64(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)), kind: 'bytes' };
  }
  throw new TypeError(`Unsupported data content: ${Object.prototype.toString.call(data)}`);
}

export function dataFromString(data: string, kind: JsonValue | undefined): string | Uint8Array | URL {
  if (kind === 'url') return new URL(data);
  if (kind === 'bytes') return fromBase64(data);
  return data;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A JSON copy: `undefined` members dropped, as `JSON.stringify` does. */
export function toJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  return jsonCopy(value) as JsonValue;
}
