/**
 * The fault suite for the webhook notifier: a receiver that never answers, and one that answers
 * 500 every time. Each delivery must end, with `NOTIFY_FAILED`, within its bounds.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createWebhookNotifier,
  isContinuationError,
  type SuspendNotice,
  type WebhookNotifierOptions,
} from '@agent-continuations/core';
import { afterEach, expect, it } from 'vitest';

const notice: SuspendNotice = {
  continuationId: 'c-1',
  runId: 'r-1',
  agent: 'hr',
  metadata: {},
  reason: 'suspended',
  actions: [],
};

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** A real receiver: `hang` never answers, otherwise it answers `status`. Counts requests. */
async function receiver(answer: 'hang' | number) {
  const seen = { requests: 0 };
  server = createServer((request, response) => {
    seen.requests++;
    request.resume();
    if (answer !== 'hang') {
      response.statusCode = answer;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook`, seen };
}

/**
 * Deliver one notice to a receiver that answers `answer`, with the notifier's `options`: how the
 * delivery ended within 10 s (its error code and message, or `stalled`), printed under `label`.
 */
async function deliver(
  label: string,
  answer: 'hang' | number,
  options: Omit<WebhookNotifierOptions, 'url' | 'secret'>,
) {
  const { url, seen } = await receiver(answer);
  const notify = createWebhookNotifier({ url, secret: 'hook-secret-of-16-bytes', ...options });
  const started = Date.now();
  const ended = await Promise.race([
    notify(notice).then(
      () => 'delivered',
      (error: unknown) => (isContinuationError(error) ? `${error.code}: ${error.message}` : String(error)),
    ),
    new Promise<string>((resolve) => setTimeout(resolve, 10_000, 'stalled')),
  ]);
  console.log(`faults/${label}: ${seen.requests} attempts, ended after ${Date.now() - started} ms: ${ended}`);
  return { ended, requests: seen.requests };
}

it('a receiver that never answers: each attempt ends at timeoutMs, the delivery fails NOTIFY_FAILED', async () => {
  const { ended, requests } = await deliver('webhook-hangs', 'hang', {
    retries: 2,
    backoffMs: 50,
    timeoutMs: 300,
  });
  expect(ended).toMatch(/^NOTIFY_FAILED: .*no answer within 300 ms/);
  expect(requests).toBe(3);
});

it('a receiver that answers 500: retries stop once the total budget would run out', async () => {
  const { ended, requests } = await deliver('webhook-fails', 500, {
    retries: 20,
    backoffMs: 100,
    budgetMs: 1_000,
  });
  expect(ended).toMatch(/^NOTIFY_FAILED: .*HTTP 500 \(gave up: its 1000 ms budget would run out\)/);
  // 100 + 200 + 400 ms of backoff fit in the budget, 800 more would not.
  expect(requests).toBe(4);
});
