/**
 * Agent fingerprints: a digest of the instructions and of each tool's name and input schema,
 * readable per part so that a mismatch can say what changed.
 */
import { canonicalJson } from '../format/canonical';
import type { ToolSpec } from './model';

/**
 * Fingerprint an agent definition, as `instructions=<hash>;tool:<name>=<hash>;...`.
 *
 * @example
 * ```ts
 * const fp = await fingerprintAgent({ instructions: 'Be brief', tools: [{ name: 'lookup', inputSchema }] });
 * ```
 */
export async function fingerprintAgent(definition: {
  instructions?: string | undefined;
  tools: readonly Pick<ToolSpec, 'name' | 'inputSchema'>[];
}): Promise<string> {
  const parts = [`instructions=${await shortHash(definition.instructions ?? '')}`];
  const tools = [...definition.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const tool of tools)
    parts.push(`tool:${tool.name}=${await shortHash(canonicalJson(tool.inputSchema))}`);
  return parts.join(';');
}

/**
 * What differs between two fingerprints, in words; empty when they are equal.
 *
 * @example
 * ```ts
 * diffFingerprints(continuation.agent.fingerprint!, await agent.fingerprint());
 * // ['tool "transfer" changed its input schema']
 * ```
 */
export function diffFingerprints(saved: string, current: string): string[] {
  const before = parse(saved);
  const after = parse(current);
  const changes: string[] = [];
  for (const [key, hash] of before) {
    const label = key === 'instructions' ? 'the instructions' : `tool "${key.slice(5)}"`;
    if (!after.has(key)) changes.push(`${label} was removed`);
    else if (after.get(key) !== hash)
      changes.push(key === 'instructions' ? 'the instructions changed' : `${label} changed its input schema`);
  }
  for (const key of after.keys()) if (!before.has(key)) changes.push(`tool "${key.slice(5)}" was added`);
  return changes;
}

function parse(fingerprint: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of fingerprint.split(';')) {
    const index = part.lastIndexOf('=');
    if (index > 0) map.set(part.slice(0, index), part.slice(index + 1));
  }
  return map;
}

async function shortHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest).subarray(0, 8)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
