/**
 * Approval links (`GET` and `POST /links/:token`): a signed link shows one action with a button
 * that applies the link's decision. The link names a continuation and an action; when another
 * action of the run was decided since, the run's current suspension is looked up, so the link of a
 * sibling still works.
 */
import {
  type Action,
  type ApprovalLink,
  type Decision,
  isContinuationError,
  listActions,
  type StoredContinuation,
} from '@agent-continuations/core';
import { type Context, Hono } from 'hono';
import { alreadyDecided, apply, runRecords } from '../apply';
import { type ConsoleContext, runInfo } from '../context';
import { actionChain } from '../tools';
import { linkBody, messagePage, page } from '../views';
import { actionViews } from './run';

/** The approval link pages as a Hono sub-app. */
export function linksPage(ctx: ConsoleContext): Hono {
  const { base } = ctx;
  return new Hono()
    .get('/links/:token', async (c) => {
      const target = await linkTarget(ctx, c, c.req.param('token'));
      if (!target.ok) return target.response;
      const { link, stored, action } = target;
      return c.html(
        page(
          link.kind === 'approve' ? 'Approve action' : 'Reject action',
          base,
          linkBody({
            action,
            chain: actionChain(stored.continuation, action),
            kind: link.kind,
            expiresAt: link.expiresAt,
            postTo: await ctx.formAction(c, `${base}/links/${c.req.param('token')}`),
          }),
        ),
      );
    })
    .post('/links/:token', async (c) => {
      if (!(await ctx.csrfChecked(c))) {
        return c.html(
          messagePage(base, 'Not allowed', [
            'The form is stale or was not sent from this console: open the link again.',
          ]),
          403,
        );
      }
      const target = await linkTarget(ctx, c, c.req.param('token'));
      if (!target.ok) return target.response;
      const { link, stored, action } = target;
      const read = await ctx.form(c);
      if (!read.ok) return read.response;
      const identity = await ctx.allow(c, {
        kind: 'decide',
        continuationId: stored.id,
        run: runInfo(stored),
        action,
        decision: link.kind,
        via: 'link',
      });
      if (!identity) return ctx.refuse(c);
      const decision: Decision = { type: link.kind, by: identity.id };
      const reason = read.form.reason?.trim() ?? '';
      if (reason.length > ctx.maxReasonLength) {
        return c.html(
          messagePage(base, 'Not applied', [
            `The reason is longer than ${ctx.maxReasonLength} characters; nothing was applied.`,
          ]),
          422,
        );
      }
      if (reason && decision.type === 'reject') decision.reason = reason;
      const applied = await apply(
        ctx,
        c,
        stored,
        { [action.id]: decision },
        identity.id,
        true,
        identity === ctx.anonymousLink,
      );
      if (applied.ok) return c.redirect(applied.location, 303);
      if ('response' in applied) return applied.response;
      return c.html(messagePage(base, 'Not applied', applied.invalid), 422);
    });
}

type LinkTarget =
  | { ok: true; link: ApprovalLink; stored: StoredContinuation; action: Action }
  | { ok: false; response: Response | Promise<Response> };

/**
 * The still pending action a link points to, in the run's current suspension, or the page that
 * says why there is none. The gate comes before anything about the run is told.
 */
async function linkTarget(ctx: ConsoleContext, c: Context, token: string): Promise<LinkTarget> {
  const { base } = ctx;
  let link: ApprovalLink;
  try {
    link = await ctx.links.verify(token);
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
  const gated = await ctx.gate(c, link.continuationId, 'link');
  if (!gated.ok) return gated;
  let stored = gated.stored;
  const gone = (why: string) =>
    ({
      ok: false,
      response: c.html(messagePage(base, 'Action gone', [why, 'Nothing was applied.']), 404),
    }) as const;
  if (stored.status === 'expired') {
    return {
      ok: false,
      response: c.html(
        messagePage(base, 'Link expired', ['The run this link points to has expired; nothing was applied.']),
        410,
      ),
    };
  }
  if (stored.status !== 'suspended') {
    const current = await currentSuspension(ctx, stored, link.actionId);
    if (!current) return { ok: false, response: usedOrGone(ctx, c, stored, link.actionId) };
    stored = current;
  }
  if (!(await ctx.waiting(stored)))
    return gone('The run went on without this action: it is no longer pending.');
  const action = listActions(stored.continuation).find((each) => each.id === link.actionId);
  if (!action) return gone('The action this link points to is no longer pending.');
  if (link.kind === 'approve' && action.kind !== 'approval')
    return gone('This action asks for an answer, not an approval: open the run to answer it.');
  // A link obeys the same policy as the run's form: a decision the form would not offer is refused.
  const view = actionViews(ctx, stored.continuation).find((each) => each.action.id === action.id);
  if (!view?.allowed.includes(link.kind)) {
    return {
      ok: false,
      response: c.html(
        messagePage(base, 'Not allowed', [
          `This action does not allow the decision "${link.kind}"; nothing was applied.`,
          'Open the run to decide it another way.',
        ]),
        403,
      ),
    };
  }
  return { ok: true, link, stored, action };
}

/** The run's later suspension in which `actionId` still waits, if any. */
async function currentSuspension(
  ctx: ConsoleContext,
  stored: StoredContinuation,
  actionId: string,
): Promise<StoredContinuation | undefined> {
  const later = (await runRecords(ctx, stored.runId))
    .filter((item) => item.status === 'suspended' && item.id !== stored.id)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  for (const item of later) {
    const loaded = await ctx.store.load(item.id);
    if (loaded?.status !== 'suspended') continue;
    if (listActions(loaded.continuation).some((action) => action.id === actionId)) return loaded;
  }
  return undefined;
}

/**
 * Why a link whose continuation went on has nothing to decide: the last record of the run in which
 * its action waited was decided (by whom, when the store tells), or the run went on without it.
 */
async function usedOrGone(ctx: ConsoleContext, c: Context, stored: StoredContinuation, actionId: string) {
  let decided: StoredContinuation | undefined;
  for (const item of await runRecords(ctx, stored.runId)) {
    if (
      item.status === 'suspended' ||
      (decided && Date.parse(item.createdAt) < Date.parse(decided.createdAt))
    )
      continue;
    const loaded = item.id === stored.id ? stored : await ctx.store.load(item.id);
    if (loaded && listActions(loaded.continuation).some((action) => action.id === actionId)) decided = loaded;
  }
  if (decided) return alreadyDecided(ctx, c, decided, true);
  return c.html(
    messagePage(ctx.base, 'Action gone', [
      'The run went on without this action: it is no longer pending.',
      'Nothing was applied.',
    ]),
    404,
  );
}
