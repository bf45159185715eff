/**
 * The approval console in a real browser: Chromium (the system one, through playwright-core)
 * against the console served over HTTP on a free port, on a SQLite store. One browser for the
 * file; each test opens its own contexts (a context is one person: its own cookies and header).
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApprovalLinks, listActions } from '@agent-continuations/core';
import { startApprovalInbox } from '@agent-continuations/example-approval-inbox';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  type ConsoleUnderTest,
  REFUSED_USER,
  SECRET,
  startConsole,
  USER_HEADER,
} from './harness';

// Room for a loaded machine; each test takes a few seconds, the whole file about twenty.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('the approval console in Chromium', () => {
  let browser: Browser;
  let app: ConsoleUnderTest;
  const contexts: BrowserContext[] = [];

  /** A page of a new browser context whose person is `user`. */
  const pageOf = async (user: string): Promise<Page> => {
    const context = await browser.newContext({ extraHTTPHeaders: { [USER_HEADER]: user } });
    contexts.push(context);
    return context.newPage();
  };
  /** The fieldset of `actionId` on a run view. */
  const fieldset = (page: Page, actionId: string) => page.locator(`fieldset[id="action-${actionId}"]`);
  const submit = (page: Page) => page.getByRole('button', { name: 'Submit decisions' }).click();
  /** Mark the page's document, so that {@link settled} can tell when another one replaced it. */
  const mark = (page: Page) =>
    page.evaluate(() => {
      document.documentElement.dataset.before = 'submit';
    });
  /** Wait for the page a form led to (often at the same address as the form). */
  const settled = async (page: Page) => {
    await page.waitForFunction(() => document.documentElement.dataset.before !== 'submit');
    await page.waitForLoadState();
  };
  /** Submit the decisions and wait for the page they lead to. */
  const decide = async (page: Page) => {
    await mark(page);
    await submit(page);
    await settled(page);
  };
  const text = (page: Page) => page.locator('body').textContent();
  /** Suspend the salary chain for `employee`; resolves to the continuation id and the action id. */
  const salaryRun = async (employee: string) => {
    const { continuation } = await app.suspend('hr', employee);
    const [action] = listActions(continuation);
    return { id: continuation.id, actionId: action!.id };
  };

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`No Chromium at ${CHROMIUM}: install it (apt-get install chromium); CI does.`);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    app = await startConsole();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists a depth-3 action with the chain of agents that led to it, and opens its run', async () => {
    const { id, actionId } = await salaryRun('Ada Lovelace');
    const page = await pageOf('ann');
    const response = await page.goto(`${app.url}/`);
    expect(response?.status()).toBe(200);

    const row = page.locator('tr', { hasText: 'Ada Lovelace' });
    expect(await row.count()).toBe(1);
    const line = await row.textContent();
    expect(line).toMatch(/hr ›.* payroll ›.* salary ›.* update_salary/);
    expect(line).toContain('approval');

    await row.getByRole('link', { name: 'Open' }).click();
    expect(page.url()).toBe(`${app.url}/runs/${id}#action-${actionId}`);
    for (const heading of ['Status', 'Pending actions', 'Transcript', 'Audit trail']) {
      expect(await page.getByRole('heading', { name: heading }).count()).toBeGreaterThan(0);
    }
    const legend = await fieldset(page, actionId).locator('legend').textContent();
    expect(legend).toContain('update_salary');
    expect(legend).toContain('payroll');
  });

  it('edits the arguments through the generated form: the browser blocks an invalid value, the server checks again, a valid one runs the tool once', async () => {
    const { id, actionId } = await salaryRun('Grace Hopper');
    const page = await pageOf('ann');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await page.goto(`${app.url}/runs/${id}`);
    const action = fieldset(page, actionId);
    await action.getByLabel('Approve with edited arguments').check();
    const salary = action.getByLabel(/^salary\b/);
    expect(await salary.inputValue()).toBe('120000');

    await salary.fill('-5');
    await submit(page);
    expect(await salary.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    expect(posts).toEqual([]);

    // Past the browser (validation turned off), the server refuses it and runs nothing.
    await page.locator('form[method="post"][action*="/decide"]').evaluate((form: HTMLFormElement) => {
      form.noValidate = true;
    });
    const refused = page.waitForResponse((response) => response.request().method() === 'POST');
    await submit(page);
    expect((await refused).status()).toBe(422);
    expect(await page.getByRole('alert').textContent()).toMatch(/salary/i);
    expect(app.log.salaries).toEqual([]);

    const action2 = fieldset(page, actionId);
    await action2.getByLabel('Approve with edited arguments').check();
    await action2.getByLabel(/^salary\b/).fill('125000');
    await decide(page);
    expect(await text(page)).toContain('The run completed');
    expect(app.log.salaries).toEqual([{ employee: 'Grace Hopper', salary: 125_000 }]);
  });

  it('rejects with a reason: the tool does not run, the model is told why, the audit trail shows who and why', async () => {
    // This employee's run goes on to a letter after the salary, so it waits again after the rejection.
    const { id, actionId } = await salaryRun('Alan Turing, then write to them');
    const page = await pageOf('ann');
    await page.goto(`${app.url}/runs/${id}`);
    const action = fieldset(page, actionId);
    await action.getByLabel('Reject', { exact: true }).check();
    await action.getByLabel('Reason').fill('Budget frozen until Q3');
    await decide(page);

    expect(page.url()).not.toContain(id);
    const audit = await page
      .locator('section', { has: page.getByRole('heading', { name: 'Audit trail' }) })
      .textContent();
    expect(audit).toContain('Budget frozen until Q3');
    expect(audit).toContain('ann');
    expect(await page.locator('fieldset', { hasText: 'send_letter' }).count()).toBe(1);
    expect(app.log.salaries.filter((run) => run.employee.startsWith('Alan Turing'))).toEqual([]);
    expect(JSON.stringify(app.log.rejections)).toContain('Budget frozen until Q3');
  });

  it('ends the whole run with one reason: nothing runs, the agent is not called again, the run page says who and why', async () => {
    const { id } = await salaryRun('Edsger Dijkstra, then write to them');
    const page = await pageOf('ann');
    await page.goto(`${app.url}/runs/${id}`);
    const cancel = page.getByRole('region', { name: 'End the whole run' });
    await cancel.getByLabel('Reason').fill('Duplicate request');
    await mark(page);
    await cancel.getByRole('button', { name: 'Cancel the run' }).click();
    await settled(page);

    const body = await text(page);
    expect(body).toContain('The run was cancelled');
    expect(body).toContain('Cancelled by ann');
    expect(body).toContain('Duplicate request');
    expect(await page.locator('form[method="post"]').count()).toBe(0);
    expect(app.log.salaries.filter((run) => run.employee.startsWith('Edsger'))).toEqual([]);
    expect(JSON.stringify(app.log.rejections)).not.toContain('Duplicate request');
  });

  it('answers an input request through the inputs generated from its response schema: an invalid answer is blocked by the browser, a valid one is applied', async () => {
    const { continuation } = await app.suspend('helpdesk', 'May Ann work from home on Fridays?');
    const [action] = listActions(continuation);
    const page = await pageOf('ann');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await page.goto(`${app.url}/runs/${continuation.id}`);
    expect(await text(page)).toContain('May Ann work from home on Fridays?');
    const form = fieldset(page, action!.id);
    await form.getByRole('radio', { name: 'Answer' }).check();
    const answer = form.getByRole('group', { name: 'Answer' });
    await answer.getByRole('checkbox', { name: 'allowed' }).check();
    const days = answer.getByRole('spinbutton', { name: 'days' });
    await days.fill('9');
    await answer.getByRole('textbox', { name: 'note' }).fill('Fridays only');
    // The schema says at most 5 days: the browser refuses to send the form.
    await submit(page);
    expect(await days.evaluate((input: HTMLInputElement) => input.validity.rangeOverflow)).toBe(true);
    expect(posts).toEqual([]);
    expect(app.log.answers).toEqual([]);

    await days.fill('1');
    await decide(page);
    expect(posts).toHaveLength(1);
    expect(await text(page)).toContain('The run completed');
    expect(app.log.answers).toEqual([{ allowed: true, days: 1, note: 'Fridays only' }]);
  });

  it('two people deciding the same action at once: one wins, the tool runs once, the other sees who decided', async () => {
    const { id, actionId } = await salaryRun('Barbara Liskov');
    const ann = await pageOf('ann');
    const bob = await pageOf('bob');
    await Promise.all([ann.goto(`${app.url}/runs/${id}`), bob.goto(`${app.url}/runs/${id}`)]);
    for (const page of [ann, bob])
      await fieldset(page, actionId).getByLabel('Approve', { exact: true }).check();

    const answers = [ann, bob].map((page) =>
      page.waitForResponse((response) => response.request().method() === 'POST'),
    );
    await Promise.all([mark(ann), mark(bob)]);
    await Promise.all([submit(ann), submit(bob)]);
    const statuses = await Promise.all(answers.map(async (answer) => (await answer).status()));
    await Promise.all([settled(ann), settled(bob)]);

    expect(app.log.salaries.filter((run) => run.employee === 'Barbara Liskov')).toHaveLength(1);
    expect(statuses.filter((status) => status === 303)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(1);
    const [winner, loser] = statuses[0] === 303 ? ['ann', bob] : ['bob', ann];
    const said = await text(loser);
    expect(said).toContain('Already decided');
    expect(said).toContain(winner);
  });

  it('an approval link applies its decision once; used again, or expired, it explains itself and does nothing', async () => {
    const links = createApprovalLinks({ secret: SECRET, baseUrl: app.url });
    const used = await salaryRun('Edsger Dijkstra');
    const link = await links.url(used.id, used.actionId, 'approve');
    const first = await pageOf('ann');
    const late = await pageOf('bob');
    expect((await first.goto(link))?.status()).toBe(200);
    expect((await late.goto(link))?.status()).toBe(200);
    expect(await text(first)).toContain('Edsger Dijkstra');

    await first.getByRole('button', { name: 'Approve' }).click();
    await first.waitForURL(`${app.url}/runs/**`);
    expect(await text(first)).toContain('The run completed');
    const ran = () => app.log.salaries.filter((run) => run.employee === 'Edsger Dijkstra');
    expect(ran()).toHaveLength(1);

    // The confirmation page opened before the link was used, confirmed after.
    const second = late.waitForResponse((response) => response.request().method() === 'POST');
    await mark(late);
    await late.getByRole('button', { name: 'Approve' }).click();
    expect((await second).status()).toBe(409);
    await settled(late);
    expect(await text(late)).toContain('This link was already used');
    // Opened again.
    expect((await first.goto(link))?.status()).toBe(409);
    expect(await text(first)).toContain('This link was already used');
    expect(ran()).toHaveLength(1);

    const stale = await salaryRun('Frances Allen');
    const expired = await links.url(stale.id, stale.actionId, 'approve', {
      expiresAt: new Date(Date.now() - 60_000),
    });
    expect((await first.goto(expired))?.status()).toBe(410);
    expect(await text(first)).toContain('This link has expired');
    expect(app.log.salaries.filter((run) => run.employee === 'Frances Allen')).toEqual([]);
    expect((await app.store.load(stale.id))?.status).toBe('suspended');
  });

  it('refuses a person authorize does not allow, and shows them nothing', async () => {
    const { id, actionId } = await salaryRun('Hedy Lamarr');
    const page = await pageOf(REFUSED_USER);
    const inbox = await page.goto(`${app.url}/`);
    expect(inbox?.status()).toBe(403);
    expect(await text(page)).toContain('Not allowed');
    expect(await text(page)).not.toContain('Hedy Lamarr');
    const run = await page.goto(`${app.url}/runs/${id}`);
    expect(run?.status()).toBe(403);
    expect(await text(page)).not.toContain('Hedy Lamarr');
    const posted = await page.request.post(`${app.url}/runs/${id}/decide`, {
      form: { [`decision:${actionId}`]: 'approve' },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(403);
    expect(app.log.salaries.filter((each) => each.employee === 'Hedy Lamarr')).toEqual([]);
    expect((await app.store.load(id))?.status).toBe('suspended');
  });

  it('shows a tool argument holding <script> as text, and runs none of it', async () => {
    const name = '<script>alert(document.domain)</script><img src=x onerror=alert(1)> Ida';
    const { id } = await salaryRun(name);
    const page = await pageOf('ann');
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    for (const path of ['/', `/runs/${id}`]) {
      await page.goto(`${app.url}${path}`);
      expect(await page.getByText(name).count()).toBeGreaterThan(0);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      const scripts = await page
        .locator('script')
        .evaluateAll((nodes) => nodes.map((node) => node.textContent));
      expect(scripts.join('\n')).not.toContain('document.domain');
    }
    expect(dialogs).toEqual([]);
  });

  it('the approval-inbox example: the HR agent waits, a person edits the salary and approves, the tool runs once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-example-inbox-'));
    const inbox = await startApprovalInbox({ dir, port: 0 });
    try {
      const page = await pageOf('hr-manager');
      await page.setViewportSize({ width: 1200, height: 380 });
      await page.goto(inbox.url);
      const row = page.locator('tr', { hasText: 'update_salary' });
      expect(await row.count()).toBe(1);
      expect(await row.textContent()).toContain('55000');

      const shot = join(dir, 'inbox.png');
      await page.screenshot({ path: shot });
      expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
      // UPDATE_SCREENSHOTS=1 refreshes the README's picture.
      if (process.env.UPDATE_SCREENSHOTS) {
        copyFileSync(shot, join(import.meta.dirname, '../../../examples/approval-inbox/inbox.png'));
      }

      await row.getByRole('link', { name: 'Open' }).click();
      const form = page.locator('fieldset[id^="action-"]');
      expect(await form.count()).toBe(1);
      await form.getByLabel('Approve with edited arguments').check();
      await form.getByLabel(/^salary\b/).fill('56000');
      await decide(page);
      expect(page.url()).toContain(`${inbox.url}runs/`);
      expect(await text(page)).toContain('The run completed');
      expect(inbox.ledger.changes()).toEqual([{ employeeId: 'E-42', salary: 56_000 }]);
    } finally {
      await inbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
