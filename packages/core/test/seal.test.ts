import {
  type Continuation,
  canonicalJson,
  isContinuationError,
  openContinuation,
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

describe('seal edges', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  it('a MAC whose last character is changed to another encoding of the same bytes: SEAL_MISMATCH', async () => {
    const sealed = await sealContinuation(await suspendedNested(), { secret: SECRET });
    const mac = sealed.seal!.mac;
    // 32 bytes are 43 characters: the last one carries 4 bits and 2 unused ones.
    const last = ALPHABET.indexOf(mac[mac.length - 1]!);
    const twin = `${mac.slice(0, -1)}${ALPHABET[last ^ 1]}`;
    expect(atob(twin.replace(/-/g, '+').replace(/_/g, '/') + '=')).toBe(
      atob(mac.replace(/-/g, '+').replace(/_/g, '/') + '='),
    );
    const forged = { ...sealed, seal: { ...sealed.seal!, mac: twin } };
    expect(await codeOf(verifySeal(forged, SECRET))).toBe('SEAL_MISMATCH');
    expect(await codeOf(verifySeal({ ...sealed, seal: { ...sealed.seal!, mac: `${mac}=` } }, SECRET))).toBe(
      'SEAL_MISMATCH',
    );
    await expect(verifySeal(sealed, SECRET)).resolves.toBeUndefined();
  });

  it('keyId is covered by the MAC: changed, removed or added, SEAL_MISMATCH', async () => {
    const sealed = await sealContinuation(await suspendedNested(), { secret: SECRET, keyId: 'k1' });
    const { keyId: _dropped, ...withoutKeyId } = sealed.seal!;
    for (const seal of [{ ...sealed.seal!, keyId: 'k2' }, withoutKeyId]) {
      expect(await codeOf(verifySeal({ ...sealed, seal }, SECRET))).toBe('SEAL_MISMATCH');
    }
    const plain = await sealContinuation(await suspendedNested(), { secret: SECRET });
    expect(await codeOf(verifySeal({ ...plain, seal: { ...plain.seal!, keyId: 'k1' } }, SECRET))).toBe(
      'SEAL_MISMATCH',
    );
  });

  it('a key injected into a message after sealing is refused, not dropped before the check', async () => {
    const sealed = await sealContinuation(await suspendedNested(), SECRET);
    const text = serializeContinuation(sealed);
    const injected = JSON.parse(text);
    injected.messages[1].content[0].note = 'injected';
    expect(() => parseContinuation(injected)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONTINUATION' }),
    );
    // What is accepted is written back byte for byte, seal included.
    expect(serializeContinuation(await parseContinuation(text, { secret: SECRET }))).toBe(text);
  });

  it('rotation: a seal made with a previous secret verifies; the new one seals', async () => {
    const old = await sealContinuation(await suspendedNested(), { secret: 'old secret', keyId: 'old' });
    const config = { secret: SECRET, keyId: 'new', previous: ['older secret', 'old secret'] };
    await expect(verifySeal(old, config)).resolves.toBeUndefined();
    await expect(parseContinuation(serializeContinuation(old), config)).resolves.toBeDefined();
    expect(await codeOf(verifySeal(old, SECRET))).toBe('SEAL_MISMATCH');
    expect(await codeOf(verifySeal(old, { secret: SECRET, previous: ['older secret'] }))).toBe(
      'SEAL_MISMATCH',
    );
    const resealed = await sealContinuation(old, config);
    expect(resealed.seal?.keyId).toBe('new');
    await expect(verifySeal(resealed, SECRET)).resolves.toBeUndefined();
  });

  it('openContinuation parses and, given a seal config, refuses unsealed or altered input', async () => {
    const continuation = await suspendedNested();
    const plain = serializeContinuation(continuation);
    const sealed = serializeContinuation(await sealContinuation(continuation, { secret: SECRET }));
    await expect(openContinuation(plain)).resolves.toMatchObject({ runId: continuation.runId });
    await expect(openContinuation(sealed, { secret: SECRET })).resolves.toMatchObject({
      runId: continuation.runId,
    });
    expect(await codeOf(openContinuation(plain, { secret: SECRET }))).toBe('SEAL_MISSING');
    expect(await codeOf(openContinuation(sealed.replace('"ann"', '"bob"'), { secret: SECRET }))).toBe(
      'SEAL_MISMATCH',
    );
    expect(await codeOf(openContinuation('{', { secret: SECRET }))).toBe('INVALID_JSON');
    await expect(
      openContinuation(sealed, { secret: 'new secret', previous: [SECRET] }),
    ).resolves.toBeDefined();
  });

  it('a MAC over any other encoding than the sealed text is refused: SEAL_MISMATCH', async () => {
    // Two encodings a seal could plausibly have been made over: the continuation without its
    // seal (keyId not covered), and the seal covered but every key sorted, payloads included.
    // Metadata in unsorted order, so that sorting every key changes the bytes.
    const continuation = { ...(await suspendedNested()), metadata: { zeta: 1, alpha: 2 } };
    const sealed = await sealContinuation(continuation, { secret: SECRET, keyId: 'k1' });
    const { seal, ...body } = sealed;
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(SECRET),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const macOver = async (value: unknown) => {
      const bytes = new Uint8Array(
        await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(canonicalJson(value))),
      );
      return btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
    };
    const header = { alg: seal!.alg, keyId: seal!.keyId };
    for (const covered of [body, { ...body, seal: header }]) {
      const forged = { ...body, seal: { ...header, mac: await macOver(covered) } };
      expect(forged.seal.mac).not.toBe(seal!.mac);
      expect(await codeOf(verifySeal(forged as Continuation, SECRET))).toBe('SEAL_MISMATCH');
    }
    await expect(verifySeal(sealed, SECRET)).resolves.toBeUndefined();
  });
});

describe('verifying the text as sealed', () => {
  it('verifies canonical text over its own bytes, spaced text through the canonical encoding', async () => {
    const sealed = await sealContinuation(await suspendedNested(), { secret: SECRET, keyId: 'k1' });
    const text = serializeContinuation(sealed);
    await expect(openContinuation(text, { secret: SECRET })).resolves.toEqual(sealed);
    const spaced = JSON.stringify(JSON.parse(text), null, 2);
    await expect(openContinuation(spaced, { secret: SECRET })).resolves.toEqual(sealed);
    await expect(parseContinuation(spaced, { secret: SECRET })).resolves.toEqual(sealed);
  });

  it('a second copy of the MAC member planted in a payload does not make altered text verify', async () => {
    const sealed = await sealContinuation(await suspendedNested(), SECRET);
    const member = `,"mac":"${sealed.seal!.mac}"}`;
    const value = JSON.parse(serializeContinuation(sealed));
    value.metadata = { planted: member };
    expect(await codeOf(openContinuation(JSON.stringify(value), { secret: SECRET }))).toBe('SEAL_MISMATCH');
    // Untouched but for a planted copy inside the sealed text: the slow path still says whether it is.
    const text = serializeContinuation(sealed);
    expect(text).toContain('"metadata":{}');
    const planted = text.replace('"metadata":{}', `"metadata":{"x":${JSON.stringify(member)}}`);
    expect(await codeOf(openContinuation(planted, { secret: SECRET }))).toBe('SEAL_MISMATCH');
  });
});
