/**
 * The approval console takes this adapter like any other: a run that handed off and waits in the
 * billing agent shows in the inbox, and a signed approval link resumes it there through the runtime
 * under the console's claim, running the refund once; the same link again is refused.
 */
import { createConsole } from '@agent-continuations/console';
import { createMemoryStore, createRuntime } from '@agent-continuations/core';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { continuable } from '../src/index';
import { billingDesk, type Ran } from './support/billing';

const server = setupScriptedOpenAIServer({ scripts: {} });

/** A browser of the console: keeps its cookie, sends a form's CSRF token in the URL as the forms do. */
function browser(inbox: { fetch(request: Request): Promise<Response> }) {
  let cookie = '';
  return async (path: string, csrf?: string) => {
    const target = csrf === undefined ? path : `${path}?csrf=${encodeURIComponent(csrf)}`;
    const headers: Record<string, string> = { 'x-user': 'lead', ...(cookie ? { cookie } : {}) };
    const post = csrf === undefined ? {} : { method: 'POST', body: '' };
    if (csrf !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await inbox.fetch(new Request(`https://ops.example.com${target}`, { ...post, headers }));
    for (const set of response.headers.getSetCookie()) cookie = set.split(';')[0]!;
    return { status: response.status, text: await response.text() };
  };
}

it('shows the waiting refund, and its approval link resumes the run in the billing agent once', async () => {
  const ran: Ran = {};
  const store = createMemoryStore();
  const runtime = createRuntime({
    agents: [continuable(billingDesk('chat', server, 'console', ran))],
    store,
  });
  const paused = await runtime.start('triage', 'Refund order O-7, 20 EUR');
  if (paused.status !== 'suspended') throw new Error('expected the refund approval');
  const inbox = createConsole({
    runtime,
    authorize: (request) => {
      const user = request.headers.get('x-user');
      return user ? { id: user } : undefined;
    },
    secret: 'a secret of at least 16 bytes',
    baseUrl: 'https://ops.example.com',
  });
  const open = browser(inbox);

  const page = await open('/');
  expect(page.status).toBe(200);
  expect(page.text).toContain('refund');
  expect(page.text).toContain('billing');

  const [action] = paused.actions;
  const link = new URL(await inbox.links.url(paused.continuation.id, action!.id, 'approve')).pathname;
  const confirm = await open(link);
  expect(confirm.status).toBe(200);
  expect(ran).toEqual({});
  const csrf = /<form method="post" action="[^"]*\?csrf=([^"&]+)"/.exec(confirm.text)?.[1];
  const applied = await open(link, decodeURIComponent(csrf!));
  expect(applied.status).toBe(303);
  expect(ran).toEqual({ refund: 1 });
  const record = await store.load(paused.continuation.id);
  expect(record?.status).toBe('completed');

  const again = await open(link, decodeURIComponent(csrf!));
  expect(again.status).toBe(409);
  expect(ran).toEqual({ refund: 1 });
});
