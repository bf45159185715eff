/**
 * Deciding (`POST /runs/:id/decide`): the run view's form read into decisions, each decided action
 * authorized on its own, then applied.
 */
import type { Action, Continuation, Decision, Decisions, JsonValue } from '@agent-continuations/core';
import { Hono } from 'hono';
import { alreadyDecided, apply } from '../apply';
import { type ConsoleContext, runInfo } from '../context';
import type { FormFields } from '../form-body';
import type { DecisionChoice, Identity } from '../options';
import { argsFromForm, checkSchema } from '../schema-form';
import { actionSchema } from '../tools';
import { type ActionView, messagePage } from '../views';
import { actionViews, renderRun } from './run';

/** The decide form's target as a Hono sub-app. */
export function decidePage(ctx: ConsoleContext): Hono {
  const { base } = ctx;
  return new Hono().post('/runs/:id/decide', async (c) => {
    const id = c.req.param('id');
    // The origin and the token of the form's URL, then the gate, all before the body is read.
    if (!(await ctx.csrfChecked(c))) {
      return c.html(
        messagePage(base, 'Not allowed', [
          'The form is stale or was not sent from this console: reload the page and try again.',
        ]),
        403,
      );
    }
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
    const { decisions, choices, errors } = decisionsFromForm(ctx, stored.continuation, form);
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
    if (errors.length === 0 && choices.length === 0)
      errors.push('Choose a decision for at least one action.');
    if (errors.length) return renderRun(ctx, c, stored, { errors, submitted: form }, 422);
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
): { decisions: Decisions; choices: Array<[Action, DecisionChoice]>; errors: string[] } {
  const read = (name: string) => {
    const value = Object.hasOwn(form, name) ? form[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const decisions: Decisions = {};
  const choices: Array<[Action, DecisionChoice]> = [];
  const errors: string[] = [];
  for (const view of actionViews(ctx, continuation)) {
    const { action } = view;
    const choice = read(`decision:${action.id}`);
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
    if (choice === 'approve') decision = { type: 'approve' };
    else if (choice === 'reject') decision = { type: 'reject' };
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
      const schema = actionSchema(ctx.agentNamed, continuation, action);
      let args: JsonValue;
      if (view.fields) {
        const parsed = argsFromForm(view.fields, (name) => read(`arg:${action.id}:${name}`), action.args);
        if (parsed.errors.length) {
          errors.push(...parsed.errors.map((error) => `${where}: ${error}`));
          continue;
        }
        args = parsed.args;
      } else {
        try {
          args = JSON.parse(read(`args:${action.id}`) ?? '') as JsonValue;
        } catch {
          errors.push(`${where}: the arguments are not valid JSON.`);
          continue;
        }
      }
      if (tooLarge(ctx, args)) {
        errors.push(`${where}: the edited arguments are larger than ${ctx.maxArgsBytes} bytes of JSON.`);
        continue;
      }
      const problems = schema ? checkSchema(args, schema) : [];
      if (problems.length) {
        errors.push(...problems.map((problem) => `${where}: ${problem}`));
        continue;
      }
      decision = { type: 'approve', args };
    }
    if (reason && decision.type !== 'input') decision.reason = reason;
    decisions[action.id] = decision;
    choices.push([action, choice as DecisionChoice]);
  }
  return { decisions, choices, errors };
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
