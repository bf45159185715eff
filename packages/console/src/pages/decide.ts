/**
 * Deciding (`POST /runs/:id/decide`): the run view's form read into decisions, each decided action
 * authorized on its own, then applied.
 */
import {
  type Action,
  type Continuation,
  canonicalJson,
  type Decision,
  type Decisions,
  type JsonValue,
} from '@agent-continuations/core';
import { Hono } from 'hono';
import { alreadyDecided, apply } from '../apply';
import { type ConsoleContext, runInfo } from '../context';
import type { FormFields } from '../form-body';
import type { DecisionChoice, Identity } from '../options';
import { argsFromForm, checkSchema } from '../schema-form';
import { actionSchema } from '../tools';
import { type ActionView, confirmEdits, messagePage, page } from '../views';
import { actionViews, renderRun } from './run';

/** The decide form's target as a Hono sub-app. */
export function decidePage(ctx: ConsoleContext): Hono {
  const { base } = ctx;
  return new Hono().post('/runs/:id/decide', async (c) => {
    const id = c.req.param('id');
    // The origin and the token of the form's URL, then the gate, all before the body is read.
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
    const identities = new Map<string, Identity>();
    const { decisions, choices, errors, edits } = decisionsFromForm(ctx, stored.continuation, form);
    // Every decided action is authorized on its own, before anything runs.
    for (const [action, choice] of choices) {
      const identity = await ctx.allow(c, {
        kind: 'decide',
        continuationId: id,
        run: runInfo(stored),
        action,
        decision: choice,
      });
      if (!identity) return ctx.refuse(c);
      decisions[action.id]!.by = identity.id;
      identities.set(action.id, identity);
    }
    for (const { view } of edits) {
      const allowed = await ctx.allow(c, {
        kind: 'decide',
        continuationId: id,
        run: runInfo(stored),
        action: view.action,
        decision: 'edit',
      });
      if (!allowed) return ctx.refuse(c);
    }
    if (errors.length === 0 && choices.length === 0 && edits.length === 0)
      errors.push('Choose a decision for at least one action.');
    if (errors.length) return renderRun(ctx, c, stored, { errors, submitted: form }, 422);
    if (edits.length) {
      const postTo = await ctx.formAction(c, `${base}/runs/${encodeURIComponent(id)}/decide`);
      return c.html(page('Confirm the edit', base, confirmEdits({ base, id, edits, form, postTo })), 200);
    }
    const by = [...identities.values()][0]!.id;
    const applied = await apply(ctx, c, stored, decisions, by);
    if (applied.ok) return c.redirect(applied.location, 303);
    if ('response' in applied) return applied.response;
    return renderRun(ctx, c, stored, { errors: applied.invalid, submitted: form }, 422);
  });
}

/** The decisions a form describes, or the problems with it. */
function decisionsFromForm(
  ctx: ConsoleContext,
  continuation: Continuation,
  form: FormFields,
): {
  decisions: Decisions;
  choices: Array<[Action, DecisionChoice]>;
  errors: string[];
  edits: EditToConfirm[];
} {
  const read = (name: string) => {
    const value = Object.hasOwn(form, name) ? form[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const decisions: Decisions = {};
  const choices: Array<[Action, DecisionChoice]> = [];
  const errors: string[] = [];
  const edits: EditToConfirm[] = [];
  // A one-click button (`decide:<actionId>`) decides its one action; the other choices wait.
  const clicked = Object.keys(form)
    .find((name) => name.startsWith('decide:'))
    ?.slice('decide:'.length);
  for (const view of actionViews(ctx, continuation)) {
    const { action } = view;
    if (clicked !== undefined && clicked !== action.id) continue;
    const choice = clicked !== undefined ? read(`decide:${action.id}`) : read(`decision:${action.id}`);
    if (choice === undefined || choice === '' || choice === 'none') continue;
    const where = `${action.toolName} (${action.id})`;
    if (!(view.allowed as string[]).includes(choice)) {
      errors.push(`${where}: "${choice}" is not a decision this action allows.`);
      continue;
    }
    const reason = read(`reason:${action.id}`)?.trim();
    if (reason && reason.length > ctx.maxReasonLength) {
      errors.push(`${where}: the reason is longer than ${ctx.maxReasonLength} characters.`);
      continue;
    }
    let decision: Decision;
    if (choice === 'approve') {
      // Approving after changing the arguments is an edit: shown as a diff first, never dropped.
      const changed = changedArgs(ctx, continuation, view, form, read);
      if (changed && 'errors' in changed) {
        errors.push(
          ...changed.errors.map(
            (error) =>
              `${where}: the arguments were changed, and ${error} Choose "Approve with edited arguments" to apply a change, or put the values back.`,
          ),
        );
        continue;
      }
      if (changed) {
        edits.push({ view, args: changed.args });
        continue;
      }
      decision = { type: 'approve' };
    } else if (choice === 'reject') decision = { type: 'reject' };
    else if (choice === 'input') {
      const answer = answerFromForm(view, form, read);
      if (answer.errors.length) {
        errors.push(...answer.errors.map((error) => `${where}: ${error}`));
        continue;
      }
      if (tooLarge(ctx, answer.value)) {
        errors.push(`${where}: the answer is larger than ${ctx.maxArgsBytes} bytes of JSON.`);
        continue;
      }
      decision = { type: 'input', value: answer.value };
    } else {
      const edited = editedArgs(ctx, continuation, view, read);
      if ('errors' in edited) {
        errors.push(...edited.errors.map((error) => `${where}: ${error}`));
        continue;
      }
      decision = { type: 'approve', args: edited.args };
    }
    if (reason && decision.type !== 'input') decision.reason = reason;
    decisions[action.id] = decision;
    choices.push([action, choice as DecisionChoice]);
  }
  return { decisions, choices, errors, edits };
}

/** An approve whose arguments were changed in the form: confirmed as an edit before it applies. */
export interface EditToConfirm {
  view: ActionView;
  args: JsonValue;
}

/** The arguments an edit form describes, checked (size, the tool's schema), or the problems with them. */
function editedArgs(
  ctx: ConsoleContext,
  continuation: Continuation,
  view: ActionView,
  read: (name: string) => string | undefined,
): { args: JsonValue } | { errors: string[] } {
  const { action } = view;
  let args: JsonValue;
  if (view.fields) {
    const parsed = argsFromForm(view.fields, (name) => read(`arg:${action.id}:${name}`), action.args);
    if (parsed.errors.length) return { errors: parsed.errors };
    args = parsed.args;
  } else {
    try {
      args = JSON.parse(read(`args:${action.id}`) ?? '') as JsonValue;
    } catch {
      return { errors: ['the arguments are not valid JSON.'] };
    }
  }
  if (tooLarge(ctx, args)) {
    return { errors: [`the edited arguments are larger than ${ctx.maxArgsBytes} bytes of JSON.`] };
  }
  const schema = actionSchema(ctx.agentNamed, continuation, action);
  const problems = schema ? checkSchema(args, schema) : [];
  return problems.length ? { errors: problems } : { args };
}

/** With "Approve", arguments the form changed from the action's: `undefined` when none changed. */
function changedArgs(
  ctx: ConsoleContext,
  continuation: Continuation,
  view: ActionView,
  form: FormFields,
  read: (name: string) => string | undefined,
): { args: JsonValue } | { errors: string[] } | undefined {
  const id = view.action.id;
  const sent = view.fields ? hasPrefix(form, `arg:${id}:`) : read(`args:${id}`) !== undefined;
  if (!sent) return undefined;
  const edited = editedArgs(ctx, continuation, view, read);
  if ('errors' in edited) return edited;
  return canonicalJson(edited.args) === canonicalJson(view.action.args) ? undefined : edited;
}

/**
 * The answer a form gives to an input request: from the inputs generated from the response schema
 * (`answer:<actionId>:<field>`), else from the `value:<actionId>` text; checked against the
 * response schema when there is one.
 */
function answerFromForm(
  view: ActionView,
  form: FormFields,
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

/** Is `value` larger, as JSON, than the console's bound on edited arguments and answers? */
function tooLarge(ctx: ConsoleContext, value: JsonValue): boolean {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength > ctx.maxArgsBytes;
}

function hasPrefix(form: FormFields, prefix: string): boolean {
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
