/**
 * What every page of the console shares: its options, where it is mounted, the approval links, and
 * the checks a request goes through in this order: the host, the form's origin and CSRF token, the
 * gate of `authorize` on the run, then the body (bounded) and its fields.
 */
import {
  type ContinuableAgent,
  type ContinuationStore,
  createApprovalLinks,
  createRuntime,
  type RunOutcome,
  type Runtime,
  type StoredContinuation,
} from '@agent-continuations/core';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { CSRF_COOKIE, csrfToken, csrfValid, newNonce } from './csrf';
import { type FormFields, readForm } from './form-body';
import type { Access, ConsoleOptions, Identity, RunInfo } from './options';
import { messagePage } from './views';

/** The default of {@link ConsoleOptions.maxBodyBytes}: 64 KiB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
/** The default of {@link ConsoleOptions.maxReasonLength}. */
export const DEFAULT_MAX_REASON_LENGTH = 2000;
/** The default of {@link ConsoleOptions.maxArgsBytes}: 16 KiB of JSON. */
export const DEFAULT_MAX_ARGS_BYTES = 16 * 1024;

/** What the gate lets through: the person and the run they may see. */
export type Gated =
  | { ok: true; identity: Identity; stored: StoredContinuation }
  | { ok: false; response: Response | Promise<Response> };

/** The state and checks the console's pages share. */
export interface ConsoleContext {
  options: ConsoleOptions;
  /** The mount path without a trailing slash, `''` at the root. */
  base: string;
  runtime: Runtime | undefined;
  store: ContinuationStore;
  /** The agent named `name` (for its tools' schemas), when the console knows it. */
  agentNamed(name: string): ContinuableAgent<any, unknown> | undefined;
  links: ReturnType<typeof createApprovalLinks>;
  pageSize: number;
  maxReasonLength: number;
  maxArgsBytes: number;
  /** The identity of a link opened by someone `authorize` does not name: the link decided. */
  anonymousLink: Identity;
  /** The identity `authorize` allows for `access`, or `undefined` to refuse. */
  allow(c: Context, access: Access): Promise<Identity | undefined>;
  /**
   * The one gate before a run is shown or decided: the person may use the console, then may see
   * this run. A run they may not see gets the same answer as one that does not exist.
   */
  gate(c: Context, id: string, via?: 'link'): Promise<Gated>;
  /** The 403 page. */
  refuse(c: Context): Response | Promise<Response>;
  /** The 403 page of a posted form that failed {@link ConsoleContext.csrfChecked}. */
  staleForm(c: Context): Response | Promise<Response>;
  /** The 404 page of a run that is missing or that the person may not see: the same for both. */
  noRun(c: Context): Response | Promise<Response>;
  /**
   * Whether `stored` waits for a person: suspended, and not a suspension its run has moved past (in
   * the runtime's checkpoint log, after a resume that died midway; or outside the library, as a
   * LangGraph thread resumed natively).
   */
  waiting(stored: StoredContinuation): Promise<boolean>;
  /** What became of `stored` once it no longer waits (see `Runtime.outcome`). */
  outcome(stored: StoredContinuation): Promise<RunOutcome | undefined>;
  /** The session's CSRF token, setting the nonce cookie when it is missing. */
  formToken(c: Context): Promise<string>;
  /** A form's target with the session's CSRF token, checked before its body is read. */
  formAction(c: Context, path: string): Promise<string>;
  /** Whether a posted form comes from this console (origin and the CSRF token of its URL). */
  csrfChecked(c: Context): Promise<boolean>;
  /** The posted form, read within the body limit; or the 4xx page that says why not. */
  form(
    c: Context,
  ): Promise<{ ok: true; form: FormFields } | { ok: false; response: Response | Promise<Response> }>;
}

/** What `authorize` is told of a run: enough to tell whose it is, nothing of its content. */
export function runInfo(stored: StoredContinuation): RunInfo {
  return { agentName: stored.agentName, runId: stored.runId, metadata: stored.metadata };
}

/** Check the options and build the context the pages share. */
export function consoleContext(options: ConsoleOptions): ConsoleContext {
  const store = options.runtime?.store ?? options.store;
  if (!store) throw new TypeError('createConsole needs a `runtime` (or a `store`).');
  const agents = options.agents;
  if (!options.runtime && !agents && !options.submitDecisions) {
    throw new TypeError(
      'createConsole needs a `runtime` or `agents` (to resume here), or `submitDecisions` (to hand off).',
    );
  }
  const secretBytes =
    typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
  if (!(secretBytes instanceof Uint8Array) || secretBytes.byteLength < 16) {
    throw new TypeError('createConsole needs a `secret` of at least 16 bytes.');
  }
  const maxBodyBytes = positive(options.maxBodyBytes, 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES);
  const maxReasonLength = positive(options.maxReasonLength, 'maxReasonLength', DEFAULT_MAX_REASON_LENGTH);
  const maxArgsBytes = positive(options.maxArgsBytes, 'maxArgsBytes', DEFAULT_MAX_ARGS_BYTES);
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  /** The nonce a response sets, so that a second form of the same page does not set another. */
  const issued = new WeakMap<Context, string>();
  const links = createApprovalLinks({
    secret: options.secret,
    baseUrl: options.baseUrl ?? `http://localhost${base}`,
  });
  // Resuming here goes through a runtime: the one given, or one over the given store and agents.
  const runtime =
    options.runtime ?? (agents && !options.submitDecisions ? createRuntime({ agents, store }) : undefined);
  // What happened to a record is read through the runtime; a console that only hands decisions
  // off reads it through a runtime of no agents over its store.
  let reader: Runtime | undefined = runtime;
  const agentNamed = (name: string): ContinuableAgent<any, unknown> | undefined => {
    if (agents && Object.hasOwn(agents, name)) return agents[name];
    if (!options.runtime) return undefined;
    try {
      return options.runtime.agent(name) as ContinuableAgent<any, unknown>;
    } catch {
      return undefined;
    }
  };
  const anonymousLink: Identity = { id: 'link' };
  const notAllowed = (c: Context) =>
    c.html(messagePage(base, 'Not allowed', ['You are not allowed to do this.']), 403);
  const noRun = (c: Context) =>
    c.html(messagePage(base, 'Not found', ['There is no run here that you may see.']), 404);

  const allow = async (c: Context, access: Access) => {
    const identity = await options.authorize(c.req.raw, access);
    if (identity === false) return undefined;
    if (identity) return identity;
    if (access.via === 'link' && !options.linksNeedIdentity) return anonymousLink;
    return undefined;
  };
  const via = (link: 'link' | undefined) => (link ? { via: link } : {});

  return {
    options,
    base,
    runtime,
    store,
    agentNamed,
    links,
    pageSize: options.pageSize ?? 20,
    maxReasonLength,
    maxArgsBytes,
    anonymousLink,
    allow,
    async gate(c, id, link) {
      if (!(await allow(c, { kind: 'read', ...via(link) }))) return { ok: false, response: notAllowed(c) };
      const stored = await store.load(id);
      const identity = stored
        ? await allow(c, { kind: 'read', continuationId: id, run: runInfo(stored), ...via(link) })
        : undefined;
      if (!stored || !identity) return { ok: false, response: noRun(c) };
      return { ok: true, identity, stored };
    },
    refuse: notAllowed,
    staleForm: (c) =>
      c.html(
        messagePage(base, 'Not allowed', [
          'The form is stale or was not sent from this console: reload the page and try again.',
        ]),
        403,
      ),
    noRun,
    async waiting(stored) {
      if (!runtime) return stored.status === 'suspended';
      return runtime.waiting(stored);
    },
    outcome(stored) {
      reader ??= createRuntime({ agents: {}, store });
      return reader.outcome(stored);
    },
    async formToken(c) {
      // A page with several forms sets the cookie once: every form's token binds the same nonce.
      let nonce = issued.get(c) ?? getCookie(c, CSRF_COOKIE);
      if (!nonce || nonce.length > 64) {
        nonce = newNonce();
        issued.set(c, nonce);
        setCookie(c, CSRF_COOKIE, nonce, {
          path: base || '/',
          httpOnly: true,
          sameSite: 'Lax',
          secure: new URL(c.req.url).protocol === 'https:',
        });
      }
      return csrfToken(options.secret, nonce);
    },
    async formAction(c, path) {
      return `${path}?csrf=${encodeURIComponent(await this.formToken(c))}`;
    },
    async csrfChecked(c) {
      const origin = c.req.header('origin');
      if (origin && !allowedOrigin(options, c, origin)) return false;
      const tokens = new URL(c.req.url).searchParams.getAll('csrf');
      return tokens.length === 1 && csrfValid(options.secret, getCookie(c, CSRF_COOKIE), tokens[0]);
    },
    async form(c) {
      const read = await readForm(c.req.raw, maxBodyBytes);
      if (read.ok) return read;
      return { ok: false, response: c.html(messagePage(base, read.title, [read.message]), read.status) };
    },
  };
}

/** The origins forms may come from: the configured ones, else the request's own. */
function allowedOrigin(options: ConsoleOptions, c: Context, origin: string): boolean {
  const configured = configuredOrigins(options);
  if (configured.length > 0) return configured.includes(origin);
  return origin === new URL(c.req.url).origin;
}

/** The origins of `baseUrl` and `origins`, when given. */
export function configuredOrigins(options: ConsoleOptions): string[] {
  const origins = [...(options.origins ?? [])];
  if (options.baseUrl) origins.push(new URL(options.baseUrl).origin);
  return origins;
}

function positive(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`createConsole: \`${name}\` must be a positive integer, not ${String(value)}.`);
  }
  return value;
}
