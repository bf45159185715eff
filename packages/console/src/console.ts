/**
 * The console: a Hono app over a continuation store, served as a standard `fetch` handler.
 */
import {
  type Action,
  type ApprovalLink,
  type Claim,
  type ClaimOptions,
  type ContinuableAgent,
  type Continuation,
  type ContinuationStore,
  createApprovalLinks,
  type Decision,
  type Decisions,
  isContinuationError,
  type JsonObject,
  type JsonValue,
  listActions,
  type RunResult,
  resumeStored,
  type StoredContinuation,
} from '@agent-continuations/core';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { CSRF_COOKIE, csrfToken, csrfValid, newNonce } from './csrf';
import { argsFromForm, checkSchema, formFields } from './schema-form';
import { type AgentsByName, actionChain, actionResponseSchema, actionSchema, subAgentRuns } from './tools';
import {
  type ActionView,
  type Html,
  type InboxRow,
  inboxBody,
  linkBody,
  messagePage,
  page,
  runBody,
} from './views';

/** Who acts: recorded as `by` in every decision they make. */
export interface Identity {
  id: string;
  name?: string;
}

/** The kinds of decision a form can make on an action. */
export type DecisionChoice = 'approve' | 'edit' | 'reject' | 'input';

/**
 * What a request wants to do, as {@link ConsoleOptions.authorize} sees it. `via: 'link'` marks a
 * request that carries a verified approval link.
 */
export type Access =
  | { kind: 'read'; continuationId?: string; via?: 'link' }
  | {
      kind: 'decide';
      continuationId: string;
      action: Action;
      decision: DecisionChoice;
      via?: 'link';
    };

/** What a graph or agent policy says about an action (e.g. LangGraph's `actionPolicies`). */
export interface ActionPolicy {
  description?: string;
  allowedDecisions?: DecisionChoice[];
}

/** Options of {@link createConsole}. */
export interface ConsoleOptions {
  /**
   * The store the inbox reads and the decisions resume through.
   *
   * @example
   * ```ts
   * createConsole({ store: new SqliteStore({ path: 'agents.db' }), agents: { hr }, authorize, secret });
   * ```
   */
  store: ContinuationStore;
  /**
   * The agents, by name, that resume decided runs in this process (through `resumeStored`, under a
   * claim). Also used to find each tool's JSON Schema for the edit form; with `submitDecisions`
   * they are used for that only.
   *
   * @example
   * ```ts
   * createConsole({ store, agents: { hr: hrAgent, payroll: payrollAgent }, authorize, secret });
   * ```
   */
  agents?: Record<string, ContinuableAgent<any, unknown>>;
  /**
   * Hand decisions to a worker instead of resuming here, e.g. the pg-boss worker's
   * `createWorker(...).submitDecisions`.
   *
   * @example
   * ```ts
   * const worker = await createWorker({ boss, store, agents: [hr] });
   * createConsole({ store, submitDecisions: worker.submitDecisions, authorize, secret });
   * ```
   */
  submitDecisions?: (continuationId: string, decisions: Decisions) => Promise<void>;
  /**
   * Every request goes through it. Return the identity to allow; `undefined` (or `false`) to
   * refuse with a 403 page. For a request carrying a verified approval link (`access.via ===
   * 'link'`), `undefined` allows it anonymously (decisions are recorded as made by `link`) unless
   * `linksNeedIdentity` is set; `false` always refuses.
   *
   * @example
   * ```ts
   * authorize: async (request, access) => {
   *   const user = await sessionUser(request);
   *   if (!user) return undefined;
   *   if (access.kind === 'decide' && !user.roles.includes('approver')) return undefined;
   *   return { id: user.email, name: user.name };
   * },
   * ```
   */
  authorize: (
    request: Request,
    access: Access,
  ) => Identity | undefined | false | Promise<Identity | undefined | false>;
  /**
   * The secret (at least 16 bytes) that signs CSRF tokens and verifies approval links; the same one
   * the app gives `createApprovalLinks`.
   *
   * @example
   * ```ts
   * createConsole({ store, agents, authorize, secret: process.env.CONSOLE_SECRET! });
   * ```
   */
  secret: string | Uint8Array;
  /**
   * Where the console is mounted, e.g. `/inbox`: every route and link is under it.
   *
   * @example
   * ```ts
   * app.all('/inbox/*', (c) => inbox.fetch(c.req.raw)); // createConsole({ basePath: '/inbox', ... })
   * ```
   */
  basePath?: string;
  /**
   * The public URL of the console (with its `basePath`), for the approval links `links.url` makes;
   * `http://localhost` with the `basePath` by default.
   *
   * @example
   * ```ts
   * createConsole({ baseUrl: 'https://ops.example.com/inbox', basePath: '/inbox', ... });
   * ```
   */
  baseUrl?: string;
  /**
   * Origins allowed to post forms besides the request's own (when a proxy changes the host).
   *
   * @example
   * ```ts
   * createConsole({ origins: ['https://ops.example.com'], ... });
   * ```
   */
  origins?: string[];
  /**
   * Per-action policies the framework keeps in the continuation (description, allowed decisions),
   * honoured by the forms and checked again on submit; `action.allowedDecisions` is honoured too.
   *
   * @example
   * ```ts
   * import { actionPolicies } from '@agent-continuations/langgraph';
   * createConsole({ policies: actionPolicies, ... });
   * ```
   */
  policies?: (continuation: Continuation) => Record<string, ActionPolicy>;
  /**
   * Refuse approval links from requests `authorize` does not identify.
   *
   * @example
   * ```ts
   * createConsole({ linksNeedIdentity: true, ... });
   * ```
   */
  linksNeedIdentity?: boolean;
  /**
   * Claim owner recorded by the store for resumes made here that no identified person decided (an
   * approval link opened by someone `authorize` does not name); `console` by default. A decision by
   * an identified person claims with that person's id, which the store keeps as `resumedBy`, so
   * that any console process can later say who decided a run that completed.
   *
   * @example
   * ```ts
   * createConsole({ owner: `console-${hostname()}`, ... });
   * ```
   */
  owner?: string;
  /**
   * Continuations listed per inbox page; 20 by default.
   *
   * @example
   * ```ts
   * createConsole({ pageSize: 50, ... });
   * ```
   */
  pageSize?: number;
}

/** A console: a `fetch` handler, the Hono app behind it, and approval links that point at it. */
export interface Console {
  /**
   * Answer one request.
   *
   * @example
   * ```ts
   * export const GET = (request: Request) => inbox.fetch(request); // a Next.js route handler
   * ```
   */
  fetch(request: Request): Promise<Response>;
  /**
   * The Hono app, to mount with `app.route(...)` or to add middleware to.
   *
   * @example
   * ```ts
   * inbox.app.use('*', logger());
   * ```
   */
  app: Hono;
  /**
   * Approval links for this console (`${baseUrl}/links/<token>`), signed with its secret.
   *
   * @example
   * ```ts
   * await chat.post(await inbox.links.url(continuation.id, action.id, 'approve'));
   * ```
   */
  links: ReturnType<typeof createApprovalLinks>;
}

interface Decider {
  /** When, if known (the store's `resumedBy` carries no time). */
  at?: string;
  by: string;
}

/**
 * Build the approval console.
 *
 * @example
 * ```ts
 * import { serve } from '@hono/node-server';
 * const inbox = createConsole({
 *   store,
 *   agents: { hr: hrAgent },
 *   authorize: (request) => ({ id: request.headers.get('x-user') ?? 'anonymous' }),
 *   secret: process.env.CONSOLE_SECRET!,
 * });
 * serve({ fetch: inbox.fetch, port: 3000 });
 * ```
 */
export function createConsole(options: ConsoleOptions): Console {
  if (!options.agents && !options.submitDecisions) {
    throw new TypeError('createConsole needs `agents` (to resume here) or `submitDecisions` (to hand off).');
  }
  const secretBytes =
    typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
  if (!(secretBytes instanceof Uint8Array) || secretBytes.byteLength < 16) {
    throw new TypeError('createConsole needs a `secret` of at least 16 bytes.');
  }
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  const links = createApprovalLinks({
    secret: options.secret,
    baseUrl: options.baseUrl ?? `http://localhost${base}`,
  });
  const { store, agents } = options;
  const pageSize = options.pageSize ?? 20;
  // Who won the claim on a continuation, as seen by this process: names the decider to a loser.
  const deciders = new Map<string, Decider>();
  const remember = (id: string, decider: Decider) => {
    deciders.set(id, decider);
    if (deciders.size > 5000) deciders.delete(deciders.keys().next().value!);
  };

  const app = base ? new Hono().basePath(base) : new Hono();

  // No script runs on these pages, no other site frames them, and a link's token never leaks to
  // another site through a Referer header, nor into a shared cache.
  app.use('*', async (c, next) => {
    await next();
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    c.header('X-Frame-Options', 'DENY');
    c.header('X-Content-Type-Options', 'nosniff');
    // same-origin, not no-referrer: with no-referrer the browser posts forms with `Origin: null`.
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cache-Control', 'no-store');
  });

  app.onError((error, c) => {
    // A typed error explains itself; anything else stays in the server's log.
    if (isContinuationError(error)) {
      return c.html(messagePage(base, 'Something went wrong', [`${error.code}: ${error.message}`]), 500);
    }
    console.error(error);
    return c.html(messagePage(base, 'Something went wrong', ['The server failed; see its log.']), 500);
  });
  app.notFound((c) => c.html(messagePage(base, 'Not found', ['There is no page here.']), 404));

  /** The identity of a link opened by someone `authorize` does not name: the link decided. */
  const anonymousLink: Identity = { id: 'link' };

  async function allow(c: Context, access: Access): Promise<Identity | undefined> {
    const identity = await options.authorize(c.req.raw, access);
    if (identity === false) return undefined;
    if (identity) return identity;
    if (access.via === 'link' && !options.linksNeedIdentity) return anonymousLink;
    return undefined;
  }

  const refuse = (c: Context) =>
    c.html(messagePage(base, 'Not allowed', ['You are not allowed to do this.']), 403);

  /** The session's CSRF token, setting the nonce cookie when it is missing. */
  async function formToken(c: Context): Promise<string> {
    let nonce = getCookie(c, CSRF_COOKIE);
    if (!nonce || nonce.length > 64) {
      nonce = newNonce();
      setCookie(c, CSRF_COOKIE, nonce, {
        path: base || '/',
        httpOnly: true,
        sameSite: 'Lax',
        secure: new URL(c.req.url).protocol === 'https:',
      });
    }
    return csrfToken(options.secret, nonce);
  }

  async function csrfChecked(c: Context, form: Record<string, unknown>): Promise<boolean> {
    const origin = c.req.header('origin');
    if (origin && origin !== new URL(c.req.url).origin && !options.origins?.includes(origin)) return false;
    return csrfValid(options.secret, getCookie(c, CSRF_COOKIE), form.csrf);
  }

  // ---------------------------------------------------------------- inbox

  app.get('/', async (c) => {
    if (!(await allow(c, { kind: 'read' }))) return refuse(c);
    const query = new URL(c.req.url).searchParams;
    const errors: string[] = [];
    const agent = query.get('agent')?.trim() ?? '';
    const tool = query.get('tool')?.trim() ?? '';
    const metaText = query.get('metaFilter')?.trim() ?? '';
    const metadata: JsonObject = {};
    for (const [key, value] of query) {
      if (key.startsWith('meta.') && key.length > 5) metadata[key.slice(5)] = metaValue(value);
    }
    for (const pair of metaText.split(',').map((each) => each.trim())) {
      if (!pair) continue;
      const at = pair.indexOf('=');
      if (at <= 0) errors.push(`Metadata filter "${pair}" should be key=value.`);
      else metadata[pair.slice(0, at).trim()] = metaValue(pair.slice(at + 1).trim());
    }
    const olderThan = duration(query.get('olderThan'), 'Older than', errors);
    const newerThan = duration(query.get('newerThan'), 'Newer than', errors);
    const cursor = query.get('cursor') ?? undefined;
    const now = Date.now();
    const rows: InboxRow[] = [];
    let next: string | undefined;
    if (errors.length === 0) {
      const listed = await store.list({
        status: 'suspended',
        ...(Object.keys(metadata).length ? { metadata } : {}),
        limit: pageSize,
        order: 'desc',
        ...(cursor ? { cursor } : {}),
      });
      const loaded = await Promise.all(listed.items.map((item) => store.load(item.id)));
      for (const stored of loaded) {
        if (stored?.status !== 'suspended') continue;
        // Each run is a read of its own: an app can show each person their own tenant's runs.
        if (!(await allow(c, { kind: 'read', continuationId: stored.id }))) continue;
        const ageMs = now - Date.parse(stored.createdAt);
        if (olderThan !== undefined && ageMs < olderThan) continue;
        if (newerThan !== undefined && ageMs > newerThan) continue;
        for (const action of listActions(stored.continuation)) {
          if (agent && !action.path.some((segment) => segment.agent === agent)) continue;
          if (tool && action.toolName !== tool) continue;
          rows.push({
            continuationId: stored.id,
            runId: stored.runId,
            createdAt: stored.createdAt,
            action,
          });
        }
      }
      if (listed.cursor) {
        const params = new URLSearchParams(query);
        params.set('cursor', listed.cursor);
        next = `${base}/?${params.toString()}`;
      }
    }
    const filters = {
      agent,
      tool,
      meta: metaText,
      olderThan: query.get('olderThan') ?? '',
      newerThan: query.get('newerThan') ?? '',
    };
    return c.html(
      page('Inbox', base, inboxBody(base, rows, filters, next, errors, now)),
      errors.length ? 400 : 200,
    );
  });

  // ---------------------------------------------------------------- run view

  function actionViews(continuation: Continuation): ActionView[] {
    const policies = options.policies?.(continuation) ?? {};
    return listActions(continuation).map((action) => {
      const policy = Object.hasOwn(policies, action.id) ? policies[action.id] : undefined;
      const allowedByPolicy = action.allowedDecisions ?? policy?.allowedDecisions;
      const fitting: DecisionChoice[] =
        action.kind === 'approval' ? ['approve', 'edit', 'reject'] : ['input', 'reject'];
      const view: ActionView = {
        action,
        chain: actionChain(continuation, action),
        allowed: allowedByPolicy ? fitting.filter((choice) => allowedByPolicy.includes(choice)) : fitting,
        fields: formFields(actionSchema(agents as AgentsByName | undefined, continuation, action)),
      };
      const response = actionResponseSchema(agents as AgentsByName | undefined, continuation, action);
      if (response) {
        view.responseSchema = response;
        const answerFields = formFields(response);
        if (answerFields) view.answerFields = answerFields;
      }
      const description = action.description ?? policy?.description;
      if (description) view.description = description;
      return view;
    });
  }

  async function laterContinuation(stored: StoredContinuation) {
    let latest: { id: string; status: string; createdAt: string } | undefined;
    let cursor: string | undefined;
    do {
      const listed = await store.list({ runId: stored.runId, limit: 100, ...(cursor ? { cursor } : {}) });
      for (const item of listed.items) {
        if (item.id === stored.id || Date.parse(item.createdAt) < Date.parse(stored.createdAt)) continue;
        if (!latest || Date.parse(item.createdAt) >= Date.parse(latest.createdAt)) latest = item;
      }
      cursor = listed.cursor;
    } while (cursor);
    return latest;
  }

  async function renderRun(
    c: Context,
    stored: StoredContinuation,
    extra: { errors?: string[]; submitted?: Record<string, unknown>; notice?: string } = {},
    status: 200 | 422 = 200,
  ) {
    const later = stored.status === 'suspended' ? undefined : await laterContinuation(stored);
    const submitted = extra.submitted;
    const body = runBody({
      base,
      stored,
      continuation: stored.continuation,
      actions: actionViews(stored.continuation),
      csrf: await formToken(c),
      ...(submitted
        ? {
            submitted: (name: string) => {
              const value = Object.hasOwn(submitted, name) ? submitted[name] : undefined;
              return typeof value === 'string' ? value : undefined;
            },
          }
        : {}),
      ...(extra.errors ? { errors: extra.errors } : {}),
      ...(extra.notice ? { notice: extra.notice } : {}),
      later: later ? { id: later.id, status: later.status } : undefined,
      now: Date.now(),
      subRuns: subAgentRuns(stored.continuation),
    });
    return c.html(page(`Run of ${stored.continuation.agent.name}`, base, body), status);
  }

  const outcomes: Record<string, string> = {
    completed: 'The run completed.',
    rejected: 'The run ended: rejected.',
    submitted: 'The decisions were handed to the worker; the run goes on there.',
    suspended: 'The run went on and waits again.',
  };

  app.get('/runs/:id', async (c) => {
    const id = c.req.param('id');
    if (!(await allow(c, { kind: 'read', continuationId: id }))) return refuse(c);
    const stored = await store.load(id);
    if (!stored)
      return c.html(messagePage(base, 'Not found', [`No continuation "${id}" in the store.`]), 404);
    const outcome = c.req.query('outcome');
    const notice = outcome && Object.hasOwn(outcomes, outcome) ? outcomes[outcome] : undefined;
    return renderRun(c, stored, notice ? { notice } : {});
  });

  // ---------------------------------------------------------------- deciding

  /** The decisions a form describes, or the problems with it. */
  function decisionsFromForm(
    continuation: Continuation,
    form: Record<string, unknown>,
  ): { decisions: Decisions; choices: Array<[Action, DecisionChoice]>; errors: string[] } {
    const read = (name: string) => {
      const value = Object.hasOwn(form, name) ? form[name] : undefined;
      return typeof value === 'string' ? value : undefined;
    };
    const decisions: Decisions = {};
    const choices: Array<[Action, DecisionChoice]> = [];
    const errors: string[] = [];
    for (const view of actionViews(continuation)) {
      const { action } = view;
      const choice = read(`decision:${action.id}`);
      if (choice === undefined || choice === '' || choice === 'none') continue;
      const where = `${action.toolName} (${action.id})`;
      if (!(view.allowed as string[]).includes(choice)) {
        errors.push(`${where}: "${choice}" is not a decision this action allows.`);
        continue;
      }
      const reason = read(`reason:${action.id}`)?.trim();
      let decision: Decision;
      if (choice === 'approve') decision = { type: 'approve' };
      else if (choice === 'reject') decision = { type: 'reject' };
      else if (choice === 'input') {
        const answer = answerFromForm(view, form, read);
        if (answer.errors.length) {
          errors.push(...answer.errors.map((error) => `${where}: ${error}`));
          continue;
        }
        decision = { type: 'input', value: answer.value };
      } else {
        const schema = actionSchema(agents as AgentsByName | undefined, continuation, action);
        let args: JsonValue;
        if (view.fields) {
          const parsed = argsFromForm(view.fields, (name) => read(`arg:${action.id}:${name}`), action.args);
          if (parsed.errors.length) {
            errors.push(...parsed.errors.map((error) => `${where}: ${error}`));
            continue;
          }
          args = parsed.args;
        } else {
          try {
            args = JSON.parse(read(`args:${action.id}`) ?? '') as JsonValue;
          } catch {
            errors.push(`${where}: the arguments are not valid JSON.`);
            continue;
          }
        }
        const problems = schema ? checkSchema(args, schema) : [];
        if (problems.length) {
          errors.push(...problems.map((problem) => `${where}: ${problem}`));
          continue;
        }
        decision = { type: 'approve', args };
      }
      if (reason && decision.type !== 'input') decision.reason = reason;
      decisions[action.id] = decision;
      choices.push([action, choice as DecisionChoice]);
    }
    return { decisions, choices, errors };
  }

  /** Who decided `stored` (it is no longer suspended), when it can be known. */
  async function whoDecided(stored: StoredContinuation): Promise<Decider | undefined> {
    const known = deciders.get(stored.id);
    if (known) return known;
    const ids = new Set(listActions(stored.continuation).map((action) => action.id));
    const later = [];
    let cursor: string | undefined;
    do {
      const listed = await store.list({ runId: stored.runId, limit: 100, ...(cursor ? { cursor } : {}) });
      later.push(...listed.items.filter((item) => item.id !== stored.id));
      cursor = listed.cursor;
    } while (cursor);
    for (const item of later) {
      const loaded = await store.load(item.id);
      const entry = loaded?.continuation.decisions.find(
        (each) => ids.has(each.actionId) && Date.parse(each.at) >= Date.parse(stored.createdAt),
      );
      if (entry) return { by: entry.by ?? 'someone', at: entry.at };
    }
    // The run completed without a later continuation: the store kept the claim's owner, which a
    // console resuming here sets to the deciding person (a worker's resumes name the worker).
    if (stored.status === 'completed' && stored.resumedBy !== undefined && !options.submitDecisions) {
      return { by: stored.resumedBy };
    }
    return undefined;
  }

  async function alreadyDecided(c: Context, id: string, linkUsed = false) {
    const stored = await store.load(id);
    const decider = stored ? await whoDecided(stored) : deciders.get(id);
    const lines = [
      linkUsed ? 'This link was already used.' : 'Already decided.',
      decider
        ? `Decided by ${decider.by}${decider.at ? ` at ${decider.at}` : ''}; nothing was applied this time.`
        : 'Someone else decided first; nothing was applied this time.',
    ];
    if (stored?.status === 'failed') {
      lines.push(`The run failed after that decision${stored.error ? `: ${stored.error}` : ''}.`);
    }
    return c.html(
      messagePage(base, linkUsed ? 'Link already used' : 'Already decided', lines, [
        html`<a href="${base}/runs/${encodeURIComponent(id)}">See the run</a>`,
      ]),
      409,
    );
  }

  /** A store that notes who won each claim made through it. */
  function noting(by: string): ContinuationStore {
    return {
      get capabilities() {
        return store.capabilities;
      },
      save: (continuation, saveOptions) => store.save(continuation, saveOptions),
      load: (id) => store.load(id),
      list: (filter) => store.list(filter),
      delete: (id) => store.delete(id),
      async claim(id: string, claimOptions?: ClaimOptions): Promise<Claim> {
        const claim = await store.claim(id, claimOptions);
        remember(id, { by, at: new Date().toISOString() });
        return claim;
      },
      renew: (claim, renewOptions) => store.renew(claim, renewOptions),
      complete: (claim, completeOptions) => store.complete(claim, completeOptions),
      async release(claim) {
        await store.release(claim);
        deciders.delete(claim.id);
      },
      fail: (claim, error) => store.fail(claim, error),
      retry: (id) => store.retry(id),
    };
  }

  type Applied =
    | { ok: true; location: string }
    | { ok: false; response: Response | Promise<Response> }
    | { ok: false; invalid: string[] };

  /**
   * Apply decisions through the claimed stored resume (or the worker). The claim's owner is `by`,
   * the deciding person, unless nobody identified decided (`anonymous`).
   */
  async function apply(
    c: Context,
    stored: StoredContinuation,
    decisions: Decisions,
    by: string,
    linkUsed = false,
    anonymous = false,
  ): Promise<Applied> {
    const id = stored.id;
    const runUrl = (target: string, outcome?: string) =>
      `${base}/runs/${encodeURIComponent(target)}${outcome ? `?outcome=${outcome}` : ''}`;
    if (options.submitDecisions) {
      const agent = agents && Object.hasOwn(agents, stored.agentName) ? agents[stored.agentName] : undefined;
      if (deciders.has(id)) return { ok: false, response: alreadyDecided(c, id, linkUsed) };
      try {
        await agent?.checkDecisions?.(stored.continuation, decisions);
      } catch (error) {
        if (isRefusal(error)) return { ok: false, invalid: [(error as Error).message] };
        throw error;
      }
      if (deciders.has(id)) return { ok: false, response: alreadyDecided(c, id, linkUsed) };
      remember(id, { by, at: new Date().toISOString() });
      await options.submitDecisions(id, decisions);
      return { ok: true, location: runUrl(id, 'submitted') };
    }
    const agent = agents && Object.hasOwn(agents, stored.agentName) ? agents[stored.agentName] : undefined;
    if (!agent) {
      return {
        ok: false,
        response: c.html(
          messagePage(base, 'No agent', [
            `This console has no agent named "${stored.agentName}" to resume the run.`,
          ]),
          500,
        ),
      };
    }
    let result: RunResult<unknown>;
    try {
      const owner = anonymous ? (options.owner ?? 'console') : by;
      result = await resumeStored(noting(by), agent, id, decisions, { owner });
    } catch (error) {
      if (isContinuationError(error, 'CLAIM_CONFLICT'))
        return { ok: false, response: alreadyDecided(c, id, linkUsed) };
      if (isContinuationError(error, 'EXPIRED')) {
        return { ok: false, response: c.html(messagePage(base, 'Expired', [error.message]), 410) };
      }
      if (isRefusal(error)) return { ok: false, invalid: [(error as Error).message] };
      throw error;
    }
    if (result.status === 'suspended')
      return { ok: true, location: runUrl(result.continuation.id, 'suspended') };
    return { ok: true, location: runUrl(id, result.status) };
  }

  app.post('/runs/:id/decide', async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    if (!(await csrfChecked(c, form))) {
      return c.html(
        messagePage(base, 'Not allowed', [
          'The form is stale or was not sent from this console: reload the page and try again.',
        ]),
        403,
      );
    }
    const stored = await store.load(id);
    if (!stored)
      return c.html(messagePage(base, 'Not found', [`No continuation "${id}" in the store.`]), 404);
    if (stored.status === 'expired') {
      return c.html(
        messagePage(base, 'Expired', ['This run waited past its deadline; nothing was applied.']),
        410,
      );
    }
    if (stored.status !== 'suspended') return alreadyDecided(c, id);
    const identities = new Map<string, Identity>();
    const { decisions, choices, errors } = decisionsFromForm(stored.continuation, form);
    // Every decided action is authorized on its own, before anything runs.
    for (const [action, choice] of choices) {
      const identity = await allow(c, { kind: 'decide', continuationId: id, action, decision: choice });
      if (!identity) return refuse(c);
      decisions[action.id]!.by = identity.id;
      identities.set(action.id, identity);
    }
    if (errors.length === 0 && choices.length === 0)
      errors.push('Choose a decision for at least one action.');
    if (errors.length) return renderRun(c, stored, { errors, submitted: form }, 422);
    const by = [...identities.values()][0]!.id;
    const applied = await apply(c, stored, decisions, by);
    if (applied.ok) return c.redirect(applied.location, 303);
    if ('response' in applied) return applied.response;
    return renderRun(c, stored, { errors: applied.invalid, submitted: form }, 422);
  });

  // ---------------------------------------------------------------- approval links

  type LinkTarget =
    | { ok: true; link: ApprovalLink; stored: StoredContinuation; action: Action }
    | { ok: false; response: Response | Promise<Response> };

  async function linkTarget(c: Context, token: string): Promise<LinkTarget> {
    let link: ApprovalLink;
    try {
      link = await links.verify(token);
    } catch (error) {
      if (isContinuationError(error, 'LINK_EXPIRED')) {
        return {
          ok: false,
          response: c.html(
            messagePage(base, 'Link expired', ['This link has expired; nothing was applied.']),
            410,
          ),
        };
      }
      if (isContinuationError(error, 'LINK_INVALID')) {
        return {
          ok: false,
          response: c.html(
            messagePage(base, 'Invalid link', ['This link is not valid; nothing was applied.']),
            400,
          ),
        };
      }
      throw error;
    }
    const stored = await store.load(link.continuationId);
    const gone = (why: string) =>
      ({
        ok: false,
        response: c.html(messagePage(base, 'Action gone', [why, 'Nothing was applied.']), 404),
      }) as const;
    if (!stored) return gone('The run this link points to is no longer in the store.');
    if (stored.status === 'expired') {
      return {
        ok: false,
        response: c.html(
          messagePage(base, 'Link expired', [
            'The run this link points to has expired; nothing was applied.',
          ]),
          410,
        ),
      };
    }
    if (stored.status !== 'suspended') return { ok: false, response: alreadyDecided(c, stored.id, true) };
    const action = listActions(stored.continuation).find((each) => each.id === link.actionId);
    if (!action) return gone('The action this link points to is no longer pending.');
    if (link.kind === 'approve' && action.kind !== 'approval')
      return gone('This action asks for an answer, not an approval: open the run to answer it.');
    return { ok: true, link, stored, action };
  }

  app.get('/links/:token', async (c) => {
    const target = await linkTarget(c, c.req.param('token'));
    if (!target.ok) return target.response;
    const { link, stored, action } = target;
    if (!(await allow(c, { kind: 'read', continuationId: stored.id, via: 'link' }))) return refuse(c);
    return c.html(
      page(
        link.kind === 'approve' ? 'Approve action' : 'Reject action',
        base,
        linkBody({
          action,
          chain: actionChain(stored.continuation, action),
          kind: link.kind,
          expiresAt: link.expiresAt,
          csrf: await formToken(c),
          postTo: `${base}/links/${c.req.param('token')}`,
        }),
      ),
    );
  });

  app.post('/links/:token', async (c) => {
    const form = await c.req.parseBody();
    if (!(await csrfChecked(c, form))) {
      return c.html(
        messagePage(base, 'Not allowed', [
          'The form is stale or was not sent from this console: open the link again.',
        ]),
        403,
      );
    }
    const target = await linkTarget(c, c.req.param('token'));
    if (!target.ok) return target.response;
    const { link, stored, action } = target;
    const identity = await allow(c, {
      kind: 'decide',
      continuationId: stored.id,
      action,
      decision: link.kind,
      via: 'link',
    });
    if (!identity) return refuse(c);
    const decision: Decision = { type: link.kind, by: identity.id };
    const reason = typeof form.reason === 'string' ? form.reason.trim() : '';
    if (reason && decision.type === 'reject') decision.reason = reason;
    const applied = await apply(
      c,
      stored,
      { [action.id]: decision },
      identity.id,
      true,
      identity === anonymousLink,
    );
    if (applied.ok) return c.redirect(applied.location, 303);
    if ('response' in applied) return applied.response;
    return c.html(messagePage(base, 'Not applied', applied.invalid), 422);
  });

  return { fetch: async (request) => app.fetch(request), app: app as unknown as Hono, links };
}

/** A refusal before anything ran: the decisions did not fit (bad arguments, answer, kind). */
function isRefusal(error: unknown): boolean {
  return (
    isContinuationError(error, 'INVALID_ARGS') ||
    isContinuationError(error, 'INVALID_INPUT') ||
    isContinuationError(error, 'INVALID_DECISION') ||
    isContinuationError(error, 'WRONG_DECISION_KIND') ||
    isContinuationError(error, 'UNKNOWN_ACTION')
  );
}

/** A metadata filter value: JSON when it parses, else the text. */
function metaValue(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/**
 * The answer a form gives to an input request: from the inputs generated from the response schema
 * (`answer:<actionId>:<field>`), else from the `value:<actionId>` text; checked against the
 * response schema when there is one.
 */
function answerFromForm(
  view: ActionView,
  form: Record<string, unknown>,
  read: (name: string) => string | undefined,
): { value: JsonValue; errors: string[] } {
  const id = view.action.id;
  const prefix = `answer:${id}:`;
  const schema = view.responseSchema;
  let value: JsonValue;
  // A script may still send the whole answer as `value:<actionId>` when no generated input is sent.
  const fields = view.answerFields;
  if (fields && (hasPrefix(form, prefix) || read(`value:${id}`) === undefined)) {
    const parsed = argsFromForm(fields, (name) => read(`${prefix}${name}`), {});
    if (parsed.errors.length) return { value: null, errors: parsed.errors };
    value = parsed.args;
  } else {
    const text = read(`value:${id}`) ?? '';
    // An answer that must be text is taken as typed, even when it reads as JSON (`42`, `true`).
    value = schema?.type === 'string' ? text : answerValue(text);
  }
  return { value, errors: schema ? checkSchema(value, schema, 'answer') : [] };
}

function hasPrefix(form: Record<string, unknown>, prefix: string): boolean {
  return Object.keys(form).some((key) => key.startsWith(prefix));
}

/** An answer: JSON when it parses, else the text. */
function answerValue(text: string): JsonValue {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return text;
  }
}

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function duration(text: string | null, label: string, errors: string[]): number | undefined {
  if (!text?.trim()) return undefined;
  const match = /^(\d+)\s*([smhd])$/.exec(text.trim());
  if (!match) {
    errors.push(`${label}: "${text}" is not a duration such as 30s, 15m, 2h or 7d.`);
    return undefined;
  }
  return Number(match[1]) * units[match[2]!]!;
}

export type { Html };
