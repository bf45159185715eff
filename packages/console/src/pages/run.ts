/**
 * The run view (`GET /runs/:id`): a stored continuation with its pending actions, their chain of
 * agents, and a form to decide each; once decided, what became of it.
 */
import { type Continuation, listActions, type StoredContinuation } from '@agent-continuations/core';
import { type Context, Hono } from 'hono';
import { whoDecided } from '../apply';
import type { ConsoleContext } from '../context';
import type { DecisionChoice } from '../options';
import { formFields } from '../schema-form';
import {
  actionChain,
  actionDescription,
  actionRequest,
  actionResponseSchema,
  actionSchema,
  subAgentRuns,
} from '../tools';
import { type ActionView, type Finished, page, runBody } from '../views';

const outcomes: Record<string, string> = {
  completed: 'The run completed.',
  rejected: 'The run ended: rejected.',
  cancelled: 'The run was cancelled: every waiting action was rejected, and nothing ran.',
  submitted: 'The decisions were handed to the worker; the run goes on there.',
  suspended: 'The run went on and waits again.',
};

/** The notice of a suspension the run's checkpoint log has moved past. */
const PASSED =
  'The run went on from its checkpoint log without this record (a resume stopped midway and recovery finished it): nothing can be decided here, and the next recovery settles the record.';

/** The notice of a suspension whose run went on outside the library. */
const MOVED_ON =
  'The run went on without this record, outside this console (its LangGraph thread was resumed natively): nothing can be decided here. Cancel the record to settle it.';

/** The run view as a Hono sub-app. */
export function runPage(ctx: ConsoleContext): Hono {
  return new Hono().get('/runs/:id', async (c) => {
    const gated = await ctx.gate(c, c.req.param('id'));
    if (!gated.ok) return gated.response;
    const outcome = c.req.query('outcome');
    const notice = outcome && Object.hasOwn(outcomes, outcome) ? outcomes[outcome] : undefined;
    return renderRun(ctx, c, gated.stored, notice ? { notice } : {});
  });
}

/** Each pending action with what its form may offer: the allowed decisions, the inputs. */
export function actionViews(ctx: ConsoleContext, stored: Continuation): ActionView[] {
  const agents = ctx.agentNamed;
  // A continuation an earlier release of its adapter wrote gets its policy from its agent.
  const continuation = agents(stored.agent.name)?.upgrade?.(stored) ?? stored;
  return listActions(continuation).map((action) => {
    const allowedByPolicy = action.allowedDecisions;
    // A call in doubt is approved (run it again), answered (it ran: its result) or rejected.
    const fitting: DecisionChoice[] = action.inDoubt
      ? ['approve', 'input', 'reject']
      : action.kind === 'approval'
        ? ['approve', 'edit', 'reject']
        : ['input', 'reject'];
    const view: ActionView = {
      action,
      chain: actionChain(continuation, action),
      allowed: allowedByPolicy ? fitting.filter((choice) => allowedByPolicy.includes(choice)) : fitting,
      fields: formFields(actionSchema(agents, continuation, action)),
    };
    const response = actionResponseSchema(agents, continuation, action);
    if (response) {
      view.responseSchema = response;
      const answerFields = formFields(response);
      if (answerFields) view.answerFields = answerFields;
    }
    const request = actionRequest(continuation, action);
    if (request) view.request = request;
    const description = action.description ?? actionDescription(agents, continuation, action);
    if (description) view.description = description;
    return view;
  });
}

/** The page of a stored continuation, with the errors and values of a refused form when given. */
export async function renderRun(
  ctx: ConsoleContext,
  c: Context,
  stored: StoredContinuation,
  extra: { errors?: string[]; submitted?: Record<string, string>; notice?: string } = {},
  status: 200 | 422 = 200,
) {
  const waiting = await ctx.waiting(stored);
  // A suspension the log moved past is shown as what it is: nothing to decide, and what happened.
  const passed = stored.status === 'suspended' && !waiting;
  // A claimed record is being resumed (or was handed to a worker that has not begun): nothing
  // has happened to it yet.
  const finished = waiting || stored.status === 'claimed' ? undefined : await whatHappened(ctx, stored);
  const later = finished?.later;
  const submitted = extra.submitted;
  const notice = passed ? ((await movedOn(ctx, stored)) ? MOVED_ON : PASSED) : extra.notice;
  const body = runBody({
    base: ctx.base,
    stored: passed ? { ...stored, status: 'superseded' } : stored,
    continuation: stored.continuation,
    actions: actionViews(ctx, stored.continuation),
    postTo: await ctx.formAction(c, `${ctx.base}/runs/${encodeURIComponent(stored.id)}/decide`),
    cancelTo: await ctx.formAction(c, `${ctx.base}/runs/${encodeURIComponent(stored.id)}/cancel`),
    ...(submitted
      ? {
          submitted: (name: string) => {
            const value = Object.hasOwn(submitted, name) ? submitted[name] : undefined;
            return typeof value === 'string' ? value : undefined;
          },
        }
      : {}),
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...(notice ? { notice } : {}),
    later: later ? { id: later.id, status: later.status } : undefined,
    ...(finished ? { finished } : {}),
    now: Date.now(),
    subRuns: subAgentRuns(stored.continuation),
  });
  return c.html(page(`Run of ${stored.continuation.agent.name}`, ctx.base, body), status);
}

/**
 * What became of a record that is no longer suspended (the runtime's outcome: decisions, results
 * and the final answer), and who decided when no decision is known in full (the completing
 * claim's owner).
 */
async function whatHappened(ctx: ConsoleContext, stored: StoredContinuation): Promise<Finished> {
  const outcome = await ctx.outcome(stored);
  const decisions = outcome?.decisions ?? [];
  const decider = decisions.length === 0 ? await whoDecided(ctx, stored) : undefined;
  return {
    ...(outcome?.cancelled ? { cancelled: outcome.cancelled } : {}),
    decisions,
    results: outcome?.results ?? [],
    ...(outcome?.output !== undefined ? { output: outcome.output } : {}),
    ...(decider ? { decider } : {}),
    ...(outcome?.later ? { later: outcome.later } : {}),
  };
}

/** Whether `stored`'s run went on outside the library, as its agent tells. */
async function movedOn(ctx: ConsoleContext, stored: StoredContinuation): Promise<boolean> {
  const agent = ctx.agentNamed(stored.continuation.agent.name);
  return (await agent?.movedOn?.(stored.continuation)) === true;
}
