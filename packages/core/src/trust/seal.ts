/**
 * Sealing: an HMAC-SHA256 over the canonical encoding of a continuation, covering everything that
 * is read (the seal's own `alg` and `keyId` included; only the MAC itself is left out), so a
 * tampered continuation, a changed tool argument or a relabelled key fails loudly. Web Crypto only.
 * A MAC is compared as bytes, and only its canonical base64url text is accepted.
 */

import { ContinuationError } from '../errors';
import { continuationText } from '../format/canonical';
import type { Continuation, Seal } from '../format/format';

/** A sealing secret: text (UTF-8 encoded) or raw bytes. */
export type SealSecret = string | Uint8Array;

/**
 * How an agent or a caller seals and verifies: the current secret, a label for it, and the
 * secrets it replaced, which still verify (so a rotation does not strand sealed continuations).
 */
export interface SealConfig {
  secret: SealSecret;
  /** A label for `secret`, kept in (and covered by) each new seal. */
  keyId?: string;
  /** Older secrets, tried after `secret` when verifying; never used to seal. */
  previous?: readonly SealSecret[] | undefined;
}

/** Options of {@link sealContinuation} when the secret is passed on its own. */
export interface SealOptions {
  /** A label for the secret, kept in the seal, to help rotate secrets. */
  keyId?: string;
}

const ALG = 'HMAC-SHA256' as const;
/** Bytes of an HMAC-SHA256. */
const MAC_BYTES = 32;

/**
 * Return a copy of `continuation` carrying a seal made with the secret (any earlier seal is
 * replaced).
 *
 * @example
 * ```ts
 * const sealed = await sealContinuation(result.continuation, { secret: process.env.SEAL_SECRET!, keyId: '2026-12' });
 * // later, from untrusted input:
 * const continuation = await openContinuation(body, { secret: process.env.SEAL_SECRET! });
 * ```
 */
export async function sealContinuation(continuation: Continuation, config: SealConfig): Promise<Continuation>;
export async function sealContinuation(
  continuation: Continuation,
  secret: SealSecret,
  options?: SealOptions,
): Promise<Continuation>;
export async function sealContinuation(
  continuation: Continuation,
  secretOrConfig: SealSecret | SealConfig,
  options: SealOptions = {},
): Promise<Continuation> {
  const config = toConfig(secretOrConfig, options.keyId);
  const { seal: _previous, ...body } = continuation;
  const header: Omit<Seal, 'mac'> = { alg: ALG, ...(config.keyId ? { keyId: config.keyId } : {}) };
  const key = await importKey(config.secret, 'sign');
  const signature = await crypto.subtle.sign('HMAC', key, encode(sealedText(body, header)));
  return { ...body, seal: { ...header, mac: base64UrlEncode(new Uint8Array(signature)) } };
}

/**
 * Check a continuation's seal against the secret (or, with a {@link SealConfig}, against the
 * current or any previous secret); throws `SEAL_MISSING` or `SEAL_MISMATCH`.
 *
 * @example
 * ```ts
 * await verifySeal(continuation, process.env.SEAL_SECRET!);
 * await verifySeal(continuation, { secret: current, previous: [retired] });
 * ```
 */
export async function verifySeal(
  continuation: Continuation,
  secret: SealSecret | SealConfig,
  /** @internal The text `continuation` was parsed from, when there was one. */
  text?: string,
): Promise<void> {
  const config = toConfig(secret);
  const { seal, ...body } = continuation;
  if (!seal) {
    throw new ContinuationError('SEAL_MISSING', 'The continuation is not sealed, but a seal was required.', {
      path: '$.seal',
    });
  }
  const secrets = [config.secret, ...(config.previous ?? [])];
  const keys = await Promise.all(secrets.map((each) => importKey(each, 'verify')));
  const mac = canonicalMac(seal.mac);
  if (mac !== undefined && seal.alg === ALG) {
    const header: Omit<Seal, 'mac'> = {
      alg: seal.alg,
      ...(seal.keyId !== undefined ? { keyId: seal.keyId } : {}),
    };
    // The text a sealer wrote is canonical: without its MAC member it is the very text that was
    // MACed, so the MAC is checked over those bytes with no re-encoding. Any other text (spaced,
    // reordered) falls through to the canonical encoding of what was parsed.
    const unsealed = text === undefined ? undefined : withoutMac(text, seal.mac);
    if (unsealed !== undefined) {
      const bytes = encode(unsealed);
      for (const key of keys) if (await crypto.subtle.verify('HMAC', key, mac, bytes)) return;
    }
    const current = encode(sealedText(body, header));
    for (const key of keys) if (await crypto.subtle.verify('HMAC', key, mac, current)) return;
  }
  throw new ContinuationError(
    'SEAL_MISMATCH',
    'The continuation seal does not match: it was changed after sealing, or the secret is wrong.',
    { path: '$.seal.mac' },
  );
}

/**
 * `text` without the seal's MAC member, when that member occurs exactly once as a canonical
 * encoder writes it (the last member of the seal object); else undefined.
 */
function withoutMac(text: string, mac: string): string | undefined {
  const member = `,"mac":"${mac}"}`;
  const at = text.indexOf(member);
  if (at < 0 || text.indexOf(member, at + 1) >= 0) return undefined;
  return `${text.slice(0, at)}}${text.slice(at + member.length)}`;
}

/**
 * What a seal covers: the whole continuation, its seal without the MAC included, in the very text
 * `serializeContinuation` writes, so a sealed continuation read back from that text is checked
 * over its own bytes.
 */
function sealedText(body: Omit<Continuation, 'seal'>, header: Omit<Seal, 'mac'>): string {
  return continuationText({ ...body, seal: header });
}

/** The MAC's bytes when `text` is their one canonical base64url form (no padding), else undefined. */
function canonicalMac(text: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof text !== 'string') return undefined;
  const bytes = base64UrlDecode(text);
  if (bytes === undefined || bytes.byteLength !== MAC_BYTES) return undefined;
  return base64UrlEncode(bytes) === text ? bytes : undefined;
}

function toConfig(secret: SealSecret | SealConfig, keyId?: string): SealConfig {
  if (typeof secret === 'string' || secret instanceof Uint8Array)
    return { secret, ...(keyId ? { keyId } : {}) };
  if (typeof secret !== 'object' || secret === null) {
    throw new ContinuationError('INVALID_OPERATION', 'A seal needs a secret: a string or bytes.');
  }
  return secret;
}

/** Imported keys by secret text, so a busy resume path does not import the same key every time. */
const keyCache = new Map<string, Promise<CryptoKey>>();
const KEY_CACHE_SIZE = 32;

function importKey(secret: SealSecret, use: 'sign' | 'verify'): Promise<CryptoKey> {
  if (typeof secret !== 'string') return importRawKey(secret, use);
  const cacheKey = `${use}:${secret}`;
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = importRawKey(secret, use);
    // A refused secret is not remembered.
    key.catch(() => keyCache.delete(cacheKey));
    if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value!);
    keyCache.set(cacheKey, key);
  }
  return key;
}

function importRawKey(secret: SealSecret, use: 'sign' | 'verify'): Promise<CryptoKey> {
  if (typeof secret !== 'string' && !(secret instanceof Uint8Array)) {
    return Promise.reject(
      new ContinuationError('INVALID_OPERATION', 'A sealing secret must be a string or bytes.'),
    );
  }
  const raw = typeof secret === 'string' ? encode(secret) : secret;
  if (raw.byteLength === 0) {
    return Promise.reject(new ContinuationError('INVALID_OPERATION', 'The sealing secret is empty.'));
  }
  return crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [use]);
}

const encoder = new TextEncoder();

function encode(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Base64url without padding, for Web and Node alike. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes of base64url text (without padding); undefined when `text` is not base64url. */
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
