/**
 * Applying decisions, shared by the decide form and approval links: resume under a claim here (or
 * hand to the worker), and the "already decided" page that names who won.
 */
import {
  type Claim,
  type ClaimOptions,
  type ContinuationStore,
  type Decisions,
  isContinuationError,
  listActions,
  type RunResult,
  resumeStored,
  type StoredContinuation,
} from '@agent-continuations/core';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { ConsoleContext, Decider } from './context';
import { messagePage } from './views';

/** What applying decisions came to: where to go next, a page to show, or why they do not fit. */
export type Applied =
  | { ok: true; location: string }
  | { ok: false; response: Response | Promise<Response> }
  | { ok: false; invalid: string[] };

/**
 * Apply decisions through the claimed stored resume (or the worker). The claim's owner is `by`,
 * the deciding person, unless nobody identified decided (`anonymous`).
 */
export async function apply(
  ctx: ConsoleContext,
  c: Context,
  stored: StoredContinuation,
  decisions: Decisions,
  by: string,
  linkUsed = false,
  anonymous = false,
): Promise<Applied> {
  const { base, agents, deciders, options } = ctx;
  const id = stored.id;
  const runUrl = (target: string, outcome?: string) =>
    `${base}/runs/${encodeURIComponent(target)}${outcome ? `?outcome=${outcome}` : ''}`;
  if (options.submitDecisions) {
    const agent = agents && Object.hasOwn(agents, stored.agentName) ? agents[stored.agentName] : undefined;
    if (deciders.has(id)) return { ok: false, response: alreadyDecided(ctx, c, id, linkUsed) };
    try {
      await agent?.checkDecisions?.(stored.continuation, decisions);
    } catch (error) {
      if (isRefusal(error)) return { ok: false, invalid: [(error as Error).message] };
      throw error;
    }
    if (deciders.has(id)) return { ok: false, response: alreadyDecided(ctx, c, id, linkUsed) };
    ctx.remember(id, { by, at: new Date().toISOString() });
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
    result = await resumeStored(noting(ctx, by), agent, id, decisions, { owner });
  } catch (error) {
    if (isContinuationError(error, 'CLAIM_CONFLICT'))
      return { ok: false, response: alreadyDecided(ctx, c, id, linkUsed) };
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

/** The 409 page for a continuation someone else decided first, naming them when it can. */
export async function alreadyDecided(ctx: ConsoleContext, c: Context, id: string, linkUsed = false) {
  const { base } = ctx;
  const stored = await ctx.store.load(id);
  const decider = stored ? await whoDecided(ctx, stored) : ctx.deciders.get(id);
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

/** Who decided `stored` (it is no longer suspended), when it can be known. */
async function whoDecided(ctx: ConsoleContext, stored: StoredContinuation): Promise<Decider | undefined> {
  const { store } = ctx;
  const known = ctx.deciders.get(stored.id);
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
  if (stored.status === 'completed' && stored.resumedBy !== undefined && !ctx.options.submitDecisions) {
    return { by: stored.resumedBy };
  }
  return undefined;
}

/** A store that notes who won each claim made through it. */
function noting(ctx: ConsoleContext, by: string): ContinuationStore {
  const { store } = ctx;
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
      ctx.remember(id, { by, at: new Date().toISOString() });
      return claim;
    },
    renew: (claim, renewOptions) => store.renew(claim, renewOptions),
    complete: (claim, completeOptions) => store.complete(claim, completeOptions),
    async release(claim) {
      await store.release(claim);
      ctx.deciders.delete(claim.id);
    },
    fail: (claim, error) => store.fail(claim, error),
    retry: (id) => store.retry(id),
  };
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
