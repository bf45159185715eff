/**
 * The console's safety and the person's view in Chromium: two tenants an `authorize` separates,
 * bounded bodies read only after the token and the gate, client errors, DNS rebinding (a host name
 * mapped to 127.0.0.1 in the browser), `basePath` everywhere, a failed hand-off that a retry gets
 * through, a second console over the same database, edits that are never dropped, and what a
 * decided run shows. The console runs over a runtime with a SQLite store and log.
 */
import { createApprovalLinks } from '@agent-continuations/core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { attackerPost, CHROMIUM, CHROMIUM_ARGS, USER_HEADER } from './harness';
import { BASE, SECRET, type Served, serveConsole } from './safety-harness';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe("the console in Chromium: safety and the person's view", () => {
  let browser: Browser;
  let app: Served;
  const contexts: BrowserContext[] = [];
  const pageOf = async (user: string): Promise<Page> => {
    const context = await browser.newContext({ extraHTTPHeaders: { [USER_HEADER]: user } });
    contexts.push(context);
    return context.newPage();
  };
  const text = (page: Page) => page.locator('body').textContent();
  const fieldset = (page: Page, actionId: string) => page.locator(`fieldset[id="action-${actionId}"]`);
  /** The CSRF token in the URL of the page's form. */
  const formTarget = (page: Page) => page.locator('form[method="post"]').first().getAttribute('action');

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // A name of another site that resolves to this machine, as DNS rebinding makes it.
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1'],
    });
    app = await serveConsole({ maxBodyBytes: 8192 });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('items 1, 2: a person of another tenant gets, on every route and error, the answer of a run that does not exist, and never the decider', async () => {
    const theirs = await app.start('a', 'Acme');
    const own = await app.start('b', 'Beta');
    const bea = await pageOf('bea@b');
    const missing = async (path: string) => {
      const response = await bea.goto(`${app.url}${path}`);
      return { status: response?.status(), body: await text(bea) };
    };
    const none = await missing('/runs/no-such-run');
    expect(none.status).toBe(404);
    expect(await missing(`/runs/${theirs.id}`)).toEqual(none);

    // Her own run gives her a session and a token; posts to the other tenant's run with it.
    await bea.goto(`${app.url}/runs/${own.id}`);
    const target = (await formTarget(bea))!;
    const token = new URL(target, app.url).searchParams.get('csrf')!;
    const send = async (url: string, form: Record<string, string>) => {
      const response = await bea.request.post(`${url}?csrf=${token}`, {
        form,
        headers: { origin: new URL(app.url).origin },
        maxRedirects: 0,
      });
      return { status: response.status(), body: await response.text() };
    };
    const post = (id: string, form: Record<string, string>) => send(`${app.url}/runs/${id}/decide`, form);
    for (const form of [
      {},
      { [`decision:${theirs.actions[0]}`]: 'bogus' },
      { [`decision:${theirs.actions[0]}`]: 'edit', [`arg:${theirs.actions[0]}:amount`]: '-1' },
      { [`decision:${theirs.actions[0]}`]: 'approve' },
    ]) {
      const [answer, nothing] = [await post(theirs.id, form), await post('no-such-run', form)];
      expect(answer.status).toBe(404);
      expect(answer.body).toBe(nothing.body);
      expect(answer.body).not.toContain('Acme');
    }
    const links = createApprovalLinks({ secret: SECRET, baseUrl: app.url });
    const link = [
      await links.url(theirs.id, theirs.actions[0]!, 'approve'),
      await links.url('no-such-run', 'x', 'approve'),
    ];
    const [linkTheirs, linkNone] = [await bea.goto(link[0]!), await bea.goto(link[1]!)];
    expect(linkTheirs?.status()).toBe(404);
    expect(linkNone?.status()).toBe(404);
    // The link posted, and the run ended with a reason within and past its bound: the same.
    const [linkPosted, linkNonePosted] = [await send(link[0]!, {}), await send(link[1]!, {})];
    expect(linkPosted.status).toBe(404);
    expect(linkPosted.body).toBe(linkNonePosted.body);
    for (const reason of ['not ours', 'x'.repeat(3000)]) {
      const cancel = (id: string) => send(`${app.url}/runs/${id}/cancel`, { reason });
      const [answer, nothing] = [await cancel(theirs.id), await cancel('no-such-run')];
      expect(answer.status).toBe(404);
      expect(answer.body).toBe(nothing.body);
    }
    expect((await app.store.load(theirs.id))?.status).toBe('suspended');
    expect(app.sent).toEqual([]);

    // Ann of tenant A decides; Bea still learns nothing, Ann is told who decided.
    const ann = await pageOf('ann@a');
    await ann.goto(`${app.url}/runs/${theirs.id}`);
    await fieldset(ann, theirs.actions[0]!)
      .getByRole('button', { name: /^Approve/ })
      .click();
    await ann.waitForURL(/outcome=/);
    expect(app.sent).toHaveLength(1);
    expect(await missing(`/runs/${theirs.id}`)).toEqual(none);
    const late = await post(theirs.id, { [`decision:${theirs.actions[0]}`]: 'approve' });
    expect(late.status).toBe(404);
    expect(late.body).not.toContain('ann@a');
    expect((await bea.goto(link[0]!))?.status()).toBe(404);
    expect(await text(bea)).not.toContain('ann@a');
  });

  it('items 5, 6: a body over the limit is 413 and runs nothing; malformed multipart, duplicates and a bad cursor are 400', async () => {
    const run = await app.start('a', 'Limits');
    const ann = await pageOf('ann@a');
    await ann.goto(`${app.url}/runs/${run.id}`);
    const action = fieldset(ann, run.actions[0]!);
    await action.getByLabel('Reject', { exact: true }).check();
    await action.getByLabel('Reason').fill('r'.repeat(20_000));
    const refused = ann.waitForResponse((response) => response.request().method() === 'POST');
    await ann.getByRole('button', { name: 'Submit decisions' }).click();
    expect((await refused).status()).toBe(413);
    expect(await text(ann)).toContain('larger than this console accepts');

    await ann.goto(`${app.url}/runs/${run.id}`);
    const target = new URL((await formTarget(ann))!, app.url).href;
    const multipart = await ann.request.post(target, {
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ', origin: new URL(app.url).origin },
      data: '--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end',
      maxRedirects: 0,
    });
    expect(multipart.status()).toBe(400);
    expect(await multipart.text()).toContain('does not parse');
    const twice = await ann.request.post(target, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(app.url).origin },
      data: `decision:${run.actions[0]}=reject&decision:${run.actions[0]}=approve`,
      maxRedirects: 0,
    });
    expect(twice.status()).toBe(400);
    expect(await twice.text()).toContain('more than once');
    expect((await ann.goto(`${app.url}/?cursor=garbage`))?.status()).toBe(400);
    expect(await text(ann)).toContain('cursor is not one this inbox gave');
    expect(app.sent.filter((each) => each.to.startsWith('Limits'))).toEqual([]);
  });

  it("item 5: the token and the gate come before the body: an oversized form from another site is 403, one to another tenant's run is 404, a reason past its bound is 422", async () => {
    const theirs = await app.start('a', 'Order');
    const own = await app.start('b', 'Own');
    // A page of another site auto-submits an oversized approval: refused before its body is read.
    const ann = await pageOf('ann@a');
    const crossSite = await attackerPost(
      ann,
      'http://elsewhere.example',
      `${app.url}/runs/${theirs.id}/decide`,
      {
        [`decision:${theirs.actions[0]}`]: 'approve',
        [`reason:${theirs.actions[0]}`]: 'x'.repeat(20_000),
      },
    );
    expect(crossSite).toBe(403);
    expect(await text(ann)).toContain('not sent from this console');
    const links = createApprovalLinks({ secret: SECRET, baseUrl: app.url });
    const approveLink = await links.url(theirs.id, theirs.actions[0]!, 'approve');
    const crossSiteLink = await attackerPost(ann, 'http://elsewhere.example', approveLink, {
      reason: 'x'.repeat(20_000),
    });
    expect(crossSiteLink).toBe(403);

    // Bea's own form, with her token, sent oversized to another tenant's run (to decide it or to
    // end it): the gate answers first.
    const bea = await pageOf('bea@b');
    const oversized = async (id: string, route: 'decide' | 'cancel') => {
      await bea.goto(`${app.url}/runs/${own.id}`);
      const posted = bea.waitForResponse((response) => response.request().method() === 'POST');
      await bea.evaluate(
        ({ id, route, size }) => {
          const form = document.querySelector('form[method="post"]') as HTMLFormElement;
          form.action = form.action.replace(
            /\/runs\/[^/?]+\/decide/,
            `/runs/${encodeURIComponent(id)}/${route}`,
          );
          const filler = document.createElement('input');
          filler.type = 'hidden';
          filler.name = 'filler';
          filler.value = 'x'.repeat(size);
          form.append(filler);
          form.submit();
        },
        { id, route, size: 20_000 },
      );
      const response = await posted;
      return { status: response.status(), body: await text(bea) };
    };
    for (const route of ['decide', 'cancel'] as const) {
      const [toTheirs, toNone] = [await oversized(theirs.id, route), await oversized('no-such-run', route)];
      expect(toTheirs.status).toBe(404);
      expect(toTheirs).toEqual(toNone);
    }

    // Within the body limit, a reason longer than its bound is refused and nothing runs.
    await ann.goto(`${app.url}/runs/${theirs.id}`);
    const action = fieldset(ann, theirs.actions[0]!);
    await action.getByLabel('Reason').fill('r'.repeat(2001));
    const refused = ann.waitForResponse((response) => response.request().method() === 'POST');
    await action.getByRole('button', { name: /^Approve/ }).click();
    expect((await refused).status()).toBe(422);
    expect(await text(ann)).toContain('longer than 2000 characters');
    // The same bound on a reject link's reason.
    await ann.goto(await links.url(theirs.id, theirs.actions[1]!, 'reject'));
    await ann.getByLabel('Reason').fill('r'.repeat(2001));
    const linkRefused = ann.waitForResponse((response) => response.request().method() === 'POST');
    await ann.getByRole('button', { name: 'Reject' }).click();
    expect((await linkRefused).status()).toBe(422);
    expect(await text(ann)).toContain('longer than 2000 characters');
    expect(app.sent.filter((each) => each.to.startsWith('Order'))).toEqual([]);
    expect((await app.store.load(theirs.id))?.status).toBe('suspended');
  });

  it('item 7: a page of another site whose name resolves to this server gets no page, no token, and its form runs nothing', async () => {
    const run = await app.start('a', 'Rebinding');
    const ann = await pageOf('ann@a');
    const port = new URL(app.url).port;
    const evil = `http://evil.example:${port}`;
    expect((await ann.goto(`${evil}${BASE}/runs/${run.id}`))?.status()).toBe(421);
    expect(await text(ann)).not.toContain('Rebinding');
    expect(await ann.locator('form[method="post"]').count()).toBe(0);
    // The attacker's page, under its own name, auto-submits a form to the console as same-origin.
    const status = await attackerPost(ann, evil, `${BASE}/runs/${run.id}/decide`, {
      [`decision:${run.actions[0]}`]: 'approve',
    });
    expect(status).toBe(421);
    expect(app.sent.filter((each) => each.to.startsWith('Rebinding'))).toEqual([]);
  });

  it('item 8: under basePath, the header link, the filter form and "Next page" all work', async () => {
    const small = await serveConsole({ pageSize: 1 });
    try {
      await small.start('a', 'First');
      await small.start('a', 'Second');
      const ann = await pageOf('ann@a');
      expect((await ann.goto(`${small.url}/`))?.status()).toBe(200);
      await ann.getByRole('link', { name: 'Next page' }).click();
      await ann.waitForURL(/cursor=/);
      expect(await text(ann)).toContain('First');
      await ann.getByRole('link', { name: 'Inbox', exact: true }).click();
      await ann.waitForURL(`${small.url}/`);
      expect(await text(ann)).toContain('Second');
      await ann.getByLabel('Tool').fill('transfer');
      await ann.getByRole('button', { name: 'Filter' }).click();
      await ann.waitForURL(/tool=transfer/);
      expect(await text(ann)).toContain('Second');
      await ann.getByRole('link', { name: /^Open/ }).first().click();
      await ann.waitForURL(`${small.url}/runs/**`);
      expect(await ann.getByRole('heading', { name: 'Pending actions' }).count()).toBe(1);
    } finally {
      await small.close();
    }
  });

  it('item 4: a failed hand-off holds nothing: the retry goes through', async () => {
    const handed: unknown[] = [];
    let fail = true;
    const worker = await serveConsole({
      submitDecisions: async (id, decisions) => {
        if (fail) {
          fail = false;
          throw new Error('the queue is down');
        }
        handed.push([id, decisions]);
      },
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const run = await worker.start('a', 'Handoff');
      const ann = await pageOf('ann@a');
      await ann.goto(`${worker.url}/runs/${run.id}`);
      const first = ann.waitForResponse((response) => response.request().method() === 'POST');
      await fieldset(ann, run.actions[0]!)
        .getByRole('button', { name: /^Approve/ })
        .click();
      expect((await first).status()).toBe(500);
      await ann.goto(`${worker.url}/runs/${run.id}`);
      const second = ann.waitForResponse((response) => response.request().method() === 'POST');
      await fieldset(ann, run.actions[0]!)
        .getByRole('button', { name: /^Approve/ })
        .click();
      expect((await second).status()).toBe(303);
      await ann.waitForURL(/outcome=submitted/);
      expect(handed).toEqual([[run.id, { [run.actions[0]!]: { type: 'approve', by: 'ann@a' } }]]);
    } finally {
      errors.mockRestore();
      await worker.close();
    }
  });

  it('item 4: another console process over the same database names who decided, from the store', async () => {
    const other = await serveConsole({}, undefined, app.file);
    try {
      const run = await app.start('a', 'Processes');
      const [one, two] = run.actions as [string, string];
      const ann = await pageOf('ann@a');
      const bob = await pageOf('bob@a');
      await Promise.all([ann.goto(`${app.url}/runs/${run.id}`), bob.goto(`${other.url}/runs/${run.id}`)]);
      for (const id of [one, two]) await fieldset(ann, id).getByLabel('Approve', { exact: true }).check();
      await ann.getByRole('button', { name: 'Submit decisions' }).click();
      await ann.waitForURL(/outcome=completed/);
      expect(app.sent.filter((each) => each.to.startsWith('Processes'))).toHaveLength(2);

      // Bob, on the other console, approves from the page he opened before: refused, naming Ann.
      const lost = bob.waitForResponse((response) => response.request().method() === 'POST');
      await fieldset(bob, one)
        .getByRole('button', { name: /^Approve/ })
        .click();
      expect((await lost).status()).toBe(409);
      const said = await text(bob);
      expect(said).toContain('Already decided');
      expect(said).toContain('Decided by ann@a');
      await bob.goto(`${other.url}/runs/${run.id}`);
      const happened = await bob
        .locator('section', { has: bob.getByRole('heading', { name: 'What happened' }) })
        .textContent();
      expect(happened).toContain('ann@a');
      expect(app.sent.filter((each) => each.to.startsWith('Processes'))).toHaveLength(2);
      expect(other.sent).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("item 9: a cleared required field does not block the form's Reject, nor a value the browser would refuse the one-click Reject", async () => {
    const run = await app.start('a', 'Cleared');
    const [one, two] = run.actions as [string, string];
    const ann = await pageOf('ann@a');
    await ann.goto(`${app.url}/runs/${run.id}`);
    const first = fieldset(ann, one);
    await first.getByLabel(/^to\b/).fill('');
    await first.getByLabel('Reject', { exact: true }).check();
    await first.getByLabel('Reason').fill('Wrong payee');
    await ann.getByRole('button', { name: 'Submit decisions' }).click();
    await ann.waitForURL(/outcome=suspended/, { timeout: 10_000 });
    const second = fieldset(ann, two);
    await second.getByLabel(/^amount\b/).fill('0');
    await second.getByRole('button', { name: /^Reject/ }).click();
    await ann.waitForURL(/outcome=completed/, { timeout: 10_000 });
    expect(app.sent.filter((each) => each.to.startsWith('Cleared'))).toEqual([]);
    const happened = await ann
      .locator('section', { has: ann.getByRole('heading', { name: 'What happened' }) })
      .textContent();
    expect(happened).toContain('Rejected');
  });

  it('items 9, 10: an approve with a changed amount is confirmed as an edit; a cleared field does not block Reject; the decided run shows who, when, the arguments, the results and the answer; a sibling link still works', async () => {
    const run = await app.start('a', 'Edits');
    const [one, two] = run.actions as [string, string];
    const ann = await pageOf('ann@a');
    await ann.goto(`${app.url}/runs/${run.id}`);
    const first = fieldset(ann, one);
    expect(await first.textContent()).toContain('Send money from the company account');
    expect(await first.textContent()).toContain('Asked of payments: Edits');
    await first.getByLabel(/^amount\b/).fill('150');
    await first.getByRole('button', { name: /^Approve/ }).click();
    await ann.waitForLoadState();
    expect(await ann.getByRole('heading', { name: 'Confirm the edit' }).count()).toBe(1);
    const diff = await ann.locator('table').textContent();
    expect(diff).toContain('100');
    expect(diff).toContain('150');
    expect(app.sent.filter((each) => each.to.startsWith('Edits'))).toEqual([]);
    await ann.getByRole('button', { name: 'Apply the edit' }).click();
    await ann.waitForURL(/outcome=suspended/);
    expect(app.sent.filter((each) => each.to.startsWith('Edits'))).toEqual([
      { to: 'Edits one', amount: 150 },
    ]);

    // The sibling's link, made for the first continuation, still works after the first was decided.
    const links = createApprovalLinks({ secret: SECRET, baseUrl: app.url });
    const sibling = await links.url(run.id, two, 'reject');
    expect((await ann.goto(sibling))?.status()).toBe(200);
    expect(await text(ann)).toContain('Edits two');

    // On the run view, clearing a required field does not block the one-click Reject.
    await ann.goto(`${app.url}/runs/${run.id}`);
    await ann.getByRole('link', { name: 'its latest continuation' }).click();
    const second = fieldset(ann, two);
    await second.getByLabel(/^to\b/).fill('');
    await second.getByLabel('Reason').fill('Not this month');
    await second.getByRole('button', { name: /^Reject/ }).click();
    await ann.waitForURL(/outcome=completed/);
    expect(app.sent.filter((each) => each.to.startsWith('Edits'))).toHaveLength(1);

    // What the finished run shows: each decision, the results, the final answer, readable times.
    const happened = await ann
      .locator('section', { has: ann.getByRole('heading', { name: 'What happened' }) })
      .textContent();
    expect(happened).toContain('Rejected');
    expect(happened).toContain('ann@a');
    expect(happened).toContain('Not this month');
    expect(happened).toContain('Final answer');
    expect(happened).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d{4}-\d\d-\d\dT/);
    await ann.goto(`${app.url}/runs/${run.id}`);
    const firstRecord = await ann
      .locator('section', { has: ann.getByRole('heading', { name: 'What happened' }) })
      .textContent();
    expect(firstRecord).toContain('Approved with edited arguments');
    expect(firstRecord).toContain('"amount":100');
    expect(firstRecord).toContain('"amount":150');
    expect(firstRecord).toContain('"sent":150');
    expect(firstRecord).toContain('Result of transfer:');
    expect(await text(ann)).not.toContain('No decisions yet');
    // Nothing on the decided record is offered as pending.
    expect(await ann.getByRole('heading', { name: 'Pending actions' }).count()).toBe(0);
    expect(await ann.getByRole('heading', { name: 'Actions it waited for' }).count()).toBe(1);
    expect(await ann.locator('form[method="post"]').count()).toBe(0);
  });
});
