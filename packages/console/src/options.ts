/**
 * The console's public options and shapes: who acts, what a request wants, and what
 * `createConsole` returns.
 */
import type {
  Action,
  ContinuableAgent,
  ContinuationStore,
  createApprovalLinks,
  Decisions,
  JsonObject,
  Runtime,
} from '@agent-continuations/core';
import type { Hono } from 'hono';

/** Who acts: recorded as `by` in every decision they make. */
export interface Identity {
  id: string;
  name?: string;
}

/** The kinds of decision a form can make on an action. */
export type DecisionChoice = 'approve' | 'edit' | 'reject' | 'input';

/** What `authorize` is told of the run a request is about: whose it is, not what it holds. */
export interface RunInfo {
  agentName: string;
  runId: string;
  /** The user's JSON saved with the run (e.g. `{ tenant: 'acme' }`). */
  metadata: JsonObject;
}

/**
 * What a request wants to do, as {@link ConsoleOptions.authorize} sees it. `via: 'link'` marks a
 * request that carries a verified approval link. A read of one run carries its `run`: refuse it and
 * the person gets the same answer as for a run that does not exist.
 */
export type Access =
  | { kind: 'read'; continuationId?: undefined; via?: 'link' }
  | { kind: 'read'; continuationId: string; run: RunInfo; via?: 'link' }
  | {
      kind: 'decide';
      continuationId: string;
      run: RunInfo;
      action: Action;
      decision: DecisionChoice;
      via?: 'link';
      /** Set when the person ends the whole run: each of its actions is asked for as a `reject`. */
      cancel?: true;
    };

/** Options of {@link createConsole}. */
export interface ConsoleOptions {
  /**
   * The runtime the console reads and resumes through (its store, agents, log, seal, links and
   * notices apply to every decision made here). A decision resumes the run with
   * `runtime.resume(id, decisions, { owner })`, the deciding person being the claim's owner.
   *
   * @example
   * ```ts
   * const runtime = createRuntime({ agents: [hr], store, log });
   * createConsole({ runtime, authorize, secret });
   * ```
   */
  runtime?: Runtime;
  /**
   * The store the inbox reads, without a runtime (with `agents`, the console makes a runtime over
   * them); taken from `runtime` when one is given.
   *
   * @example
   * ```ts
   * createConsole({ store: createSqliteStore({ path: 'agents.db' }), agents: { hr }, authorize, secret });
   * ```
   */
  store?: ContinuationStore;
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
   * The origins the console is reached at besides `baseUrl`'s (when a proxy changes the host). With
   * `baseUrl` or `origins` set, a request whose `Host` is none of them is refused (`421`: a page of
   * another site that resolves to this server, DNS rebinding, gets nothing), and a form is accepted
   * only from these origins; without either, from the request's own.
   *
   * @example
   * ```ts
   * createConsole({ origins: ['https://ops.example.com'], ... });
   * ```
   */
  origins?: string[];
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
   * The largest form body accepted, in bytes, counted while it is read: a larger one is refused
   * with `413` before it is parsed. 64 KiB by default.
   *
   * @example
   * ```ts
   * createConsole({ maxBodyBytes: 256 * 1024, ... });
   * ```
   */
  maxBodyBytes?: number;
  /**
   * The longest reason a person may give, in characters; a longer one is refused (`422`) and
   * nothing runs. 2,000 by default.
   *
   * @example
   * ```ts
   * createConsole({ maxReasonLength: 500, ... });
   * ```
   */
  maxReasonLength?: number;
  /**
   * The largest edited arguments or answer, in bytes of JSON; larger ones are refused (`422`) and
   * nothing runs. 16 KiB by default.
   *
   * @example
   * ```ts
   * createConsole({ maxArgsBytes: 4096, ... });
   * ```
   */
  maxArgsBytes?: number;
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
