import type { ToolPolicy } from '@agent-continuations/core';
import { type ContinuationStore, createMemoryStore, type SuspendedResult } from '@agent-continuations/core';
import { createPostgresStore } from '@agent-continuations/store-postgres';
import { createRedisStore } from '@agent-continuations/store-redis';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  client,
  deskAgent,
  formToken,
  hrAgents,
  type Ledger,
  paymentsAgent,
  SALARY_ACTION,
  testConsole,
} from './fixtures';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Each store, fresh per test; Postgres in a throw-away schema, Redis under a throw-away prefix. */
const stores: Array<[string, () => ContinuationStore]> = [
  ['memory', () => createMemoryStore()],
  ['sqlite', () => createSqliteStore({ path: ':memory:' })],
  [
    'postgres',
    () => {
      const schema = `console_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const store = createPostgresStore({ connectionString: PG_URL, schema });
      return Object.assign(Object.create(store) as ContinuationStore, {
        close: async () => {
          await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await store.close();
        },
      });
    },
  ],
  ['redis', () => createRedisStore({ url: REDIS_URL, prefix: `ac-console-${crypto.randomUUID()}:` })],
];

const encoded = (id: string) => encodeURIComponent(id);

describe.each(stores)('console over the %s store', (_name, makeStore) => {
  let store: ContinuationStore;
  afterEach(async () => {
    await store?.close?.();
  });

  async function suspendedHr(ledger: Ledger, args?: Parameters<typeof hrAgents>[1], metadata = {}) {
    store = makeStore();
    const agents = hrAgents(ledger, args);
    const result = (await agents.hr.run('Raise Ann', { metadata })) as SuspendedResult;
    expect(result.status).toBe('suspended');
    await store.save(result.continuation);
    const inbox = testConsole(store, { agents: { hr: agents.hr } });
    return { agents, id: result.continuation.id, inbox, runId: result.continuation.runId };
  }

  it('lists a depth-3 action in the inbox with its chain, and filters by agent, tool, metadata and age', async () => {
    const { inbox, id } = await suspendedHr({ runs: [] }, undefined, { tenant: 'acme' });
    const browser = client(inbox);
    const page = await browser.get('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('hr › payroll › benefits › update_salary');
    expect(page.text).toContain(`/runs/${encoded(id)}#action-${SALARY_ACTION}`);
    expect((await browser.get('/?agent=benefits')).text).toContain('update_salary');
    expect((await browser.get('/?tool=update_salary')).text).toContain('update_salary');
    expect((await browser.get('/?tool=other')).text).toContain('No pending actions.');
    expect((await browser.get('/?meta.tenant=acme')).text).toContain('update_salary');
    expect((await browser.get('/?metaFilter=tenant%3Dother')).text).toContain('No pending actions.');
    expect((await browser.get('/?olderThan=2d')).text).toContain('No pending actions.');
    expect((await browser.get('/?newerThan=1h')).text).toContain('update_salary');
    expect((await browser.get('/?olderThan=soon')).status).toBe(400);
  });

  it('pages through the store with its cursor, newest first, also while runs are saved between pages', async () => {
    store = makeStore();
    const suspend = async (index: number) => {
      const { hr } = hrAgents({ runs: [] });
      const result = (await hr.run(`Raise ${index}`)) as SuspendedResult;
      await store.save(result.continuation);
      return result.continuation.id;
    };
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) ids.push(await suspend(index));
    const browser = client(testConsole(store, { agents: {}, pageSize: 2 }));
    const listed = (text: string) =>
      [...text.matchAll(/href="\/runs\/([^"#]+)#/g)].map((match) => decodeURIComponent(match[1]!));
    const pages: string[][] = [];
    let path: string | undefined = '/';
    for (let count = 0; path && count < 5; count++) {
      const page = await browser.get(path);
      expect(page.status).toBe(200);
      pages.push(listed(page.text));
      path = /<a href="([^"]+)">Next page<\/a>/.exec(page.text)?.[1]?.replaceAll('&amp;', '&');
      // A run that suspends while someone pages is on the first page, not in the later ones.
      if (count === 0) ids.push(await suspend(9));
    }
    expect(pages).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
    expect(listed((await browser.get('/')).text)).toEqual([ids[5], ids[4]]);
  });

  it('shows the run: the chain with the arguments at each level, the transcript, a generated form', async () => {
    const { inbox, id } = await suspendedHr({ runs: [] });
    const page = await client(inbox).get(`/runs/${encoded(id)}`);
    expect(page.status).toBe(200);
    // Each level's tool call, with its arguments.
    expect(page.text).toContain('&quot;input&quot;: &quot;raise for Ann&quot;');
    expect(page.text).toContain('&quot;input&quot;: &quot;raise E-42&quot;');
    expect(page.text).toContain('&quot;salary&quot;: 60000');
    // A form generated from update_salary's schema, with the browser's own validation.
    expect(page.text).toMatch(
      /<input type="number"[^>]*name="arg:call_payroll\/call_benefits\/call_salary:salary"[^>]*value="60000"[^>]*step="1"[^>]*min="1"[^>]*max="500000"[^>]*required/,
    );
    expect(page.text).toMatch(/<label for="[^"]+">salary \(required\)<\/label>/);
    expect(page.text).toContain('Approve with edited arguments');
    expect(page.text).toContain('<button type="submit">Submit decisions</button>');
    expect(page.text).toContain('<h2 id="h-transcript">Transcript</h2>');
    expect(page.text).toContain('calls <code>update_salary</code>');
  });

  it('refuses edited arguments that fail the schema (422, nothing runs), then applies valid ones: the tool runs once with them', async () => {
    const ledger: Ledger = { runs: [] };
    const { inbox, id, runId } = await suspendedHr(ledger);
    const browser = client(inbox);
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    const invalid = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`arg:${SALARY_ACTION}:employeeId`]: 'E-42',
      [`arg:${SALARY_ACTION}:salary`]: '-5',
    });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('role="alert"');
    expect(invalid.text).toContain('arguments.salary');
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).toBe('suspended');

    // Outside the console's subset of JSON Schema (multipleOf): the tool's own validation refuses it.
    const fractional = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`arg:${SALARY_ACTION}:employeeId`]: 'E-42',
      [`arg:${SALARY_ACTION}:salary`]: '61050',
    });
    expect(fractional.status).toBe(422);
    expect(fractional.text).toContain('update_salary');
    // The form comes back with what the person typed.
    expect(fractional.text).toContain('value="61050"');
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).toBe('suspended');

    const valid = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`arg:${SALARY_ACTION}:employeeId`]: 'E-42',
      [`arg:${SALARY_ACTION}:salary`]: '61000',
      [`reason:${SALARY_ACTION}`]: 'agreed in review',
    });
    expect(valid.status).toBe(303);
    expect(valid.location).toBe(`/runs/${encoded(id)}?outcome=completed`);
    expect(ledger.runs).toEqual([{ employeeId: 'E-42', salary: 61_000 }]);
    expect((await store.load(id))!.status).toBe('completed');
    const done = await browser.get(valid.location!);
    expect(done.text).toContain('The run completed.');
    expect((await store.list({ runId })).items).toHaveLength(1);
  });

  it('rejects with a reason: the model receives it, the tool never runs', async () => {
    const ledger: Ledger = { runs: [] };
    const { inbox, id, agents } = await suspendedHr(ledger);
    const browser = client(inbox, 'bob');
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    const response = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'reject',
      [`reason:${SALARY_ACTION}`]: 'over budget this quarter',
    });
    expect(response.status).toBe(303);
    expect(ledger.runs).toEqual([]);
    const seen = JSON.stringify(agents.benefitsModel.calls.at(-1)!.messages);
    expect(seen).toContain('over budget this quarter');
  });

  it('cancels a whole run: every action rejected with the reason, nothing runs, the run page says who and why', async () => {
    const ledger: Ledger = { runs: [] };
    const { inbox, id, agents } = await suspendedHr(ledger);
    const calls = agents.benefitsModel.calls.length;
    const browser = client(inbox, 'bob');
    const page = await browser.get(`/runs/${encoded(id)}`);
    expect(page.text).toContain('End the whole run');
    const csrf = formToken(page.text)!;
    // Without the form's token nothing is cancelled.
    expect((await browser.post(`/runs/${encoded(id)}/cancel`, { reason: 'x' })).status).toBe(403);
    expect((await store.load(id))?.status).toBe('suspended');
    const response = await browser.post(`/runs/${encoded(id)}/cancel`, { csrf, reason: 'Duplicate request' });
    expect(response.status).toBe(303);
    expect(response.location).toBe(`/runs/${encoded(id)}?outcome=cancelled`);
    expect(ledger.runs).toEqual([]);
    expect(agents.benefitsModel.calls).toHaveLength(calls);
    expect(await store.load(id)).toMatchObject({
      status: 'cancelled',
      resumedBy: 'bob',
      reason: 'Duplicate request',
    });
    const after = await browser.get(response.location!);
    expect(after.text).toContain('The run was cancelled');
    expect(after.text).toContain('Cancelled by bob');
    expect(after.text).toContain('Duplicate request');
    expect(after.text).not.toContain('End the whole run');
    expect((await browser.get('/')).text).not.toContain(encoded(id));
    // Neither a second cancel nor a decision applies any more.
    const again = await browser.post(`/runs/${encoded(id)}/cancel`, { csrf, reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('cancelled');
    const decided = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(decided.status).toBe(409);
    expect(ledger.runs).toEqual([]);
  });

  it('a cancel needs the right to reject every action of the run: refused, the run still waits', async () => {
    const ledger: Ledger = { runs: [] };
    const { id, agents } = await suspendedHr(ledger);
    const inbox = testConsole(store, {
      agents: { hr: agents.hr },
      authorize: (request, access) => {
        const user = request.headers.get('x-user');
        if (!user) return undefined;
        if (access.kind === 'decide' && user === 'viewer') return undefined;
        return { id: user };
      },
    });
    const browser = client(inbox, 'viewer');
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    const response = await browser.post(`/runs/${encoded(id)}/cancel`, { csrf, reason: 'no' });
    expect(response.status).toBe(403);
    expect((await store.load(id))?.status).toBe('suspended');
    expect(ledger.runs).toEqual([]);
  });

  it('answers an input request', async () => {
    store = makeStore();
    const { desk, model } = deskAgent();
    const result = (await desk.run('Ask the manager')) as SuspendedResult;
    await store.save(result.continuation);
    const inbox = testConsole(store, { agents: { desk } });
    const browser = client(inbox);
    const id = result.continuation.id;
    const page = await browser.get(`/runs/${encoded(id)}`);
    expect(page.text).toContain('Answer');
    expect(page.text).not.toContain('Approve with edited arguments');
    const csrf = formToken(page.text)!;
    const wrong = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      'decision:call_ask': 'input',
      'value:call_ask': '{"ship":"maybe"}',
    });
    expect(wrong.status).toBe(422);
    const answered = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      'decision:call_ask': 'input',
      'value:call_ask': '{"ship":true}',
    });
    expect(answered.status).toBe(303);
    expect(JSON.stringify(model.calls.at(-1)!.messages)).toContain('"ship":true');
  });

  it('two people deciding the same action at once: the tool runs once, the loser gets 409 naming the winner', async () => {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const ledger: Ledger = {
      runs: [],
      gate: { entered: () => entered(), release: new Promise<void>((resolve) => (release = resolve)) },
    };
    const { inbox, id } = await suspendedHr(ledger);
    const ann = client(inbox, 'ann');
    const bob = client(inbox, 'bob');
    const annToken = await ann.csrf(`/runs/${encoded(id)}`);
    const bobToken = await bob.csrf(`/runs/${encoded(id)}`);
    const first = ann.post(`/runs/${encoded(id)}/decide`, {
      csrf: annToken,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    await inside;
    const second = await bob.post(`/runs/${encoded(id)}/decide`, {
      csrf: bobToken,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(second.status).toBe(409);
    expect(second.text).toContain('Someone is deciding this run right now');
    release();
    expect((await first).status).toBe(303);
    expect(ledger.runs).toHaveLength(1);

    // A double submit after the run moved on: 409 again, naming who decided, nothing runs.
    const again = await bob.post(`/runs/${encoded(id)}/decide`, {
      csrf: bobToken,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain('Already decided');
    expect(again.text).toContain('Decided by ann');
    expect(ledger.runs).toHaveLength(1);
  });

  it('two console processes: the loser names the winner from the store even though the run completed', async () => {
    const ledger: Ledger = { runs: [] };
    const { agents, id } = await suspendedHr(ledger);
    // Two consoles share nothing but the store, as two processes behind a load balancer would.
    const ann = client(testConsole(store, { agents: { hr: agents.hr } }), 'ann');
    const bob = client(testConsole(store, { agents: { hr: agents.hr } }), 'bob');
    const annToken = await ann.csrf(`/runs/${encoded(id)}`);
    const bobToken = await bob.csrf(`/runs/${encoded(id)}`);
    const won = await ann.post(`/runs/${encoded(id)}/decide`, {
      csrf: annToken,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(won.status).toBe(303);
    expect(won.location).toBe(`/runs/${encoded(id)}?outcome=completed`);
    // No later continuation holds an audit trail: the store names who resumed the run.
    expect((await store.list({ status: 'suspended' })).items).toEqual([]);
    expect(await store.load(id)).toMatchObject({ status: 'completed', resumedBy: 'ann' });
    const lost = await bob.post(`/runs/${encoded(id)}/decide`, {
      csrf: bobToken,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(lost.status).toBe(409);
    expect(lost.text).toContain('Already decided');
    expect(lost.text).toContain('Decided by ann;');
    expect(ledger.runs).toHaveLength(1);
    expect((await bob.get(`/runs/${encoded(id)}`)).text).toContain('<dt>Resumed by</dt><dd>ann</dd>');
  });

  it('two submits racing without a gate: one applies, the other is refused, the tool runs once', async () => {
    const ledger: Ledger = { runs: [] };
    const { inbox, id } = await suspendedHr(ledger);
    const ann = client(inbox, 'ann');
    const bob = client(inbox, 'bob');
    const tokens = [await ann.csrf(`/runs/${encoded(id)}`), await bob.csrf(`/runs/${encoded(id)}`)];
    const statuses = await Promise.all(
      [ann, bob].map((browser, index) =>
        browser.post(`/runs/${encoded(id)}/decide`, {
          csrf: tokens[index]!,
          [`decision:${SALARY_ACTION}`]: 'approve',
        }),
      ),
    );
    expect(statuses.map((each) => each.status).sort()).toEqual([303, 409]);
    expect(ledger.runs).toHaveLength(1);
  });

  it('refuses a write without the CSRF token, with a wrong one or from another origin: 403, nothing runs', async () => {
    const ledger: Ledger = { runs: [] };
    const { inbox, id } = await suspendedHr(ledger);
    const browser = client(inbox);
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    const decide = { [`decision:${SALARY_ACTION}`]: 'approve' };
    expect((await browser.post(`/runs/${encoded(id)}/decide`, decide)).status).toBe(403);
    expect((await browser.post(`/runs/${encoded(id)}/decide`, { ...decide, csrf: `${csrf}x` })).status).toBe(
      403,
    );
    expect(
      (
        await browser.post(
          `/runs/${encoded(id)}/decide`,
          { ...decide, csrf },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403);
    // Another session's token does not fit this session's cookie.
    const other = await client(inbox).csrf(`/runs/${encoded(id)}`);
    expect((await browser.post(`/runs/${encoded(id)}/decide`, { ...decide, csrf: other })).status).toBe(403);
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).toBe('suspended');
  });

  it('refuses to decide a run that waited past its deadline: 410, nothing runs', async () => {
    store = makeStore();
    const ledger: Ledger = { runs: [] };
    const { hr } = hrAgents(ledger);
    const result = (await hr.run('Raise Ann')) as SuspendedResult;
    await store.save(result.continuation, { expiresAt: new Date(Date.now() + 60_000) });
    const inbox = testConsole(store, { agents: { hr } });
    const browser = client(inbox);
    const id = result.continuation.id;
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    // The deadline passes: saved again with an expiry in the past.
    await store.save(result.continuation, { expiresAt: new Date(Date.now() - 1000) });
    const late = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(late.status).toBe(410);
    expect(ledger.runs).toEqual([]);
  });

  it('refuses an unauthorized user: 403 on every page and write, nothing runs', async () => {
    const ledger: Ledger = { runs: [] };
    const { inbox, id } = await suspendedHr(ledger);
    const stranger = client(inbox, 'nobody');
    expect((await stranger.get('/')).status).toBe(403);
    expect((await stranger.get(`/runs/${encoded(id)}`)).status).toBe(403);
    // A session whose CSRF token is valid, once the user is one `authorize` refuses.
    const browser = client(inbox, 'ann');
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    browser.as('nobody');
    const deciding = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(deciding.status).toBe(403);
    expect(ledger.runs).toEqual([]);
  });

  it('hides from the inbox the runs authorize refuses to show', async () => {
    store = makeStore();
    const { hr } = hrAgents({ runs: [] });
    const { desk } = deskAgent();
    const hrRun = (await hr.run('Raise Ann')) as SuspendedResult;
    const deskRun = (await desk.run('Ask')) as SuspendedResult;
    await store.save(hrRun.continuation);
    await store.save(deskRun.continuation);
    const inbox = testConsole(store, {
      agents: { hr, desk },
      authorize: (_request, access) =>
        access.kind === 'read' && access.continuationId === deskRun.continuation.id
          ? undefined
          : { id: 'ann' },
    });
    const browser = client(inbox);
    const page = await browser.get('/');
    expect(page.text).toContain('update_salary');
    expect(page.text).not.toContain('ask_manager');
    // A run the person may not see answers as one that does not exist.
    const hidden = await browser.get(`/runs/${encoded(deskRun.continuation.id)}`);
    const missing = await browser.get('/runs/no-such-run');
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe(missing.text);
  });

  it('renders a <script> in tool arguments as text', async () => {
    const { inbox, id } = await suspendedHr(
      { runs: [] },
      {
        employeeId: '<script>alert("x")</script>',
        salary: 60_000,
        note: '"><img src=x onerror=alert(1)>',
      },
    );
    const browser = client(inbox);
    for (const path of ['/', `/runs/${encoded(id)}`]) {
      const response = await inbox.fetch(
        new Request(`http://console.test${path}`, { headers: { 'x-user': 'ann' } }),
      );
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      const page = await browser.get(path);
      expect(page.text).not.toContain('<script>alert');
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).toContain('&lt;script&gt;alert(');
    }
  });

  it('records the deciding identity as `by` in the audit trail of the next suspension', async () => {
    store = makeStore();
    const ledger: Ledger = { runs: [] };
    const first = hrAgents(ledger);
    const { desk } = deskAgent();
    // Two actions in two runs; decide the hr one and look at nothing else moving.
    const hrRun = (await first.hr.run('Raise Ann')) as SuspendedResult;
    const deskRun = (await desk.run('Ask')) as SuspendedResult;
    await store.save(hrRun.continuation);
    await store.save(deskRun.continuation);
    const inbox = testConsole(store, { agents: { hr: first.hr, desk } });
    const browser = client(inbox, 'carol@example.com');
    const listing = await browser.get('/');
    expect(listing.text).toContain('update_salary');
    expect(listing.text).toContain('ask_manager');
    const csrf = await browser.csrf(`/runs/${encoded(hrRun.continuation.id)}`);
    const decided = await browser.post(`/runs/${encoded(hrRun.continuation.id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(decided.status).toBe(303);
    expect((await store.load(deskRun.continuation.id))!.status).toBe('suspended');
    expect(ledger.runs).toEqual([{ employeeId: 'E-42', salary: 60_000 }]);
  });

  it('decides several actions of a run in one form; a later console names the decider from the audit trail', async () => {
    store = makeStore();
    const sent: string[] = [];
    const payments = paymentsAgent(sent);
    const result = (await payments.run('Pay both')) as SuspendedResult;
    await store.save(result.continuation);
    const id = result.continuation.id;
    const ann = client(testConsole(store, { agents: { payments } }), 'ann');
    const csrf = await ann.csrf(`/runs/${encoded(id)}`);
    const decided = await ann.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      'decision:call_a': 'approve',
      'decision:call_b': 'reject',
      'reason:call_b': 'duplicate',
    });
    expect(decided.status).toBe(303);
    expect(sent).toEqual(['10 to ann']);
    const next = (await store.list({ runId: result.continuation.runId, status: 'suspended' })).items[0]!;
    expect(decided.location).toBe(`/runs/${encoded(next.id)}?outcome=suspended`);
    const trail = (await store.load(next.id))!.continuation.decisions;
    expect(trail.map((entry) => [entry.actionId, entry.type, entry.by, entry.reason])).toEqual([
      ['call_a', 'approve', 'ann', undefined],
      ['call_b', 'reject', 'ann', 'duplicate'],
    ]);
    const nextPage = await ann.get(decided.location!);
    expect(nextPage.text).toContain('The run went on and waits again.');
    expect(nextPage.text).toContain('duplicate');

    // Another console process, without this one's memory: the audit trail names the decider.
    const bob = client(testConsole(store, { agents: { payments } }), 'bob');
    const bobToken = await bob.csrf(`/runs/${encoded(next.id)}`);
    const late = await bob.post(`/runs/${encoded(id)}/decide`, {
      csrf: bobToken,
      'decision:call_a': 'approve',
    });
    expect(late.status).toBe(409);
    expect(late.text).toContain('Decided by ann');
    expect(sent).toEqual(['10 to ann']);
    // The old continuation's page points at the run's latest one.
    expect((await bob.get(`/runs/${encoded(id)}`)).text).toContain(`/runs/${encoded(next.id)}`);
  });

  it('approval links: confirm, then the same link again is refused; expired and forged links do nothing', async () => {
    const ledger: Ledger = { runs: [] };
    const { inbox, id } = await suspendedHr(ledger);
    const url = await inbox.links.url(id, SALARY_ACTION, 'approve');
    const path = new URL(url).pathname;
    // Opened by someone the app does not know: the link itself authorizes it.
    const visitor = client(inbox, '');
    const confirm = await visitor.get(path);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('<button type="submit">Approve</button>');
    expect(confirm.text).toContain('&quot;salary&quot;: 60000');
    expect(ledger.runs).toEqual([]);
    const csrf = formToken(confirm.text)!;
    expect((await visitor.post(path, {})).status).toBe(403);
    const applied = await visitor.post(path, { csrf });
    expect(applied.status).toBe(303);
    expect(ledger.runs).toHaveLength(1);
    // Nobody identified decided: the claim was the console's own.
    expect((await store.load(id))?.resumedBy).toBe('console');

    const reused = await visitor.post(path, { csrf });
    expect(reused.status).toBe(409);
    expect(reused.text).toContain('This link was already used.');
    // The store kept the console's own claim owner: nobody identified decided.
    expect(reused.text).toContain('Decided by console');
    expect((await visitor.get(path)).status).toBe(409);
    expect(ledger.runs).toHaveLength(1);

    const next = await suspendedHr(ledger);
    const expired = await next.inbox.links.url(next.id, SALARY_ACTION, 'approve', {
      expiresAt: new Date(Date.now() - 1000),
    });
    const expiredPath = new URL(expired).pathname;
    const late = client(next.inbox, 'ann');
    expect((await late.get(expiredPath)).status).toBe(410);
    const lateToken = await late.csrf(`/runs/${encoded(next.id)}`);
    const expiredPost = await late.post(expiredPath, { csrf: lateToken });
    expect(expiredPost.status).toBe(410);
    expect(expiredPost.text).toContain('This link has expired');

    const good = new URL(await next.inbox.links.url(next.id, SALARY_ACTION, 'reject')).pathname;
    const forged = good.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect((await late.get(forged)).status).toBe(400);
    expect((await late.post(forged, { csrf: lateToken })).status).toBe(400);
    const goneAction = new URL(await next.inbox.links.url(next.id, 'call_payroll/nope', 'approve')).pathname;
    expect((await late.get(goneAction)).status).toBe(404);
    expect(ledger.runs).toHaveLength(1);
    expect((await store.load(next.id))!.status).toBe('suspended');

    // A reject link carries the reason the person types.
    const rejectPage = await late.get(good);
    expect(rejectPage.text).toContain('<button type="submit">Reject</button>');
    const rejectToken = formToken(rejectPage.text)!;
    expect((await late.post(good, { csrf: rejectToken, reason: 'not now' })).status).toBe(303);
    expect(JSON.stringify(next.agents.benefitsModel.calls.at(-1)!.messages)).toContain('not now');
    expect(ledger.runs).toHaveLength(1);
  });
});

describe('console options', () => {
  it('hands decisions to submitDecisions instead of resuming, once', async () => {
    const store = createMemoryStore();
    const ledger: Ledger = { runs: [] };
    const agents = hrAgents(ledger);
    const result = (await agents.hr.run('Raise Ann')) as SuspendedResult;
    await store.save(result.continuation);
    const submitted: Array<[string, unknown]> = [];
    const inbox = testConsole(store, {
      agents: { hr: agents.hr },
      submitDecisions: async (id, decisions) => {
        submitted.push([id, decisions]);
      },
      basePath: '/inbox',
    });
    const browser = client(inbox, 'dan');
    const id = result.continuation.id;
    const csrf = await browser.csrf(`/inbox/runs/${encoded(id)}`);
    const invalid = await browser.post(`/inbox/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`arg:${SALARY_ACTION}:employeeId`]: 'E-42',
      [`arg:${SALARY_ACTION}:salary`]: '1.5',
    });
    expect(invalid.status).toBe(422);
    expect(submitted).toEqual([]);
    const ok = await browser.post(`/inbox/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe(`/inbox/runs/${encoded(id)}?outcome=submitted`);
    expect(submitted).toEqual([[id, { [SALARY_ACTION]: { type: 'approve', by: 'dan' } }]]);
    const twice = await browser.post(`/inbox/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    // The console holds nothing of a hand-off: the worker's claim runs it once; the store still
    // says suspended until the worker claims it, so the second is handed over too.
    expect(twice.status).toBe(303);
    expect(submitted).toHaveLength(2);
    expect(ledger.runs).toEqual([]);
  });

  it('a hand-off that claims the record (as the worker does): the run reads as being resumed, a second decision gets 409', async () => {
    const store = createMemoryStore();
    const ledger: Ledger = { runs: [] };
    const agents = hrAgents(ledger);
    const result = (await agents.hr.run('Raise Ann')) as SuspendedResult;
    await store.save(result.continuation);
    const submitted: string[] = [];
    let raced = false;
    const inbox = testConsole(store, {
      agents: { hr: agents.hr },
      // What the pg-boss worker's submitDecisions does before it enqueues: claim the record.
      submitDecisions: async (id) => {
        if (raced) await store.claim(id, { owner: 'another console', leaseMs: 60_000 });
        await store.claim(id, { owner: 'handed-off', leaseMs: 60_000 });
        submitted.push(id);
      },
    });
    const id = result.continuation.id;
    const [dan, eve] = [client(inbox, 'dan'), client(inbox, 'eve')];
    const csrfs = [await dan.csrf(`/runs/${encoded(id)}`), await eve.csrf(`/runs/${encoded(id)}`)];
    const first = await dan.post(`/runs/${encoded(id)}/decide`, {
      csrf: csrfs[0]!,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(first.status).toBe(303);
    const page = await dan.get(`/runs/${encoded(id)}`);
    expect(page.text).toContain('being resumed');
    expect(page.text).not.toContain(`decision:${SALARY_ACTION}`);
    expect((await dan.get('/')).text).toContain('No pending actions.');
    const second = await eve.post(`/runs/${encoded(id)}/decide`, {
      csrf: csrfs[1]!,
      [`decision:${SALARY_ACTION}`]: 'reject',
    });
    expect(second.status).toBe(409);
    expect(second.text).toContain('Being decided');
    expect(submitted).toEqual([id]);

    // Claimed elsewhere after the page's check, before the hand-off's own claim (another console
    // process was quicker): the refusal is answered as a lost race, not as a failure.
    const other = (await agents.hr.run('Raise Ann')) as SuspendedResult;
    await store.save(other.continuation);
    const otherId = other.continuation.id;
    raced = true;
    const late = await dan.post(`/runs/${encoded(otherId)}/decide`, {
      csrf: await dan.csrf(`/runs/${encoded(otherId)}`),
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(late.status).toBe(409);
    expect(late.text).toContain('Being decided');
    expect(submitted).toEqual([id]);
    expect(ledger.runs).toEqual([]);
  });

  it('a run its agent says moved on (a thread resumed natively) offers nothing: not listed, no form, a decision refused', async () => {
    const store = createMemoryStore();
    const ledger: Ledger = { runs: [] };
    const agents = hrAgents(ledger);
    const result = (await agents.hr.run('Raise Ann')) as SuspendedResult;
    await store.save(result.continuation);
    let moved = false;
    const hr = { ...agents.hr, movedOn: async () => moved };
    const inbox = testConsole(store, { agents: { hr } });
    const browser = client(inbox, 'dan');
    const id = result.continuation.id;
    expect((await browser.get('/')).text).toContain('update_salary');
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    moved = true;
    expect((await browser.get('/')).text).toContain('No pending actions.');
    const page = await browser.get(`/runs/${encoded(id)}`);
    expect(page.text).toContain('its LangGraph thread was resumed natively');
    expect(page.text).not.toContain(`decision:${SALARY_ACTION}`);
    const decided = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
    });
    expect(decided.status).toBe(409);
    expect(decided.text).toContain('went on without it');
    expect(ledger.runs).toEqual([]);
  });

  it('without the agent, edits the arguments as JSON', async () => {
    const store = createMemoryStore();
    const agents = hrAgents({ runs: [] });
    const result = (await agents.hr.run('Raise Ann')) as SuspendedResult;
    await store.save(result.continuation);
    const submitted: unknown[] = [];
    const inbox = testConsole(store, {
      submitDecisions: async (_id, decisions) => void submitted.push(decisions),
    });
    const browser = client(inbox);
    const id = result.continuation.id;
    const page = await browser.get(`/runs/${encoded(id)}`);
    expect(page.text).toMatch(
      /<label for="[^"]+">Arguments \(JSON\)<\/label><textarea[^>]*name="args:call_payroll\/call_benefits\/call_salary"/,
    );
    const csrf = formToken(page.text)!;
    const broken = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`args:${SALARY_ACTION}`]: '{"salary": ',
    });
    expect(broken.status).toBe(422);
    expect(broken.text).toContain('not valid JSON');
    const edited = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`args:${SALARY_ACTION}`]: '{"employeeId": "E-42", "salary": 70000}',
    });
    expect(edited.status).toBe(303);
    expect(submitted).toEqual([
      { [SALARY_ACTION]: { type: 'approve', args: { employeeId: 'E-42', salary: 70_000 }, by: 'ann' } },
    ]);
  });

  /** A suspended salary change in a console whose policy for it is `policy`. */
  async function underPolicy(policy: ToolPolicy) {
    const store = createMemoryStore();
    const ledger: Ledger = { runs: [] };
    const agents = hrAgents(ledger, undefined, policy);
    const result = (await agents.hr.run('Raise Ann')) as SuspendedResult;
    await store.save(result.continuation);
    const inbox = testConsole(store, { agents: { hr: agents.hr } });
    return { store, ledger, result, inbox };
  }

  it('offers only the decisions a policy allows, and refuses others on submit', async () => {
    const { ledger, result, inbox } = await underPolicy({
      description: 'Salary changes need HR sign-off',
      allowedDecisions: ['approve', 'reject'],
    });
    const browser = client(inbox);
    const id = result.continuation.id;
    const page = await browser.get(`/runs/${encoded(id)}`);
    expect(page.text).toContain('Salary changes need HR sign-off');
    expect(page.text).not.toContain('Approve with edited arguments');
    const csrf = formToken(page.text)!;
    const refused = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`arg:${SALARY_ACTION}:employeeId`]: 'E-42',
      [`arg:${SALARY_ACTION}:salary`]: '1',
    });
    expect(refused.status).toBe(422);
    expect(ledger.runs).toEqual([]);
  });

  it('an approval link obeys the policy the form obeys: a decision it forbids is refused and nothing runs', async () => {
    const { store, ledger, result, inbox } = await underPolicy({ allowedDecisions: ['reject'] });
    const id = result.continuation.id;
    const approve = new URL(await inbox.links.url(id, SALARY_ACTION, 'approve')).pathname;
    const visitor = client(inbox, '');
    const shown = await visitor.get(approve);
    expect(shown.status).toBe(403);
    expect(shown.text).toContain('does not allow the decision &quot;approve&quot;');
    expect(shown.text).not.toContain('<button type="submit">Approve</button>');
    const reject = new URL(await inbox.links.url(id, SALARY_ACTION, 'reject')).pathname;
    const rejectPage = await visitor.get(reject);
    expect(rejectPage.status).toBe(200);
    const csrf = formToken(rejectPage.text)!;
    expect((await visitor.post(approve, { csrf })).status).toBe(403);
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).toBe('suspended');
    expect((await visitor.post(reject, { csrf })).status).toBe(303);
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).not.toBe('suspended');
  });
});
