/**
 * What every page of the console shares: its options, where it is mounted, the approval links, who
 * won each claim made here, and the checks a request goes through (authorize, CSRF).
 */
import { type ContinuationStore, createApprovalLinks } from '@agent-continuations/core';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { CSRF_COOKIE, csrfToken, csrfValid, newNonce } from './csrf';
import type { Access, ConsoleOptions, Identity } from './options';
import { messagePage } from './views';

/** Who decided a continuation, as far as this process knows. */
export interface Decider {
  /** When, if known (the store's `resumedBy` carries no time). */
  at?: string;
  by: string;
}

/** The state and checks the console's pages share. */
export interface ConsoleContext {
  options: ConsoleOptions;
  /** The mount path without a trailing slash, `''` at the root. */
  base: string;
  store: ContinuationStore;
  agents: ConsoleOptions['agents'];
  links: ReturnType<typeof createApprovalLinks>;
  pageSize: number;
  /** Who won the claim on a continuation, as seen by this process: names the decider to a loser. */
  deciders: Map<string, Decider>;
  remember(id: string, decider: Decider): void;
  /** The identity of a link opened by someone `authorize` does not name: the link decided. */
  anonymousLink: Identity;
  /** The identity `authorize` allows for `access`, or `undefined` to refuse. */
  allow(c: Context, access: Access): Promise<Identity | undefined>;
  /** The 403 page. */
  refuse(c: Context): Response | Promise<Response>;
  /** The session's CSRF token, setting the nonce cookie when it is missing. */
  formToken(c: Context): Promise<string>;
  /** Whether a posted form comes from this console (origin and CSRF token). */
  csrfChecked(c: Context, form: Record<string, unknown>): Promise<boolean>;
}

/** Check the options and build the context the pages share. */
export function consoleContext(options: ConsoleOptions): ConsoleContext {
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
  const deciders = new Map<string, Decider>();
  const anonymousLink: Identity = { id: 'link' };

  return {
    options,
    base,
    store: options.store,
    agents: options.agents,
    links,
    pageSize: options.pageSize ?? 20,
    deciders,
    remember(id, decider) {
      deciders.set(id, decider);
      if (deciders.size > 5000) deciders.delete(deciders.keys().next().value!);
    },
    anonymousLink,
    async allow(c, access) {
      const identity = await options.authorize(c.req.raw, access);
      if (identity === false) return undefined;
      if (identity) return identity;
      if (access.via === 'link' && !options.linksNeedIdentity) return anonymousLink;
      return undefined;
    },
    refuse: (c) => c.html(messagePage(base, 'Not allowed', ['You are not allowed to do this.']), 403),
    async formToken(c) {
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
    },
    async csrfChecked(c, form) {
      const origin = c.req.header('origin');
      if (origin && origin !== new URL(c.req.url).origin && !options.origins?.includes(origin)) return false;
      return csrfValid(options.secret, getCookie(c, CSRF_COOKIE), form.csrf);
    },
  };
}
