/**
 * The console's pages, rendered on the server with Hono's `html` template: every interpolated
 * value is escaped, and nothing from a continuation is ever passed as raw markup.
 */
import type {
  Action,
  AuditEntry,
  Continuation,
  JsonSchema,
  JsonValue,
  Message,
} from '@agent-continuations/core';
import { html } from 'hono/html';
import type { FieldSpec } from './schema-form';
import { schemaInputs } from './schema-inputs';
import type { ChainLevel } from './tools';

export type Html = ReturnType<typeof html>;

const style = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:.6rem 1.2rem}header a{color:#fff}
main{max-width:68rem;margin:0 auto;padding:1rem 1.2rem}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #d9dde3;vertical-align:top}
pre,code{font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap;word-break:break-word}
fieldset{background:#fff;border:1px solid #c5cad3;border-radius:6px;margin:0 0 1rem;padding:.8rem 1rem}
legend{font-weight:600;padding:0 .3rem}label{display:block;margin:.35rem 0 .1rem}
.choice label{display:inline-block;margin-right:1rem}.quick{margin:.5rem 0}.quick button.reject{background:#9c1f1f;border-color:#7a1717}
input[type=text],input[type=number],input:not([type]),select,textarea{font:inherit;padding:.3rem;border:1px solid #8a929e;border-radius:4px;min-width:18rem}
textarea{width:100%;min-height:4rem;box-sizing:border-box}
button{font:inherit;padding:.4rem 1rem;border-radius:4px;border:1px solid #1b4f9c;background:#1f5fbf;color:#fff;cursor:pointer}
:focus-visible{outline:3px solid #f0a400;outline-offset:2px}
.alert{background:#fdecea;border:1px solid #c62828;padding:.6rem 1rem;border-radius:6px}
.status{background:#e8f4ea;border:1px solid #2e7d32;padding:.6rem 1rem;border-radius:6px}
.muted{color:#59616d}.overdue{color:#b71c1c}.chain{margin:.2rem 0 .6rem;padding-left:1.2rem}
.filters{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end;margin-bottom:1rem}.filters input{min-width:9rem}
`;

/** The page frame. */
export function page(title: string, base: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Approval inbox</title>
<style>${style}</style>
</head>
<body>
<header><nav aria-label="Console"><a href="${base}/">Inbox</a></nav></header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}

/** A message page: refusals, conflicts, expired or used links. */
export function messagePage(base: string, title: string, lines: string[], links: Html[] = []): Html {
  return page(
    title,
    base,
    html`<div class="alert" role="alert">${lines.map((line) => html`<p>${line}</p>`)}</div>${links.map(
      (link) => html`<p>${link}</p>`,
    )}`,
  );
}

/** JSON for display (untrusted text: escaped by the template). */
export function json(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return JSON.stringify(value, null, 2) ?? '';
}

/** Compact JSON for one-line display, clipped. */
export function jsonLine(value: JsonValue | undefined, max = 160): string {
  const text = value === undefined ? '' : (JSON.stringify(value) ?? '');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `hr › ask_payroll › payroll › transfer`. */
export function chainText(action: Action): string {
  const names: string[] = [];
  action.path.forEach((segment, index) => {
    names.push(segment.agent);
    // A sub-agent's tool usually bears its name: say it once.
    if (segment.toolName !== action.path[index + 1]?.agent) names.push(segment.toolName);
  });
  return names.join(' › ');
}

/** How long ago, in words. */
export function age(createdAt: string, now: number): string {
  return span(now - Date.parse(createdAt));
}

/** A duration in words: `42 s`, `5 min`, `3 h`, `2 d`. */
function span(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

/** `2026-12-01 17:30 UTC`: a deadline as the server knows it, in UTC for every reader. */
function utc(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A time readable at a glance beside its exact ISO value: `2026-12-01 17:30 UTC (2026-12-01T17:30:05.120Z)`. */
export function when(iso: string): Html {
  return html`<time datetime="${iso}">${utc(iso)}</time> <span class="muted">(${iso})</span>`;
}

/**
 * An action's deadline: `due <time> (in 2 h)`, or `overdue: due <time> (5 min ago)` once past; the
 * `<time>` carries the exact ISO instant.
 */
export function dueText(deadline: string | undefined, now: number): Html | string {
  if (deadline === undefined) return '';
  const left = Date.parse(deadline) - now;
  const when = html`<time datetime="${deadline}">${utc(deadline)}</time>`;
  return left > 0
    ? html`<span class="due">due ${when} (in ${span(left)})</span>`
    : html`<span class="overdue"><strong>overdue</strong>: due ${when} (${span(-left)} ago)</span>`;
}

/** One row of the inbox. */
export interface InboxRow {
  continuationId: string;
  runId: string;
  createdAt: string;
  action: Action;
}

/** The inbox's filter values, echoed in the form. */
export interface InboxFilters {
  agent: string;
  tool: string;
  meta: string;
  olderThan: string;
  newerThan: string;
}

/** The inbox page body. */
export function inboxBody(
  base: string,
  rows: InboxRow[],
  filters: InboxFilters,
  next: string | undefined,
  errors: string[],
  now: number,
): Html {
  return html`${errors.length ? html`<div class="alert" role="alert">${errors.map((error) => html`<p>${error}</p>`)}</div>` : ''}
<form method="get" action="${base}/" class="filters" role="search" aria-label="Filter actions">
<div><label for="f-agent">Agent</label><input id="f-agent" name="agent" value="${filters.agent}"></div>
<div><label for="f-tool">Tool</label><input id="f-tool" name="tool" value="${filters.tool}"></div>
<div><label for="f-meta">Metadata (key=value)</label><input id="f-meta" name="metaFilter" value="${filters.meta}" placeholder="tenant=acme"></div>
<div><label for="f-older">Older than</label><input id="f-older" name="olderThan" value="${filters.olderThan}" placeholder="15m" pattern="\\d+\\s*(s|m|h|d)"></div>
<div><label for="f-newer">Newer than</label><input id="f-newer" name="newerThan" value="${filters.newerThan}" placeholder="7d" pattern="\\d+\\s*(s|m|h|d)"></div>
<div><button type="submit">Filter</button></div>
</form>
${
  rows.length === 0
    ? html`<p class="status" role="status">No pending actions.</p>`
    : html`<table>
<caption class="muted">Pending actions, newest first</caption>
<thead><tr><th scope="col">Chain</th><th scope="col">Kind</th><th scope="col">Arguments</th><th scope="col">Age</th><th scope="col">Due</th><th scope="col">Run</th></tr></thead>
<tbody>
${rows.map(
  (row) => html`<tr>
<td>${chainText(row.action)}</td>
<td>${row.action.kind}</td>
<td><code>${jsonLine(row.action.kind === 'input' ? (row.action.request ?? row.action.args) : row.action.args)}</code></td>
<td><time datetime="${row.createdAt}">${age(row.createdAt, now)}</time></td>
<td>${row.action.deadline === undefined ? html`<span class="muted">—</span>` : dueText(row.action.deadline, now)}</td>
<td><a href="${base}/runs/${encodeURIComponent(row.continuationId)}#action-${row.action.id}" aria-label="Open ${chainText(row.action)} (${row.action.id})">Open</a></td>
</tr>`,
)}
</tbody>
</table>`
}
${next ? html`<p><a href="${next}">Next page</a></p>` : ''}`;
}

/** What the run view shows of one pending action. */
export interface ActionView {
  action: Action;
  chain: ChainLevel[];
  /** Offered decisions, in this order. */
  allowed: Array<'approve' | 'edit' | 'reject' | 'input'>;
  /** Generated inputs, or undefined for a JSON textarea. */
  fields: FieldSpec[] | undefined;
  /** For an input request whose tool declares it: the JSON Schema of the answer. */
  responseSchema?: JsonSchema;
  /** Inputs generated from {@link responseSchema} (an object of properties); else a textarea. */
  answerFields?: FieldSpec[];
  description?: string;
  /** What the agent that made the call was asked: its first user message. */
  request?: string;
}

const decisionLabels = {
  none: 'Leave pending',
  approve: 'Approve',
  edit: 'Approve with edited arguments',
  reject: 'Reject',
  input: 'Answer',
} as const;

/** What became of a record that is no longer suspended, as far as the store and the log tell. */
export interface Finished {
  /** The decisions made on its actions. */
  decisions: AuditEntry[];
  /** The result of each decided call (of the call at the top of its chain). */
  results: Array<{ callId: string; toolName: string; output: JsonValue }>;
  /** The run's final answer, when it completed and the log keeps it. */
  output?: JsonValue;
  /** Who decided, when no decision is known in full (the completing claim's owner). */
  decider?: { by: string; at?: string };
  /** Set when a person ended the whole run here: who, and the reason they gave. */
  cancelled?: { by?: string; reason?: string };
  /** The newest continuation of the same run saved after this one. */
  later?: { id: string; status: string };
}

/** How the run view names a record's status, where the store's word alone says too little. */
const STATUS_TEXT: Record<string, string> = {
  completed: 'resumed (decided)',
  cancelled: 'cancelled (the run was ended here)',
  claimed: 'being resumed (decided, and taken by a worker or the person deciding)',
};

/** The run view body. */
export function runBody(options: {
  base: string;
  stored: {
    id: string;
    runId: string;
    status: string;
    createdAt: string;
    expiresAt?: string;
    error?: string;
    resumedBy?: string;
    reason?: string;
  };
  continuation: Continuation;
  actions: ActionView[];
  /** The decide form's target, with its CSRF token. */
  postTo: string;
  /** The cancel form's target, with its CSRF token. */
  cancelTo: string;
  /** Form values to show instead of the continuation's (a form sent back with errors). */
  submitted?: (name: string) => string | undefined;
  errors?: string[];
  notice?: string;
  later?: { id: string; status: string } | undefined;
  finished?: Finished;
  /** The time deadlines are shown against (ms since the epoch). */
  now: number;
  subRuns: Array<{ path: string[]; continuation: Continuation }>;
}): Html {
  const { base, stored, continuation } = options;
  const value = (name: string, fallback: string) => options.submitted?.(name) ?? fallback;
  return html`${options.errors?.length ? html`<div class="alert" role="alert"><p>Nothing was applied:</p><ul>${options.errors.map((error) => html`<li>${error}</li>`)}</ul></div>` : ''}
${options.notice ? html`<p class="status" role="status">${options.notice}</p>` : ''}
<section aria-labelledby="h-status">
<h2 id="h-status">Status</h2>
<dl>
<dt>Status</dt><dd>${STATUS_TEXT[stored.status] ?? stored.status}</dd>
<dt>Agent</dt><dd>${continuation.agent.name} <span class="muted">(${continuation.agent.framework})</span></dd>
<dt>Continuation</dt><dd><code>${stored.id}</code></dd>
<dt>Run</dt><dd><code>${stored.runId}</code></dd>
<dt>Suspended at</dt><dd>${when(stored.createdAt)}</dd>
${stored.expiresAt ? html`<dt>Expires at</dt><dd>${when(stored.expiresAt)}</dd>` : ''}
${stored.error ? html`<dt>Error</dt><dd>${stored.error}</dd>` : ''}
${stored.resumedBy !== undefined ? html`<dt>${stored.status === 'cancelled' ? 'Cancelled by' : 'Resumed by'}</dt><dd>${stored.resumedBy}</dd>` : ''}
${stored.status === 'cancelled' && stored.reason ? html`<dt>Reason</dt><dd>${stored.reason}</dd>` : ''}
${Object.keys(continuation.metadata).length ? html`<dt>Metadata</dt><dd><code>${jsonLine(continuation.metadata, 400)}</code></dd>` : ''}
</dl>
${options.later ? html`<p>This run went on: <a href="${base}/runs/${encodeURIComponent(options.later.id)}">its latest continuation</a> (${options.later.status}).</p>` : ''}
</section>
${options.finished ? finishedSection(options.finished, options.actions, stored.status) : ''}
<section aria-labelledby="h-actions">
<h2 id="h-actions">${stored.status === 'suspended' ? 'Pending actions' : 'Actions it waited for'}</h2>
${
  options.actions.length === 0
    ? html`<p>None.</p>`
    : stored.status !== 'suspended'
      ? html`<ul>${options.actions.map((view) => html`<li>${chainText(view.action)} <code>${jsonLine(view.action.args)}</code>${view.action.deadline ? html` ${dueText(view.action.deadline, options.now)}` : ''}</li>`)}</ul><p class="muted">This continuation is ${stored.status}; nothing can be decided on it.</p>`
      : html`<form method="post" action="${options.postTo}">
${options.actions.map((view) => actionFieldset(view, value, options.actions.length === 1, options.now))}
<button type="submit">Submit decisions</button>
</form>`
}
</section>
${stored.status === 'suspended' && options.actions.length > 0 && options.actions.every((view) => view.allowed.includes('reject')) ? cancelSection(options.cancelTo, value) : ''}
<section aria-labelledby="h-transcript">
<h2 id="h-transcript">Transcript</h2>
${transcript(continuation.messages)}
${options.subRuns.map(
  (sub) =>
    html`<details><summary>Transcript of ${sub.continuation.agent.name} (via ${sub.path.join(' › ')})</summary>${transcript(sub.continuation.messages)}</details>`,
)}
</section>
<section aria-labelledby="h-audit">
<h2 id="h-audit">Audit trail</h2>
${audit([...continuation.decisions, ...(options.finished?.decisions ?? [])], options.finished?.decider)}
</section>`;
}

/** Ending the whole run: every pending action rejected with one reason. */
function cancelSection(cancelTo: string, value: (name: string, fallback: string) => string): Html {
  return html`<section aria-labelledby="h-cancel">
<h2 id="h-cancel">End the whole run</h2>
<form method="post" action="${cancelTo}">
<p>Reject every pending action above with one reason and end the run here: nothing runs, and the agent is not called again.</p>
<label for="cancel-reason">Reason</label>
<textarea id="cancel-reason" name="reason" rows="2">${value('reason', '')}</textarea>
<button type="submit">Cancel the run</button>
</form>
</section>`;
}

/** What happened to a decided record: each decision, each decided call's result, the final answer. */
function finishedSection(finished: Finished, actions: ActionView[], status: string): Html {
  const known =
    finished.decisions.length > 0 ||
    finished.results.length > 0 ||
    finished.output !== undefined ||
    finished.cancelled !== undefined;
  return html`<section aria-labelledby="h-happened">
<h2 id="h-happened">What happened</h2>
${finished.cancelled ? html`<p>Cancelled by ${finished.cancelled.by ?? 'someone'}: every waiting action was rejected and nothing ran${finished.cancelled.reason ? html`. Reason: ${finished.cancelled.reason}` : ''}.</p>` : ''}
${finished.decisions.length ? html`<ul>${finished.decisions.map((entry) => html`<li><strong>${entry.type === 'approve' ? (entry.editedArgs !== undefined ? 'Approved with edited arguments' : 'Approved') : entry.type === 'reject' ? 'Rejected' : 'Answered'}</strong>: <code>${entry.toolName}</code> by ${entry.by ?? 'someone'} at ${when(entry.at)}${entry.args !== undefined ? html`; asked for <code>${jsonLine(entry.args, 400)}</code>` : ''}${entry.editedArgs !== undefined ? html`, applied <code>${jsonLine(entry.editedArgs, 400)}</code>` : ''}${entry.reason ? html`; reason: ${entry.reason}` : ''}</li>`)}</ul>` : ''}
${finished.decider && !finished.decisions.length && !finished.cancelled ? html`<p>Decided by ${finished.decider.by}${finished.decider.at ? html` at ${when(finished.decider.at)}` : ''}.</p>` : ''}
${finished.results.map((result) => html`<p>Result of <code>${result.toolName}</code>:</p><pre>${json(result.output)}</pre>`)}
${finished.output !== undefined ? html`<p><strong>Final answer:</strong></p><pre>${typeof finished.output === 'string' ? finished.output : json(finished.output)}</pre>` : ''}
${known ? '' : html`<p class="muted">This record is ${status}${actions.length ? ' after its actions were decided' : ''}; without a checkpoint log the store keeps no results or final answer of a run that completed.</p>`}
</section>`;
}

function actionFieldset(
  view: ActionView,
  value: (name: string, fallback: string) => string,
  only: boolean,
  now: number,
): Html {
  const { action } = view;
  const id = action.id;
  const slug = `a-${slugOf(id)}`;
  const chosen = value(`decision:${id}`, only && view.allowed.length > 0 ? '' : 'none');
  const choices: Array<keyof typeof decisionLabels> = ['none', ...view.allowed];
  return html`<fieldset id="action-${id}">
<legend>${chainText(action)}</legend>
<ol class="chain" aria-label="Chain of agents">
${view.chain.map(
  (level) =>
    html`<li><strong>${level.agent}</strong> called <code>${level.toolName}</code> <span class="muted">(${level.toolCallId})</span><pre>${json(level.args)}</pre></li>`,
)}
</ol>
${action.deadline ? html`<p>${dueText(action.deadline, now)}</p>` : ''}
${view.description ? html`<p class="description"><strong>What it does:</strong> ${view.description}</p>` : ''}
${view.request ? html`<p><strong>Asked of ${action.agent}:</strong> ${view.request}</p>` : ''}
${action.kind === 'input' ? html`<p>Asks: <code>${json(action.request)}</code></p>` : ''}
<div class="choice" role="radiogroup" aria-label="Decision for ${chainText(action)}">
${choices.map(
  (choice) =>
    html`<label><input type="radio" name="decision:${id}" value="${choice}"${chosen === choice ? html` checked` : ''}> ${decisionLabels[choice]}</label>`,
)}
</div>
${quickButtons(view)}
${view.allowed.includes('edit') ? editFields(view, slug, value) : ''}
${view.allowed.includes('input') ? answerFields(view, slug, value) : ''}
${view.allowed.includes('reject') || view.allowed.includes('approve') ? html`<label for="${slug}-reason">Reason</label><input type="text" id="${slug}-reason" name="reason:${id}" value="${value(`reason:${id}`, '')}">` : ''}
</fieldset>`;
}

function editFields(view: ActionView, slug: string, value: (name: string, fallback: string) => string): Html {
  const id = view.action.id;
  const args = view.action.args;
  if (!view.fields) {
    return html`<label for="${slug}-args">Arguments (JSON)</label><textarea id="${slug}-args" name="args:${id}">${value(`args:${id}`, json(args))}</textarea>`;
  }
  const current = (name: string): JsonValue | undefined =>
    typeof args === 'object' && args !== null && !Array.isArray(args) && Object.hasOwn(args, name)
      ? (args as Record<string, JsonValue>)[name]
      : undefined;
  return schemaInputs(view.fields, {
    group: 'Edited arguments',
    name: (field) => `arg:${id}:${field}`,
    inputId: (index) => `${slug}-f${index}`,
    current,
    value,
    // Not `required`: the same form may reject the action with a field cleared; the server checks.
    browserRequired: false,
  });
}

/**
 * One-click buttons for the action: each decides it alone, without the browser's checks of the
 * edit fields (a cleared field never blocks a rejection); the server checks what applies.
 */
function quickButtons(view: ActionView): Html | string {
  const id = view.action.id;
  const name = chainText(view.action);
  const approve = view.action.kind === 'approval' && view.allowed.includes('approve');
  const reject = view.allowed.includes('reject');
  if (!approve && !reject) return '';
  return html`<div class="quick">${approve ? html`<button type="submit" name="decide:${id}" value="approve" formnovalidate aria-label="Approve ${name}">Approve</button> ` : ''}${reject ? html`<button type="submit" name="decide:${id}" value="reject" formnovalidate class="reject" aria-label="Reject ${name}">Reject</button>` : ''}</div>`;
}

/**
 * The answer to an input request: inputs generated from the response schema, or one text (JSON
 * or plain text). Generated inputs carry the browser's checks of their values but not `required`:
 * the same form also sends "Reject" or "Leave pending" with the answer left empty, so a missing
 * answer is refused by the server instead.
 */
function answerFields(
  view: ActionView,
  slug: string,
  value: (name: string, fallback: string) => string,
): Html {
  const id = view.action.id;
  if (!view.answerFields) {
    const help = view.responseSchema?.type === 'string' ? 'Plain text.' : 'JSON, or plain text.';
    return html`<label for="${slug}-value">Answer</label><textarea id="${slug}-value" name="value:${id}" aria-describedby="${slug}-value-help">${value(`value:${id}`, '')}</textarea><p id="${slug}-value-help" class="muted">${help}</p>`;
  }
  return schemaInputs(view.answerFields, {
    group: 'Answer',
    name: (field) => `answer:${id}:${field}`,
    inputId: (index) => `${slug}-a${index}`,
    current: () => undefined,
    value,
    browserRequired: false,
  });
}

function slugOf(id: string): string {
  let hash = 0;
  for (let index = 0; index < id.length; index++) hash = (hash * 31 + id.charCodeAt(index)) | 0;
  return `${id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${(hash >>> 0).toString(36)}`;
}

function transcript(messages: Message[]): Html {
  if (messages.length === 0) return html`<p>No messages.</p>`;
  return html`<ol class="transcript">${messages.map(
    (message) =>
      html`<li><strong>${message.role}</strong>${
        typeof message.content === 'string'
          ? html`<pre>${message.content}</pre>`
          : (message.content as Array<Record<string, unknown> & { type: string }>).map((part) => {
              switch (part.type) {
                case 'text':
                case 'reasoning':
                  return html`<pre>${part.type === 'reasoning' ? '(reasoning) ' : ''}${String(part.text)}</pre>`;
                case 'tool-call':
                  return html`<p>calls <code>${String(part.toolName)}</code> <span class="muted">(${String(part.toolCallId)})</span></p><pre>${json(part.args as JsonValue)}</pre>`;
                case 'tool-result':
                  return html`<p>result of <code>${String(part.toolName)}</code>${part.isError ? ' (error)' : ''}</p><pre>${json(part.output as JsonValue)}</pre>`;
                default:
                  return html`<p class="muted">[${part.type}]</p>`;
              }
            })
      }</li>`,
  )}</ol>`;
}

function audit(entries: AuditEntry[], decider?: { by: string; at?: string }): Html {
  if (entries.length === 0 && decider) {
    return html`<p>Decided by ${decider.by}${decider.at ? html` at ${when(decider.at)}` : ''}; the store keeps no more of that decision.</p>`;
  }
  if (entries.length === 0) return html`<p>No decisions yet.</p>`;
  return html`<table>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Decision</th><th scope="col">Action</th><th scope="col">Details</th></tr></thead>
<tbody>${entries.map(
    (entry) =>
      html`<tr><td>${when(entry.at)}</td><td>${entry.by ?? '—'}</td><td>${entry.type}${entry.editedArgs !== undefined ? ' (edited)' : ''}</td><td><code>${entry.toolName}</code> <span class="muted">${entry.actionId}</span></td><td>${entry.reason ? html`<p>Reason: ${entry.reason}</p>` : ''}${entry.args !== undefined ? html`<p>Arguments asked for: <code>${jsonLine(entry.args, 400)}</code></p>` : ''}${entry.editedArgs !== undefined ? html`<p>Edited arguments: <code>${jsonLine(entry.editedArgs, 400)}</code></p>` : ''}${entry.value !== undefined ? html`<p>Answer: <code>${jsonLine(entry.value, 400)}</code></p>` : ''}</td></tr>`,
  )}</tbody>
</table>`;
}

/** The confirmation page body of an approval link. */
export function linkBody(options: {
  action: Action;
  chain: ChainLevel[];
  kind: 'approve' | 'reject';
  expiresAt: string;
  /** The form's target, with its CSRF token. */
  postTo: string;
}): Html {
  const { action, kind } = options;
  return html`<p>${kind === 'approve' ? 'Approve' : 'Reject'} this action?</p>
<ol class="chain" aria-label="Chain of agents">
${options.chain.map(
  (level) =>
    html`<li><strong>${level.agent}</strong> called <code>${level.toolName}</code><pre>${json(level.args)}</pre></li>`,
)}
</ol>
<p class="muted">The link expires at ${when(options.expiresAt)}.</p>
<form method="post" action="${options.postTo}">
${kind === 'reject' ? html`<label for="link-reason">Reason</label><input type="text" id="link-reason" name="reason">` : ''}
<button type="submit">${kind === 'approve' ? 'Approve' : 'Reject'}</button>
</form>
<p class="muted">Action <code>${action.id}</code> of tool <code>${action.toolName}</code>.</p>`;
}

/**
 * The page that shows an approve with changed arguments as the edit it is: each changed property
 * before and after, and a form that applies it as an edit (or a way back, with nothing applied).
 */
export function confirmEdits(options: {
  base: string;
  id: string;
  edits: Array<{ view: ActionView; args: JsonValue }>;
  form: Record<string, string>;
  postTo: string;
}): Html {
  const { base, id, edits, form } = options;
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(form)) {
    // A one-click button becomes the choice it made; the form is sent again as it was.
    if (name.startsWith('decide:')) fields[`decision:${name.slice('decide:'.length)}`] = value;
    else fields[name] = value;
  }
  for (const { view } of edits) fields[`decision:${view.action.id}`] = 'edit';
  return html`<div class="alert" role="alert"><p>You chose Approve and changed the arguments: that is an edit. Nothing was applied yet.</p></div>
${edits.map(({ view, args }) => {
  const before = view.action.args;
  const keys = [...new Set([...Object.keys(objectOf(before)), ...Object.keys(objectOf(args))])];
  const changed = keys.filter(
    (key) => JSON.stringify(objectOf(before)[key]) !== JSON.stringify(objectOf(args)[key]),
  );
  return html`<section aria-label="Changes to ${chainText(view.action)}"><h2>${chainText(view.action)}</h2>
<table><thead><tr><th scope="col">Argument</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
<tbody>${changed.map((key) => html`<tr><td><code>${key}</code></td><td><del>${jsonLine(objectOf(before)[key])}</del></td><td><ins>${jsonLine(objectOf(args)[key])}</ins></td></tr>`)}</tbody></table></section>`;
})}
<form method="post" action="${options.postTo}">
${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit">Apply the edit</button>
</form>
<p><a href="${base}/runs/${encodeURIComponent(id)}">Back to the run</a> (nothing is applied)</p>`;
}

function objectOf(value: JsonValue | undefined): Record<string, JsonValue | undefined> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, JsonValue>)
    : { value };
}
