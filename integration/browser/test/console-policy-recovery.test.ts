/**
 * Issue 21 items 3 and 11 in Chromium: an approval link obeys the policy the run's form obeys, and
 * a suspension the run's checkpoint log has moved past (a resume that died midway, whose run was
 * finished without the store) is offered nowhere: not in the inbox, not on its page, not by a link.
 */
import { createApprovalLinks, recoverRun, resumeStored } from '@agent-continuations/core';
import { waitingDisagreements } from '@agent-continuations/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, USER_HEADER } from './harness';
import { type Crash, paymentsAgent, SECRET, type Served, serveConsole } from './safety-harness';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('the console in Chromium: link policies and suspensions the log moved past', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const served: Served[] = [];
  const pageOf = async (user: string): Promise<Page> => {
    const context = await browser.newContext({ extraHTTPHeaders: { [USER_HEADER]: user } });
    contexts.push(context);
    return context.newPage();
  };
  const serve = async (...options: Parameters<typeof serveConsole>) => {
    const app = await serveConsole(...options);
    served.push(app);
    return app;
  };
  const text = (page: Page) => page.locator('body').textContent();
  const sentBy = (app: Served, who: string) => app.sent.filter((each) => each.to.startsWith(who));

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await Promise.all(served.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('item 3: under a policy that allows only reject, the approve link is refused on GET and POST and nothing runs; the reject link applies', async () => {
    const app = await serve({}, { allowedDecisions: ['reject'] });
    const run = await app.start('a', 'Policy');
    const [one] = run.actions as [string, string];
    const ann = await pageOf('ann@a');
    // The run's form offers no approval.
    await ann.goto(`${app.url}/runs/${run.id}`);
    const fieldset = ann.locator(`fieldset[id="action-${one}"]`);
    expect(await fieldset.getByRole('button', { name: /^Reject/ }).count()).toBe(1);
    expect(await fieldset.getByRole('button', { name: /^Approve/ }).count()).toBe(0);

    const links = createApprovalLinks({ secret: SECRET, baseUrl: app.url });
    const approve = await links.url(run.id, one, 'approve');
    expect((await ann.goto(approve))?.status()).toBe(403);
    expect(await text(ann)).toContain('does not allow the decision "approve"');
    expect(await ann.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    // The reject link's page gives a token; posting the approve link with it is refused too.
    const reject = await links.url(run.id, one, 'reject');
    expect((await ann.goto(reject))?.status()).toBe(200);
    const token = new URL(
      (await ann.locator('form[method="post"]').getAttribute('action'))!,
      app.url,
    ).searchParams.get('csrf')!;
    const forged = await ann.request.post(`${approve}?csrf=${encodeURIComponent(token)}`, {
      form: {},
      headers: { origin: new URL(app.url).origin },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(sentBy(app, 'Policy')).toEqual([]);
    expect((await app.store.load(run.id))?.status).toBe('suspended');

    await ann.getByRole('button', { name: 'Reject' }).click();
    await ann.waitForURL(/outcome=/);
    expect(sentBy(app, 'Policy')).toEqual([]);
    expect((await app.store.load(run.id))?.status).not.toBe('suspended');
  });

  it('item 11: a suspension the log moved past is not in the inbox, its page offers nothing and shows what happened, its link runs nothing; recovery settles it', async () => {
    const app = await serve();
    const gone = await app.start('a', 'Phantom');
    const waiting = await app.start('a', 'Still');
    const stored = (await app.store.load(gone.id))!;
    // A person approves both transfers; the process dies inside the first, before it runs.
    const crash: Crash = { armed: true };
    const died = new Promise<void>((resolve) => {
      crash.died = resolve;
    });
    let dead = false;
    const agent = paymentsAgent(app.sent, crash);
    const approveBoth = {
      [gone.actions[0]!]: { type: 'approve' as const, by: 'ann@a' },
      [gone.actions[1]!]: { type: 'approve' as const, by: 'ann@a' },
    };
    void resumeStored(
      killable(app.store, () => dead),
      agent,
      gone.id,
      approveBoth,
      {
        log: killable(app.log, () => dead),
        leaseMs: 50,
      },
    ).catch(() => {});
    await died;
    dead = true;
    crash.armed = false;
    await new Promise((resolve) => setTimeout(resolve, 200)); // its claim and its log lease lapse
    // Another process finishes the run from the log alone: the transfers run once.
    const finished = await recoverRun(agent, app.log, stored.runId, { leaseMs: 5_000 });
    expect(finished.status).toBe('completed');
    expect(sentBy(app, 'Phantom')).toHaveLength(2);
    expect((await app.store.list({ status: 'suspended' })).items.map((item) => item.id)).toContain(gone.id);

    const ann = await pageOf('ann@a');
    await ann.goto(`${app.url}/`);
    const inbox = (await text(ann))!;
    expect(inbox).toContain('Still one');
    expect(inbox).not.toContain('Phantom');

    await ann.goto(`${app.url}/runs/${gone.id}`);
    expect(
      await ann.getByRole('button', { name: /^(Approve|Reject|Submit decisions|Cancel the run)/ }).count(),
    ).toBe(0);
    expect(await ann.getByRole('status').textContent()).toContain('The run went on from its checkpoint log');
    const happened = await ann
      .locator('section', { has: ann.getByRole('heading', { name: 'What happened' }) })
      .textContent();
    expect(happened).toContain('Approved');
    expect(happened).toContain('Final answer');

    const links = createApprovalLinks({ secret: SECRET, baseUrl: app.url });
    expect((await ann.goto(await links.url(gone.id, gone.actions[0]!, 'approve')))?.status()).toBe(404);
    expect(await text(ann)).toContain('no longer pending');
    expect(await ann.locator('form[method="post"]').count()).toBe(0);
    // A tab left open on the run before: its form's approval is refused.
    await ann.goto(`${app.url}/runs/${waiting.id}`);
    const target = (await ann.locator('form[method="post"]').first().getAttribute('action'))!;
    const token = new URL(target, app.url).searchParams.get('csrf')!;
    const stale = await ann.request.post(
      `${app.url}/runs/${gone.id}/decide?csrf=${encodeURIComponent(token)}`,
      {
        form: { [`decision:${gone.actions[0]}`]: 'approve' },
        headers: { origin: new URL(app.url).origin },
        maxRedirects: 0,
      },
    );
    expect(stale.status()).toBe(409);
    expect(await stale.text()).toContain('Decided by ann@a');
    expect(sentBy(app, 'Phantom')).toHaveLength(2);

    // The next recovery settles the record: the store's waiting records are the log's suspensions.
    await app.runtime.recover();
    expect((await app.store.load(gone.id))?.status).not.toBe('suspended');
    expect(await waitingDisagreements(app.store, app.log, [stored.runId])).toEqual([]);
    expect((await app.store.load(waiting.id))?.status).toBe('suspended');
    await ann.goto(`${app.url}/`);
    expect(await text(ann)).toContain('Still one');
    expect(sentBy(app, 'Phantom')).toHaveLength(2);
  });
});

/** A dead worker's view of `target`: once `dead()`, its writes never settle (reads still answer). */
function killable<T extends object>(target: T, dead: () => boolean): T {
  const writes = new Set(['begin', 'append', 'renew', 'fail', 'complete', 'release']);
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object) as unknown;
      if (typeof value !== 'function' || typeof key !== 'string' || !writes.has(key)) return value;
      return (...args: unknown[]) =>
        dead() ? new Promise<never>(() => {}) : (value as (...a: unknown[]) => unknown).apply(object, args);
    },
  });
}
