/**
 * Encryption at rest for stores: AES-256-GCM over a continuation's body text, with a user key and
 * rotation by key id. Web Crypto only, so it runs wherever the core runs.
 *
 * A ciphertext is one ASCII string, `enc:v1:<keyId>:<iv>:<data>` (base64url parts), so it fits a
 * text column or a Redis string. The key id travels with it: after rotation the old key still reads
 * old records while new ones are written with the current key.
 */

import { ContinuationError } from '../errors';
import { parseContinuation, serializeContinuation } from '../format/codec';
import type { Continuation } from '../format/format';
import { base64UrlDecode, base64UrlEncode } from './seal';

/** A 32-byte AES-256 key: raw bytes, their base64 (or base64url) text, or an imported AES-GCM `CryptoKey`. */
export type EncryptionKey = Uint8Array | string | CryptoKey;

/** Options of {@link createEncryption}. */
export interface EncryptionOptions {
  /** Every key that may have written a record, by key id (letters, digits, `_`, `-`, `.`). */
  keys: Record<string, EncryptionKey>;
  /** The key id new records are encrypted with; must be one of `keys`. */
  currentKeyId: string;
}

/** Encrypts and decrypts body text; give one to a store's `encryption` option. */
export interface Encryption {
  /** The key id that {@link Encryption.encrypt} uses. */
  readonly currentKeyId: string;
  /**
   * Encrypt `plaintext` with the current key. `associatedData` (e.g. the record id) is
   * authenticated but not stored: decryption must pass the same value, so a ciphertext moved to
   * another record fails to decrypt.
   */
  encrypt(plaintext: string, associatedData?: string): Promise<string>;
  /** Decrypt a ciphertext made by any of the keys; throws `DECRYPT_FAILED` on a wrong key or tampered bytes. */
  decrypt(ciphertext: string, associatedData?: string): Promise<string>;
}

const PREFIX = 'enc:v1:';
const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const IV_BYTES = 12;

/**
 * Create an AES-256-GCM encryption with one or more keys. Bad keys or key ids are refused at once
 * with `INVALID_OPERATION`.
 *
 * @example
 * ```ts
 * // Generate a key once: base64 of 32 random bytes, e.g. `openssl rand -base64 32`.
 * const encryption = createEncryption({
 *   keys: { '2025-01': process.env.STORE_KEY_OLD!, '2025-06': process.env.STORE_KEY! },
 *   currentKeyId: '2025-06',
 * });
 * const store = createSqliteStore({ path: 'runs.db', encryption });
 * ```
 */
export function createEncryption(options: EncryptionOptions): Encryption {
  const keys = new Map<string, Promise<CryptoKey>>();
  for (const [keyId, key] of Object.entries(options.keys)) {
    if (!KEY_ID.test(keyId)) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `Encryption key id "${keyId}" is not valid: use 1 to 64 letters, digits, "_", "-" or ".".`,
      );
    }
    keys.set(keyId, importKey(keyId, key));
  }
  const currentKeyId = options.currentKeyId;
  if (!keys.has(currentKeyId)) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `The current encryption key id "${currentKeyId}" is not among the keys (${[...keys.keys()].join(', ') || 'none'}).`,
    );
  }
  // Bad bytes were refused above; an import failure is reported on first use, not as an unhandled rejection.
  for (const key of keys.values()) key.catch(() => undefined);

  return {
    currentKeyId,
    async encrypt(plaintext, associatedData) {
      const key = await keys.get(currentKeyId)!;
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const data = await crypto.subtle.encrypt(gcm(iv, associatedData), key, encode(plaintext));
      return `${PREFIX}${currentKeyId}:${base64UrlEncode(iv)}:${base64UrlEncode(new Uint8Array(data))}`;
    },
    async decrypt(ciphertext, associatedData) {
      const parts = parseCiphertext(ciphertext);
      const key = keys.get(parts.keyId);
      if (!key) {
        throw new ContinuationError(
          'DECRYPT_FAILED',
          `The record was encrypted with key id "${parts.keyId}", which this store was not given.`,
        );
      }
      try {
        const plain = await crypto.subtle.decrypt(gcm(parts.iv, associatedData), await key, parts.data);
        return new TextDecoder('utf-8', { fatal: true }).decode(plain);
      } catch (error) {
        throw new ContinuationError(
          'DECRYPT_FAILED',
          `Could not decrypt the record with key id "${parts.keyId}": the key is wrong or the bytes were changed.`,
          { cause: error },
        );
      }
    },
  };
}

/** True when `text` is a ciphertext made by {@link createEncryption}. */
export function isEncrypted(text: string): boolean {
  return text.startsWith(PREFIX);
}

/** The key id a ciphertext was made with, or undefined for text that is not one (e.g. to find records to re-encrypt). */
export function encryptionKeyIdOf(text: string): string | undefined {
  if (!isEncrypted(text)) return undefined;
  const keyId = text.slice(PREFIX.length, text.indexOf(':', PREFIX.length));
  return KEY_ID.test(keyId) ? keyId : undefined;
}

/**
 * The text a store keeps as a continuation's body: `serializeContinuation`'s text, encrypted when an
 * encryption is given (bound to the continuation's id).
 *
 * @example
 * ```ts
 * const body = await encodeStoredBody(continuation, options.encryption);
 * db.prepare('INSERT INTO runs (id, body) VALUES (?, ?)').run(continuation.id, body);
 * ```
 */
export async function encodeStoredBody(continuation: Continuation, encryption?: Encryption): Promise<string> {
  const text = serializeContinuation(continuation);
  return encryption ? encryption.encrypt(text, continuation.id) : text;
}

/**
 * Read a body written by {@link encodeStoredBody} for the record `id`: decrypt it if needed and
 * validate it with `parseContinuation`. An encrypted body without an encryption, or a plain body
 * when an encryption is given (plain text may have been written by anyone), is `DECRYPT_FAILED`.
 *
 * @example
 * ```ts
 * const continuation = await decodeStoredBody(row.body, row.id, options.encryption);
 * ```
 */
export async function decodeStoredBody(
  text: string,
  id: string,
  encryption?: Encryption,
): Promise<Continuation> {
  if (isEncrypted(text)) {
    if (!encryption) {
      throw new ContinuationError(
        'DECRYPT_FAILED',
        `Continuation "${id}" is stored encrypted, but the store was given no \`encryption\` option.`,
      );
    }
    return parseContinuation(await encryption.decrypt(text, id));
  }
  if (encryption) {
    throw new ContinuationError(
      'DECRYPT_FAILED',
      `Continuation "${id}" is stored unencrypted, but the store requires encryption; re-save it through an encrypting store.`,
    );
  }
  return parseContinuation(text);
}

function parseCiphertext(text: string): {
  keyId: string;
  iv: Uint8Array<ArrayBuffer>;
  data: Uint8Array<ArrayBuffer>;
} {
  const [keyId, iv, data, ...rest] = isEncrypted(text) ? text.slice(PREFIX.length).split(':') : [];
  const ivBytes = iv === undefined ? undefined : base64UrlDecode(iv);
  const dataBytes = data === undefined ? undefined : base64UrlDecode(data);
  if (!keyId || !KEY_ID.test(keyId) || ivBytes?.length !== IV_BYTES || !dataBytes || rest.length > 0) {
    throw new ContinuationError('DECRYPT_FAILED', 'The stored record is not a well-formed ciphertext.');
  }
  return { keyId, iv: ivBytes, data: dataBytes };
}

function importKey(keyId: string, key: EncryptionKey): Promise<CryptoKey> {
  if (typeof key === 'object' && !(key instanceof Uint8Array)) return Promise.resolve(key);
  const raw = typeof key === 'string' ? base64Decode(key) : key;
  if (raw?.byteLength !== 32) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `Encryption key "${keyId}" must be 32 bytes (AES-256), given as bytes or as base64 text.`,
    );
  }
  return crypto.subtle.importKey('raw', raw as BufferSource, { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
}

function gcm(iv: Uint8Array<ArrayBuffer>, associatedData: string | undefined): AesGcmParams {
  return associatedData === undefined
    ? { name: 'AES-GCM', iv }
    : { name: 'AES-GCM', iv, additionalData: encode(associatedData) };
}

function encode(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

/** Base64 or base64url, padded or not; undefined when `text` is neither. */
function base64Decode(text: string): Uint8Array | undefined {
  return base64UrlDecode(text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
}

/**
 * The text a checkpoint log keeps for one entry: its JSON, encrypted when an encryption is given
 * (bound to the run's id, so an entry moved to another run fails to decrypt). For log authors.
 *
 * @example
 * ```ts
 * const body = await encodeLogEntry(entry, lease.runId, options.encryption);
 * ```
 */
export async function encodeLogEntry(
  entry: unknown,
  runId: string,
  encryption?: Encryption,
): Promise<string> {
  const text = JSON.stringify(entry);
  return encryption ? encryption.encrypt(text, logData(runId)) : text;
}

/**
 * Read an entry written by {@link encodeLogEntry} for run `runId`. As for stored bodies, an
 * encrypted entry without an encryption, or a plain one when an encryption is given, is
 * `DECRYPT_FAILED`.
 *
 * @example
 * ```ts
 * const entries = await Promise.all(rows.map((row) => decodeLogEntry<CheckpointEntry>(row.body, runId, options.encryption)));
 * ```
 */
export async function decodeLogEntry<T>(text: string, runId: string, encryption?: Encryption): Promise<T> {
  if (isEncrypted(text)) {
    if (!encryption) {
      throw new ContinuationError(
        'DECRYPT_FAILED',
        `The checkpoint log of run "${runId}" is encrypted, but the log was given no \`encryption\` option.`,
      );
    }
    return JSON.parse(await encryption.decrypt(text, logData(runId))) as T;
  }
  if (encryption) {
    throw new ContinuationError(
      'DECRYPT_FAILED',
      `The checkpoint log of run "${runId}" holds an unencrypted entry, but the log requires encryption.`,
    );
  }
  return JSON.parse(text) as T;
}

function logData(runId: string): string {
  return `checkpoint:${runId}`;
}
