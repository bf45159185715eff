/**
 * Applying decisions, shared by the decide form and approval links: resume through the runtime
 * under a claim owned by the deciding person (or hand to the worker), and the "already decided"
 * page, which names who decided from the store: the audit trail of the run's later continuation,
 * or the owner of the claim that completed it.
 */
import {
  type Decisions,
  isContinuationError,
  listActions,
  type RunResult,
  type StoredContinuation,
} from '@agent-continuations/core';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { ConsoleContext } from './context';
import { messagePage } from './views';

/** What applying decisions came to: where to go next, a page to show, or why they do not fit. */
export type Applied =
  | { ok: true; location: string }
  | { ok: false; response: Response | Promise<Response> }
  | { ok: false; invalid: string[] };

/** Who decided a continuation, as the store tells it. */
export interface Decider {
  /** When, if known (a completed record keeps who resumed it, not when). */
  at?: string;
  by: string;
}

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
  const { base, options, runtime } = ctx;
  const id = stored.id;
  const runUrl = (target: string, outcome?: string) =>
    `${base}/runs/${encodeURIComponent(target)}${outcome ? `?outcome=${outcome}` : ''}`;
  /** The answer to a refusal before anything ran, by its code; undefined for any other error. */
  const refusal = (error: unknown): Applied | undefined => {
    if (isContinuationError(error, 'CLAIM_CONFLICT'))
      return { ok: false, response: alreadyDecided(ctx, c, stored, linkUsed) };
    if (isContinuationError(error, 'EXPIRED')) {
      return { ok: false, response: c.html(messagePage(base, 'Expired', [error.message]), 410) };
    }
    // The run went on without this record (its thread was resumed natively): nothing ran.
    if (isContinuationError(error, 'STATE_MISMATCH')) {
      return { ok: false, response: c.html(messagePage(base, 'Moved on', [error.message]), 409) };
    }
    if (isRefusal(error)) return { ok: false, invalid: [(error as Error).message] };
    return undefined;
  };
  if (options.submitDecisions) {
    try {
      await ctx.agentNamed(stored.agentName)?.checkDecisions?.(stored.continuation, decisions);
    } catch (error) {
      if (isRefusal(error)) return { ok: false, invalid: [(error as Error).message] };
      throw error;
    }
    // Nothing is held here: if the hand-off fails, the record is as it was and a retry works; the
    // claim (the worker's, or the hand-off's own) is what makes a twice-submitted decision run once.
    try {
      await options.submitDecisions(id, decisions);
    } catch (error) {
      const refused = refusal(error);
      if (refused) return refused;
      throw error;
    }
    return { ok: true, location: runUrl(id, 'submitted') };
  }
  if (!runtime || !ctx.agentNamed(stored.agentName)) {
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
    result = await runtime.resume(id, decisions, { owner });
  } catch (error) {
    const refused = refusal(error);
    if (refused) return refused;
    throw error;
  }
  if (result.status === 'suspended')
    return { ok: true, location: runUrl(result.continuation.id, 'suspended') };
  return { ok: true, location: runUrl(id, result.status) };
}

/**
 * The 409 page for a continuation someone else decided first, naming them when the store can.
 * Only shown to a person the gate let see the run.
 */
export async function alreadyDecided(
  ctx: ConsoleContext,
  c: Context,
  seen: StoredContinuation,
  linkUsed = false,
) {
  const { base } = ctx;
  const stored = (await ctx.store.load(seen.id)) ?? seen;
  const decider = await whoDecided(ctx, stored);
  if (stored.status === 'claimed') {
    return c.html(
      messagePage(
        base,
        'Being decided',
        ['Someone is deciding this run right now; nothing was applied this time.'],
        [html`<a href="${base}/runs/${encodeURIComponent(stored.id)}">See the run</a>`],
      ),
      409,
    );
  }
  const lines = [
    linkUsed ? 'This link was already used.' : 'Already decided.',
    decider
      ? `Decided by ${decider.by}${decider.at ? ` at ${decider.at}` : ''}; nothing was applied this time.`
      : 'Someone else decided first; nothing was applied this time.',
  ];
  if (stored.status === 'cancelled') {
    lines.push(`The run was cancelled${stored.reason ? `: ${stored.reason}` : ''}.`);
  }
  if (stored.status === 'failed') {
    lines.push(`The run failed after that decision${stored.error ? `: ${stored.error}` : ''}.`);
  }
  return c.html(
    messagePage(base, linkUsed ? 'Link already used' : 'Already decided', lines, [
      html`<a href="${base}/runs/${encodeURIComponent(stored.id)}">See the run</a>`,
    ]),
    409,
  );
}

/** Who decided `stored` (it is no longer suspended), when the store can tell. */
export async function whoDecided(
  ctx: ConsoleContext,
  stored: StoredContinuation,
): Promise<Decider | undefined> {
  const ids = new Set(listActions(stored.continuation).map((action) => action.id));
  for (const item of await runRecords(ctx, stored.runId)) {
    if (item.id === stored.id) continue;
    const loaded = await ctx.store.load(item.id);
    const entry = loaded?.continuation.decisions.find(
      (each) => ids.has(each.actionId) && Date.parse(each.at) >= Date.parse(stored.createdAt),
    );
    if (entry) return { by: entry.by ?? 'someone', at: entry.at };
  }
  // The run completed without a later continuation: the store kept the claim's owner, which a
  // console resuming here sets to the deciding person (a worker's resumes name the worker).
  // A cancel always claims in the name of the person who ended the run.
  if (stored.status === 'cancelled' && stored.resumedBy !== undefined) return { by: stored.resumedBy };
  if (stored.status === 'completed' && stored.resumedBy !== undefined && !ctx.options.submitDecisions) {
    return { by: stored.resumedBy };
  }
  return undefined;
}

/** Every record of run `runId`, as the store lists them. */
export async function runRecords(ctx: ConsoleContext, runId: string) {
  const items = [];
  let cursor: string | undefined;
  do {
    const listed = await ctx.store.list({ runId, limit: 100, ...(cursor ? { cursor } : {}) });
    items.push(...listed.items);
    cursor = listed.cursor;
  } while (cursor);
  return items;
}

/** A refusal before anything ran: the decisions did not fit (bad arguments, answer, kind). */
function isRefusal(error: unknown): boolean {
  return (
    isContinuationError(error, 'INVALID_ARGS') ||
    isContinuationError(error, 'INVALID_INPUT') ||
    isContinuationError(error, 'INVALID_DECISION') ||
    isContinuationError(error, 'WRONG_DECISION_KIND') ||
    isContinuationError(error, 'DECISION_NOT_ALLOWED') ||
    isContinuationError(error, 'UNKNOWN_ACTION')
  );
}
