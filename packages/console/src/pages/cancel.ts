/**
 * Ending a whole run (`POST /runs/:id/cancel`): every pending action rejected with the person's
 * reason, nothing run, the record `cancelled`. Allowed to whoever `authorize` lets reject every
 * action of the run, and only when every action's policy allows a rejection.
 */
import { createRuntime, isContinuationError } from '@agent-continuations/core';
import { Hono } from 'hono';
import { alreadyDecided } from '../apply';
import { type ConsoleContext, runInfo } from '../context';
import { messagePage } from '../views';
import { actionViews, renderRun } from './run';

/** The cancel form's target as a Hono sub-app. */
export function cancelPage(ctx: ConsoleContext): Hono {
  const { base } = ctx;
  // Cancelling resumes nothing, so a console that hands decisions to a worker cancels through the store.
  const runtime = ctx.runtime ?? createRuntime({ agents: [], store: ctx.store });
  return new Hono().post('/runs/:id/cancel', async (c) => {
    const id = c.req.param('id');
    if (!(await ctx.csrfChecked(c))) return ctx.staleForm(c);
    const gated = await ctx.gate(c, id);
    if (!gated.ok) return gated.response;
    const { stored } = gated;
    const read = await ctx.form(c);
    if (!read.ok) return read.response;
    const { form } = read;
    if (stored.status === 'expired') {
      return c.html(
        messagePage(base, 'Expired', ['This run waited past its deadline; nothing was applied.']),
        410,
      );
    }
    if (stored.status !== 'suspended') return alreadyDecided(ctx, c, stored);
    const reason = (Object.hasOwn(form, 'reason') ? form.reason : '')?.trim() ?? '';
    const errors: string[] = [];
    if (reason.length > ctx.maxReasonLength)
      errors.push(`The reason is longer than ${ctx.maxReasonLength} characters.`);
    const views = actionViews(ctx, stored.continuation);
    for (const { action, allowed } of views) {
      if (!allowed.includes('reject')) {
        errors.push(
          `${action.toolName} (${action.id}) cannot be rejected, so the run cannot be cancelled here.`,
        );
      }
    }
    if (errors.length) return renderRun(ctx, c, stored, { errors, submitted: form }, 422);
    // Cancelling rejects every action: the person must be allowed to reject each of them.
    let by: string | undefined;
    for (const { action } of views) {
      const identity = await ctx.allow(c, {
        kind: 'decide',
        continuationId: id,
        run: runInfo(stored),
        action,
        decision: 'reject',
        cancel: true,
      });
      if (!identity) return ctx.refuse(c);
      by ??= identity.id;
    }
    by ??= (await ctx.allow(c, { kind: 'read', continuationId: id, run: runInfo(stored) }))?.id;
    try {
      await runtime.cancel(id, { ...(by === undefined ? {} : { by }), ...(reason ? { reason } : {}) });
    } catch (error) {
      if (isContinuationError(error, 'CLAIM_CONFLICT')) return alreadyDecided(ctx, c, stored);
      throw error;
    }
    return c.redirect(`${base}/runs/${encodeURIComponent(id)}?outcome=cancelled`, 303);
  });
}
