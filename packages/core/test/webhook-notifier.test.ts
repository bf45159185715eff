import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createWebhookNotifier,
  isContinuationError,
  type SuspendNotice,
  verifyWebhookSignature,
} from '@agent-continuations/core';
import { afterEach, describe, expect, it } from 'vitest';

const secret = 'hook-secret-of-16-bytes';
const notice: SuspendNotice = {
  continuationId: 'c-1',
  runId: 'r-1',
  agent: 'hr',
  metadata: { ticket: 7 },
  reason: 'suspended',
  actions: [],
};

interface Received {
  body: string;
  headers: IncomingMessage['headers'];
}

let close: (() => void) | undefined;
afterEach(() => close?.());

/** A real HTTP receiver answering with the given statuses in turn (the last one repeats). */
async function receiver(statuses: number[]) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ body, headers: request.headers });
      response.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      response.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  close = () => server.close();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe('createWebhookNotifier', () => {
  it('POSTs the notice as signed JSON that the receiver can verify', async () => {
    const { url, received } = await receiver([204]);
    await createWebhookNotifier({ url, secret })(notice);
    expect(received).toHaveLength(1);
    const [{ body, headers }] = received as [Received];
    expect(JSON.parse(body)).toEqual(notice);
    expect(headers['content-type']).toBe('application/json');
    const signed = {
      body,
      timestamp: headers['x-agent-continuations-timestamp'] as string,
      signature: headers['x-agent-continuations-signature'] as string,
      secret,
    };
    expect(await verifyWebhookSignature(signed)).toBe(true);
    expect(await verifyWebhookSignature({ ...signed, body: body.replace('hr', 'ops') })).toBe(false);
    expect(await verifyWebhookSignature({ ...signed, secret: 'another-secret-16-bytes' })).toBe(false);
    // A replay long after the timestamp is refused.
    expect(await verifyWebhookSignature({ ...signed, now: Number(signed.timestamp) + 600_000 })).toBe(false);
  });

  it('retries a 503 and a 429 with backoff, then delivers', async () => {
    const { url, received } = await receiver([503, 429, 200]);
    await createWebhookNotifier({ url, secret, backoffMs: 5 })(notice);
    expect(received).toHaveLength(3);
  });

  it('fails with NOTIFY_FAILED after its retries, and at once on a 4xx that retrying cannot fix', async () => {
    const down = await receiver([500]);
    const error = await createWebhookNotifier({ url: down.url, secret, retries: 2, backoffMs: 1 })(
      notice,
    ).catch((caught: unknown) => caught);
    expect(isContinuationError(error, 'NOTIFY_FAILED')).toBe(true);
    expect(String(error)).toContain('HTTP 500');
    expect(down.received).toHaveLength(3);
    close?.();

    const refusing = await receiver([401]);
    const refused = await createWebhookNotifier({ url: refusing.url, secret, backoffMs: 1 })(notice).catch(
      (caught: unknown) => caught,
    );
    expect(isContinuationError(refused, 'NOTIFY_FAILED')).toBe(true);
    expect(refusing.received).toHaveLength(1);
  });

  it('retries when nothing listens', async () => {
    let attempts = 0;
    const error = await createWebhookNotifier({
      url: 'http://127.0.0.1:9/hook',
      secret,
      retries: 1,
      backoffMs: 1,
      fetch: (input, init) => {
        attempts++;
        return fetch(input, init);
      },
    })(notice).catch((caught: unknown) => caught);
    expect(isContinuationError(error, 'NOTIFY_FAILED')).toBe(true);
    expect(attempts).toBe(2);
  });
});
