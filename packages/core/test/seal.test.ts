import {
  type Continuation,
  isContinuationError,
  parseContinuation,
  sealContinuation,
  serializeContinuation,
  verifySeal,
} from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SEAL_SECRET, fixtureAgents } from './fixtures/agents';
import { validFixture } from './fixtures/corpus';

const SECRET = 'a test secret, not for production';

async function suspendedNested(): Promise<Continuation> {
  const run = await fixtureAgents().hr.run('Give ann a raise');
  if (run.status !== 'suspended') throw new Error('expected a suspension');
  return run.continuation;
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    if (isContinuationError(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('sealing', () => {
  it('seals and verifies, keeping the key id and leaving the original unchanged', async () => {
    const continuation = await suspendedNested();
    const sealed = await sealContinuation(continuation, SECRET, { keyId: 'k1' });
    expect(sealed.seal).toMatchObject({ alg: 'HMAC-SHA256', keyId: 'k1' });
    expect(sealed.seal?.mac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(continuation.seal).toBeUndefined();
    await expect(verifySeal(sealed, SECRET)).resolves.toBeUndefined();
  });

  it('verifies after serialize and parse, and whatever the key order of the text', async () => {
    const sealed = await sealContinuation(await suspendedNested(), SECRET);
    const text = serializeContinuation(sealed);
    await expect(parseContinuation(text, { secret: SECRET })).resolves.toEqual(parseContinuation(text));
    const indented = JSON.stringify(JSON.parse(text), null, 2);
    await expect(parseContinuation(indented, { secret: SECRET })).resolves.toBeDefined();
  });

  it('sealing a sealed continuation replaces the seal', async () => {
    const once = await sealContinuation(await suspendedNested(), 'old secret');
    const twice = await sealContinuation(once, SECRET);
    await expect(verifySeal(twice, SECRET)).resolves.toBeUndefined();
    expect(await codeOf(verifySeal(twice, 'old secret'))).toBe('SEAL_MISMATCH');
  });

  it('accepts a byte secret equal to the string secret', async () => {
    const sealed = await sealContinuation(await suspendedNested(), new TextEncoder().encode(SECRET));
    await expect(verifySeal(sealed, SECRET)).resolves.toBeUndefined();
  });

  it('changed arguments three levels down: SEAL_MISMATCH', async () => {
    const sealed = await sealContinuation(await suspendedNested(), SECRET);
    const tampered = JSON.parse(serializeContinuation(sealed));
    tampered.pending[0].child.pending[0].child.pending[0].args.salary = 999999;
    expect(await codeOf(parseContinuation(tampered, { secret: SECRET }))).toBe('SEAL_MISMATCH');
  });

  it('an added metadata key or a changed message: SEAL_MISMATCH', async () => {
    const sealed = await sealContinuation(await suspendedNested(), SECRET);
    expect(await codeOf(verifySeal({ ...sealed, metadata: { role: 'admin' } }, SECRET))).toBe(
      'SEAL_MISMATCH',
    );
    const messages = [
      { role: 'user' as const, content: 'Give everyone a raise' },
      ...sealed.messages.slice(1),
    ];
    expect(await codeOf(verifySeal({ ...sealed, messages }, SECRET))).toBe('SEAL_MISMATCH');
  });

  it('a wrong secret: SEAL_MISMATCH with a clear message', async () => {
    const sealed = await sealContinuation(await suspendedNested(), SECRET);
    try {
      await verifySeal(sealed, 'another secret');
      expect.unreachable();
    } catch (error) {
      expect(isContinuationError(error, 'SEAL_MISMATCH')).toBe(true);
      expect((error as Error).message).toMatch(/changed after sealing, or the secret is wrong/);
    }
  });

  it('an unsealed continuation where a seal is required: SEAL_MISSING', async () => {
    const plain = serializeContinuation(await suspendedNested());
    expect(await codeOf(parseContinuation(plain, { secret: SECRET }))).toBe('SEAL_MISSING');
    expect(() => parseContinuation(plain)).not.toThrow();
  });

  it('an empty secret is refused', async () => {
    expect(await codeOf(sealContinuation(await suspendedNested(), ''))).toBe('INVALID_OPERATION');
  });

  it('a bad continuation with a secret fails parsing before the seal is looked at', () => {
    // Parse errors stay synchronous even with a secret: nothing reaches the HMAC.
    expect(() => parseContinuation('{"format":"agent-continuation"', { secret: SECRET })).toThrow(
      expect.objectContaining({ code: 'INVALID_JSON' }),
    );
  });

  it('the frozen sealed fixture verifies with its secret and resumes', async () => {
    const continuation = await parseContinuation(validFixture('sealed-approval.json'), {
      secret: FIXTURE_SEAL_SECRET,
    });
    expect(continuation.seal?.keyId).toBe('fixture');
    const agents = fixtureAgents();
    const result = await agents.bank.resume(continuation, { call_1_0: { type: 'approve' } });
    expect(result.status).toBe('completed');
    expect(agents.counts.tools).toEqual({ transfer: 1 });
  });
});
