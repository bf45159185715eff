/**
 * Sealing: an HMAC-SHA256 over the canonical encoding of a continuation (without its seal), so a
 * tampered continuation or a changed tool argument fails loudly. Web Crypto only.
 */
import { canonicalJson } from './canonical';
import { ContinuationError } from './errors';
import type { Continuation } from './format';

/** Options of {@link sealContinuation}. */
export interface SealOptions {
  /** A label for the secret, kept in the seal, to help rotate secrets. */
  keyId?: string;
}

/**
 * Return a copy of `continuation` carrying a seal made with `secret`.
 *
 * @example
 * ```ts
 * const sealed = await sealContinuation(result.continuation, process.env.SEAL_SECRET!);
 * // later, from untrusted input:
 * const continuation = await parseContinuation(body, { secret: process.env.SEAL_SECRET! });
 * ```
 */
export async function sealContinuation(
  continuation: Continuation,
  secret: string | Uint8Array,
  options: SealOptions = {},
): Promise<Continuation> {
  const { seal: _previous, ...body } = continuation;
  const mac = await hmac(secret, canonicalJson(body));
  return { ...body, seal: { alg: 'HMAC-SHA256', ...(options.keyId ? { keyId: options.keyId } : {}), mac } };
}

/**
 * Check a continuation's seal against `secret`; throws `SEAL_MISSING` or `SEAL_MISMATCH`.
 *
 * @example
 * ```ts
 * await verifySeal(continuation, process.env.SEAL_SECRET!);
 * ```
 */
export async function verifySeal(continuation: Continuation, secret: string | Uint8Array): Promise<void> {
  const { seal, ...body } = continuation;
  if (!seal)
    throw new ContinuationError('SEAL_MISSING', 'The continuation is not sealed, but a seal was required.');
  const key = await importKey(secret);
  const expected = base64UrlDecode(seal.mac);
  const ok =
    expected !== undefined &&
    (await crypto.subtle.verify('HMAC', key, expected, encode(canonicalJson(body))));
  if (!ok) {
    throw new ContinuationError(
      'SEAL_MISMATCH',
      'The continuation seal does not match: it was changed after sealing, or the secret is wrong.',
    );
  }
}

async function hmac(secret: string | Uint8Array, text: string): Promise<string> {
  const key = await importKey(secret);
  const signature = await crypto.subtle.sign('HMAC', key, encode(text));
  return base64UrlEncode(new Uint8Array(signature));
}

function importKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const raw = typeof secret === 'string' ? encode(secret) : secret;
  if (raw.byteLength === 0) throw new ContinuationError('INVALID_OPERATION', 'The sealing secret is empty.');
  return crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

function encode(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

/** Base64url without padding, for Web and Node alike. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes of base64url text (padded or not); undefined when `text` is not base64url. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}
