import {
  type Continuation,
  createEncryption,
  isContinuationError,
  parseContinuation,
} from '@agent-continuations/core';
import {
  decodeStoredBody,
  encodeStoredBody,
  encryptionKeyIdOf,
  isEncrypted,
} from '@agent-continuations/core/store-kit';
import { describe, expect, it } from 'vitest';

const keyA = new Uint8Array(32).fill(7);
const keyB = btoa(String.fromCharCode(...new Uint8Array(32).fill(9)));

const continuation: Continuation = parseContinuation({
  format: 'agent-continuation',
  version: 1,
  id: 'cont_1',
  runId: 'run_1',
  agent: { name: 'payroll', framework: 'core' },
  messages: [{ role: 'user', content: 'Raise the salary of Ann Example to 120k' }],
  pending: [],
  done: [],
  step: 1,
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  suspendedBy: { type: 'predicate', predicates: ['everyTurns'] },
  metadata: { tenant: 'acme' },
  decisions: [],
  createdAt: '2025-01-01T00:00:00.000Z',
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isContinuationError(error) ? error.code : `untyped: ${String(error)}`;
  }
}

describe('createEncryption', () => {
  it('round-trips text and hides it, with a fresh IV each time', async () => {
    const encryption = createEncryption({ keys: { a: keyA }, currentKeyId: 'a' });
    const first = await encryption.encrypt('secret salary 120k', 'id-1');
    const second = await encryption.encrypt('secret salary 120k', 'id-1');
    expect(first).not.toContain('salary');
    expect(first).not.toBe(second);
    expect(isEncrypted(first)).toBe(true);
    expect(encryptionKeyIdOf(first)).toBe('a');
    expect(await encryption.decrypt(first, 'id-1')).toBe('secret salary 120k');
  });

  it('refuses a wrong key, another record id, and changed bytes with DECRYPT_FAILED', async () => {
    const encryption = createEncryption({ keys: { a: keyA }, currentKeyId: 'a' });
    const other = createEncryption({ keys: { a: keyB }, currentKeyId: 'a' });
    const text = await encryption.encrypt('hello', 'id-1');
    expect(await codeOf(other.decrypt(text, 'id-1'))).toBe('DECRYPT_FAILED');
    expect(await codeOf(encryption.decrypt(text, 'id-2'))).toBe('DECRYPT_FAILED');
    const last = text.at(-2) === 'A' ? 'B' : 'A';
    const tampered = text.slice(0, -2) + last + text.slice(-1);
    expect(await codeOf(encryption.decrypt(tampered, 'id-1'))).toBe('DECRYPT_FAILED');
    expect(await codeOf(encryption.decrypt('enc:v1:a:short', 'id-1'))).toBe('DECRYPT_FAILED');
    expect(await codeOf(encryption.decrypt('not encrypted', 'id-1'))).toBe('DECRYPT_FAILED');
  });

  it('rotates: the new key writes, the old key still reads, a dropped key is named in the error', async () => {
    const before = createEncryption({ keys: { old: keyA }, currentKeyId: 'old' });
    const after = createEncryption({ keys: { old: keyA, new: keyB }, currentKeyId: 'new' });
    const oldText = await before.encrypt('old record');
    const newText = await after.encrypt('new record');
    expect(encryptionKeyIdOf(newText)).toBe('new');
    expect(await after.decrypt(oldText)).toBe('old record');
    const onlyNew = createEncryption({ keys: { new: keyB }, currentKeyId: 'new' });
    await expect(onlyNew.decrypt(oldText)).rejects.toThrow(/key id "old"/);
  });

  it('refuses bad keys and key ids at once', () => {
    const codeOfCall = (make: () => unknown) => {
      try {
        make();
        return undefined;
      } catch (error) {
        return isContinuationError(error) ? error.code : 'untyped';
      }
    };
    expect(codeOfCall(() => createEncryption({ keys: { a: new Uint8Array(16) }, currentKeyId: 'a' }))).toBe(
      'INVALID_OPERATION',
    );
    expect(codeOfCall(() => createEncryption({ keys: { a: 'not base64!' }, currentKeyId: 'a' }))).toBe(
      'INVALID_OPERATION',
    );
    expect(codeOfCall(() => createEncryption({ keys: { 'a:b': keyA }, currentKeyId: 'a:b' }))).toBe(
      'INVALID_OPERATION',
    );
    expect(codeOfCall(() => createEncryption({ keys: { a: keyA }, currentKeyId: 'b' }))).toBe(
      'INVALID_OPERATION',
    );
  });
});

describe('stored bodies', () => {
  it('round-trip plain and encrypted, bound to the record id', async () => {
    const encryption = createEncryption({ keys: { a: keyA }, currentKeyId: 'a' });
    const plain = await encodeStoredBody(continuation);
    expect(JSON.parse(plain)).toEqual(continuation);
    expect(await decodeStoredBody(plain, 'cont_1')).toEqual(continuation);
    const sealed = await encodeStoredBody(continuation, encryption);
    expect(sealed).not.toContain('Ann Example');
    expect(await decodeStoredBody(sealed, 'cont_1', encryption)).toEqual(continuation);
    expect(await codeOf(decodeStoredBody(sealed, 'cont_2', encryption))).toBe('DECRYPT_FAILED');
  });

  it('refuses an encrypted body without a key, and a plain body when encryption is required', async () => {
    const encryption = createEncryption({ keys: { a: keyA }, currentKeyId: 'a' });
    const sealed = await encodeStoredBody(continuation, encryption);
    expect(await codeOf(decodeStoredBody(sealed, 'cont_1'))).toBe('DECRYPT_FAILED');
    const plain = await encodeStoredBody(continuation);
    expect(await codeOf(decodeStoredBody(plain, 'cont_1', encryption))).toBe('DECRYPT_FAILED');
  });

  it('validates the decrypted body like any untrusted continuation', async () => {
    const encryption = createEncryption({ keys: { a: keyA }, currentKeyId: 'a' });
    const bogus = await encryption.encrypt('{"format":"agent-continuation","version":99}', 'cont_1');
    expect(await codeOf(decodeStoredBody(bogus, 'cont_1', encryption))).toBe('UNSUPPORTED_VERSION');
  });
});
