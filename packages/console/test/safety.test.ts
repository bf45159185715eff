/**
 * The console's gate and limits: two tenants whose `authorize` separates them (every route and
 * error answer checked for leaks), bodies bounded while they are read and checked after CSRF and
 * the gate, client errors answered as 4xx with a message.
 */
import { createMemoryStore, type SuspendedResult } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import type { Access } from '../src/index';
import { client, formToken, hrAgents, type Ledger, SALARY_ACTION, testConsole } from './fixtures';

const encoded = (id: string) => encodeURIComponent(id);

/** Two tenants' runs in one store; a user `name@tenant` sees only their tenant's runs. */
async function twoTenants() {
  const store = createMemoryStore();
  const ledger: Ledger = { runs: [] };
  const agents = hrAgents(ledger);
  const runOf = async (tenant: string) => {
    const result = (await agents.hr.run('Raise Ann', { metadata: { tenant } })) as SuspendedResult;
    await store.save(result.continuation);
    return result.continuation.id;
  };
  const a = await runOf('a');
  const b = await runOf('b');
  const seen: Access[] = [];
  const inbox = testConsole(store, {
    agents: { hr: agents.hr },
    authorize: (request, access) => {
      seen.push(access);
      const user = request.headers.get('x-user') ?? '';
      const tenant = user.split('@')[1];
      if (!tenant) return undefined;
      // `false`: refused even with an approval link in hand (`undefined` lets a link decide alone).
      if ('run' in access && access.run && access.run.metadata.tenant !== tenant) return false;
      return { id: user };
    },
  });
  return { store, ledger, a, b, inbox, seen };
}

describe('two tenants', () => {
  it('a person of tenant B gets, for every route and error of tenant A, the answer of a run that does not exist', async () => {
    const { store, ledger, a, b, inbox } = await twoTenants();
    const bea = client(inbox, 'bea@b');
    // Her own run gives her a valid session token.
    const csrf = await bea.csrf(`/runs/${encoded(b)}`);
    const missing = 'no-such-run';
    const same = async (path: (id: string) => string, fields?: Record<string, string>) => {
      const send = (id: string) => (fields ? bea.post(path(id), { csrf, ...fields }) : bea.get(path(id)));
      const [theirs, none] = [await send(a), await send(missing)];
      expect(theirs.status).toBe(404);
      expect(theirs.text).toBe(none.text);
      expect(theirs.text).not.toContain('update_salary');
      expect(theirs.text).not.toContain('Raise Ann');
      return theirs;
    };
    await same((id) => `/runs/${encoded(id)}`);
    const decide = (id: string) => `/runs/${encoded(id)}/decide`;
    // No decision, a bogus one, an invalid edit: each was a 422 with A's run view.
    await same(decide, {});
    await same(decide, { [`decision:${SALARY_ACTION}`]: 'bogus' });
    await same(decide, {
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`arg:${SALARY_ACTION}:salary`]: '-1',
    });
    await same(decide, { [`decision:${SALARY_ACTION}`]: 'approve' });
    // Ending the whole run, with a reason and with one past its bound.
    await same((id) => `/runs/${encoded(id)}/cancel`, { reason: 'not ours' });
    await same((id) => `/runs/${encoded(id)}/cancel`, { reason: 'x'.repeat(3000) });
    // Approval links of A's run, and of a run that does not exist.
    const link = async (id: string) => new URL(await inbox.links.url(id, SALARY_ACTION, 'approve')).pathname;
    const [linkA, linkNone] = [await link(a), await link(missing)];
    for (const send of [(path: string) => bea.get(path), (path: string) => bea.post(path, { csrf })]) {
      const [theirs, none] = [await send(linkA), await send(linkNone)];
      expect(theirs.status).toBe(404);
      expect(theirs.text).toBe(none.text);
    }
    expect((await bea.get('/')).text).not.toContain(encoded(a));
    expect(ledger.runs).toEqual([]);
    expect((await store.load(a))!.status).toBe('suspended');

    // Once A's run is decided, B still learns nothing: no 409, no decider's name.
    const ann = client(inbox, 'ann@a');
    const annToken = await ann.csrf(`/runs/${encoded(a)}`);
    expect(
      (await ann.post(decide(a), { csrf: annToken, [`decision:${SALARY_ACTION}`]: 'approve' })).status,
    ).toBe(303);
    expect(ledger.runs).toHaveLength(1);
    const decided = await same(decide, { [`decision:${SALARY_ACTION}`]: 'approve' });
    expect(decided.text).not.toContain('ann@a');
    for (const path of [`/runs/${encoded(a)}`, linkA]) {
      const page = await bea.get(path);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('ann@a');
    }
    // Ann, who may see it, is told who decided.
    const again = await ann.post(decide(a), { csrf: annToken, [`decision:${SALARY_ACTION}`]: 'approve' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('Decided by ann@a');
    expect((await ann.get(linkA)).text).toContain('Decided by ann@a');
    expect(ledger.runs).toHaveLength(1);
  });

  it('authorize is asked about the run, with its metadata, before any answer about it', async () => {
    const { a, inbox, seen } = await twoTenants();
    const bea = client(inbox, 'bea@b');
    await bea.get(`/runs/${encoded(a)}`);
    expect(seen.some((access) => 'run' in access && access.continuationId === a)).toBe(true);
    expect(seen.find((access) => access.continuationId === a)).toMatchObject({
      kind: 'read',
      run: { agentName: 'hr', metadata: { tenant: 'a' } },
    });
  });
});

describe('limits before parsing', () => {
  async function oneRun(options: Parameters<typeof testConsole>[1] = {}) {
    const store = createMemoryStore();
    const ledger: Ledger = { runs: [] };
    const agents = hrAgents(ledger);
    const result = (await agents.hr.run('Raise Ann')) as SuspendedResult;
    await store.save(result.continuation);
    const inbox = testConsole(store, { agents: { hr: agents.hr }, ...options });
    const id = result.continuation.id;
    const browser = client(inbox);
    const page = await browser.get(`/runs/${encoded(id)}`);
    const csrf = formToken(page.text)!;
    return { store, ledger, inbox, id, browser, csrf, path: `/runs/${encoded(id)}/decide` };
  }

  it('refuses a body over the limit with 413 while reading it, and reads none of a body without a token', async () => {
    const { store, ledger, inbox, id, browser, csrf, path } = await oneRun({ maxBodyBytes: 4096 });
    const big = await browser.post(path, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
      [`reason:${SALARY_ACTION}`]: 'x'.repeat(10_000),
    });
    expect(big.status).toBe(413);
    expect(big.text).toContain('larger than this console accepts');
    // A body that never ends, without a declared length: cut off past the limit.
    let pulled = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1024;
          controller.enqueue(new TextEncoder().encode('a'.repeat(1024)));
        },
      });
    const headers = (token?: string) => ({
      'x-user': 'ann',
      'content-type': 'application/x-www-form-urlencoded',
      cookie: '',
      ...(token ? {} : {}),
    });
    const untokened = await inbox.fetch(
      new Request(`http://console.test${path}`, {
        method: 'POST',
        headers: headers(),
        body: endless(),
        duplex: 'half',
      } as RequestInit),
    );
    expect(untokened.status).toBe(403);
    expect(pulled).toBeLessThanOrEqual(2048);
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).toBe('suspended');
  });

  it('refuses a reason or edited arguments past their bounds (422, nothing runs)', async () => {
    const { store, ledger, id, browser, csrf, path } = await oneRun({
      maxReasonLength: 50,
      maxArgsBytes: 200,
    });
    const reason = await browser.post(path, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
      [`reason:${SALARY_ACTION}`]: 'y'.repeat(51),
    });
    expect(reason.status).toBe(422);
    expect(reason.text).toContain('longer than 50 characters');
    const args = await browser.post(path, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'edit',
      [`arg:${SALARY_ACTION}:employeeId`]: 'E'.repeat(300),
      [`arg:${SALARY_ACTION}:salary`]: '60000',
    });
    expect(args.status).toBe(422);
    expect(args.text).toContain('larger than 200 bytes');
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).toBe('suspended');
  });

  it('answers client errors with 4xx and a message: malformed multipart, a file, duplicate fields, a bad cursor', async () => {
    const { store, ledger, inbox, id, browser, csrf, path } = await oneRun();
    const cookieHolder = await browser.get(`/runs/${encoded(id)}`);
    expect(cookieHolder.status).toBe(200);
    const duplicate = await browser.post(`${path}?csrf=${encodeURIComponent(csrf)}`, {}, {});
    expect(duplicate.status).toBe(422);
    const twice = await inbox.fetch(
      new Request(`http://console.test${path}?csrf=${encodeURIComponent(csrf)}`, {
        method: 'POST',
        headers: { 'x-user': 'ann', 'content-type': 'application/x-www-form-urlencoded' },
        body: `decision:${SALARY_ACTION}=reject&decision:${SALARY_ACTION}=approve`,
      }),
    );
    // Without the session cookie the token does not fit: the gate answers first.
    expect(twice.status).toBe(403);
    const withCookie = async (body: BodyInit, type: string) => {
      const page = await browser.get(`/runs/${encoded(id)}`);
      const token = formToken(page.text)!;
      return browser.raw(`${path}?csrf=${encodeURIComponent(token)}`, body, type);
    };
    const dup = await withCookie(
      `decision:${encodeURIComponent(SALARY_ACTION)}=reject&decision:${encodeURIComponent(SALARY_ACTION)}=approve`,
      'application/x-www-form-urlencoded',
    );
    expect(dup.status).toBe(400);
    expect(dup.text).toContain('was sent more than once');
    const multipart = await withCookie(
      '--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
      'multipart/form-data; boundary=XYZ',
    );
    expect(multipart.status).toBe(400);
    expect(multipart.text).toContain('does not parse');
    const file = new FormData();
    file.set('upload', new Blob(['x']), 'x.txt');
    const upload = await withCookie(file, '');
    expect(upload.status).toBe(400);
    expect(upload.text).toContain('is a file');
    const cursor = await browser.get('/?cursor=not-a-cursor');
    expect(cursor.status).toBe(400);
    expect(cursor.text).toContain('cursor is not one this inbox gave');
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).toBe('suspended');
  });
});

describe('configured origins', () => {
  it('takes a form only from a configured origin, not from whatever origin the Host header makes', async () => {
    const store = createMemoryStore();
    const ledger: Ledger = { runs: [] };
    const agents = hrAgents(ledger);
    const result = (await agents.hr.run('Raise Ann')) as SuspendedResult;
    await store.save(result.continuation);
    // Served as https://console.test behind a proxy that forwards plain HTTP with the same Host.
    const inbox = testConsole(store, { agents: { hr: agents.hr }, baseUrl: 'https://console.test' });
    const browser = client(inbox);
    const id = result.continuation.id;
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    const decide = { csrf, [`decision:${SALARY_ACTION}`]: 'approve' };
    const path = `/runs/${encoded(id)}/decide`;
    const hostDerived = await browser.post(path, decide, { origin: 'http://console.test' });
    expect(hostDerived.status).toBe(403);
    expect(ledger.runs).toEqual([]);
    expect((await store.load(id))!.status).toBe('suspended');
    const configured = await browser.post(path, decide, { origin: 'https://console.test' });
    expect(configured.status).toBe(303);
    expect(ledger.runs).toHaveLength(1);
  });
});

/** A suspended salary run in a fresh store, and a browser on a console over it. */
async function hrRun() {
  const store = createMemoryStore();
  const ledger: Ledger = { runs: [] };
  const agents = hrAgents(ledger);
  const result = (await agents.hr.run('Raise Ann')) as SuspendedResult;
  await store.save(result.continuation);
  const browser = client(testConsole(store, { agents: { hr: agents.hr } }));
  return { store, ledger, agents, browser, id: result.continuation.id };
}

describe('an approve with changed arguments', () => {
  it('is shown as an edit before it applies, from the form too; a cleared required field is refused with Approve', async () => {
    const { ledger, browser, id } = await hrRun();
    const csrf = await browser.csrf(`/runs/${encoded(id)}`);
    const path = `/runs/${encoded(id)}/decide`;
    const changed = await browser.post(path, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
      [`arg:${SALARY_ACTION}:employeeId`]: 'E-42',
      [`arg:${SALARY_ACTION}:salary`]: '65000',
    });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('Confirm the edit');
    expect(changed.text).toMatch(/<del>60000<\/del><\/td><td><ins>65000<\/ins>/);
    expect(ledger.runs).toEqual([]);
    const cleared = await browser.post(path, {
      csrf,
      [`decision:${SALARY_ACTION}`]: 'approve',
      [`arg:${SALARY_ACTION}:employeeId`]: '',
      [`arg:${SALARY_ACTION}:salary`]: '60000',
    });
    expect(cleared.status).toBe(422);
    expect(cleared.text).toContain('the arguments were changed');
    expect(ledger.runs).toEqual([]);
    // "Apply the edit" sends the form again as an edit: the tool runs once, with the new value.
    const confirmToken = formToken(changed.text)!;
    const hidden = Object.fromEntries(
      [...changed.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    );
    expect(hidden[`decision:${SALARY_ACTION}`]).toBe('edit');
    const applied = await browser.post(path, { csrf: confirmToken, ...hidden });
    expect(applied.status).toBe(303);
    expect(ledger.runs).toEqual([{ employeeId: 'E-42', salary: 65_000 }]);
  });

  it('rejecting with a required field cleared applies the rejection', async () => {
    const { ledger, agents, browser, id } = await hrRun();
    const page = await browser.get(`/runs/${encoded(id)}`);
    // The edit inputs leave `required` to the server, so the browser never blocks a rejection.
    expect(page.text).not.toMatch(/name="arg:[^"]+"[^>]* required[ >]/);
    const rejected = await browser.post(`/runs/${encoded(id)}/decide`, {
      csrf: formToken(page.text)!,
      [`decide:${SALARY_ACTION}`]: 'reject',
      [`arg:${SALARY_ACTION}:employeeId`]: '',
      [`reason:${SALARY_ACTION}`]: 'not now',
    });
    expect(rejected.status).toBe(303);
    expect(ledger.runs).toEqual([]);
    expect(JSON.stringify(agents.benefitsModel.calls.at(-1)!.messages)).toContain('not now');
  });
});
