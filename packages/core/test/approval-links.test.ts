import { createApprovalLinks, isContinuationError } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';

const secret = 'a-secret-of-at-least-16-bytes';
const links = createApprovalLinks({ secret, baseUrl: 'https://ops.example.com/inbox/' });

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the link was accepted'),
    (error: unknown) => error,
  );
}

describe('approval links', () => {
  it('signs the continuation, the action, the decision and the expiry, and verifies them back', async () => {
    const expiresAt = new Date('2026-12-02T10:00:00.000Z');
    const url = await links.url('c-1', 'call_1/call_2', 'approve', { expiresAt });
    expect(url.startsWith('https://ops.example.com/inbox/links/')).toBe(true);
    const token = url.slice(url.lastIndexOf('/') + 1);
    expect(await links.verify(token, new Date('2026-12-01T10:00:00.000Z'))).toEqual({
      continuationId: 'c-1',
      actionId: 'call_1/call_2',
      kind: 'approve',
      expiresAt: expiresAt.toISOString(),
    });
  });

  it('refuses an expired link with LINK_EXPIRED, naming what it was for', async () => {
    const token = await links.token('c-1', 'call_1', 'reject', {
      expiresAt: new Date('2026-12-01T10:00:00Z'),
    });
    const error = await refusal(links.verify(token, new Date('2026-12-01T10:00:00Z')));
    expect(isContinuationError(error, 'LINK_EXPIRED')).toBe(true);
    expect((error as { details: unknown }).details).toMatchObject({ continuationId: 'c-1', kind: 'reject' });
  });

  it('refuses a link whose payload was edited (another action, another kind, a later expiry)', async () => {
    const token = await links.token('c-1', 'call_1', 'reject');
    const [payload, mac] = token.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as string[];
    for (const edit of [
      [decoded[0], 'call_2', decoded[2], decoded[3]],
      [decoded[0], decoded[1], 'approve', decoded[3]],
      [decoded[0], decoded[1], decoded[2], '2099-01-01T00:00:00.000Z'],
    ]) {
      const forged = `${Buffer.from(JSON.stringify(edit)).toString('base64url')}.${mac}`;
      expect(isContinuationError(await refusal(links.verify(forged)), 'LINK_INVALID')).toBe(true);
    }
  });

  it('refuses a link signed with another secret, and text that is no token', async () => {
    const other = createApprovalLinks({ secret: 'another-secret-16-bytes!', baseUrl: 'https://x' });
    const foreign = await other.token('c-1', 'call_1', 'approve');
    for (const bad of [
      foreign,
      '',
      'abc',
      'a.b.c',
      `${foreign}x`,
      `${foreign.split('.')[0]}.`,
      '<script>.x',
    ]) {
      expect(isContinuationError(await refusal(links.verify(bad)), 'LINK_INVALID')).toBe(true);
    }
  });

  it('refuses a short secret at creation, and a kind other than approve or reject', async () => {
    expect(() => createApprovalLinks({ secret: 'short', baseUrl: 'https://x' })).toThrow(/at least 16 bytes/);
    const error = await refusal(links.token('c-1', 'call_1', 'input' as 'approve'));
    expect(isContinuationError(error, 'INVALID_OPERATION')).toBe(true);
  });
});
