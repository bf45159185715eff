/**
 * Approval links (`GET` and `POST /links/:token`): a signed link shows one action with a button
 * that applies the link's decision.
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
import { alreadyDecided, apply } from '../apply';
import type { ConsoleContext } from '../context';
import { actionChain } from '../tools';
import { linkBody, messagePage, page } from '../views';

/** The approval link pages as a Hono sub-app. */
export function linksPage(ctx: ConsoleContext): Hono {
  const { base } = ctx;
  return new Hono()
    .get('/links/:token', async (c) => {
      const target = await linkTarget(ctx, c, c.req.param('token'));
      if (!target.ok) return target.response;
      const { link, stored, action } = target;
      if (!(await ctx.allow(c, { kind: 'read', continuationId: stored.id, via: 'link' })))
        return ctx.refuse(c);
      return c.html(
        page(
          link.kind === 'approve' ? 'Approve action' : 'Reject action',
          base,
          linkBody({
            action,
            chain: actionChain(stored.continuation, action),
            kind: link.kind,
            expiresAt: link.expiresAt,
            csrf: await ctx.formToken(c),
            postTo: `${base}/links/${c.req.param('token')}`,
          }),
        ),
      );
    })
    .post('/links/:token', async (c) => {
      const form = await c.req.parseBody();
      if (!(await ctx.csrfChecked(c, form))) {
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
      const identity = await ctx.allow(c, {
        kind: 'decide',
        continuationId: stored.id,
        action,
        decision: link.kind,
        via: 'link',
      });
      if (!identity) return ctx.refuse(c);
      const decision: Decision = { type: link.kind, by: identity.id };
      const reason = typeof form.reason === 'string' ? form.reason.trim() : '';
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

/** The still pending action a link points to, or the page that says why there is none. */
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
  const stored = await ctx.store.load(link.continuationId);
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
        messagePage(base, 'Link expired', ['The run this link points to has expired; nothing was applied.']),
        410,
      ),
    };
  }
  if (stored.status !== 'suspended') return { ok: false, response: alreadyDecided(ctx, c, stored.id, true) };
  const action = listActions(stored.continuation).find((each) => each.id === link.actionId);
  if (!action) return gone('The action this link points to is no longer pending.');
  if (link.kind === 'approve' && action.kind !== 'approval')
    return gone('This action asks for an answer, not an approval: open the run to answer it.');
  return { ok: true, link, stored, action };
}
