/**
 * Notifications: when a stored run suspends, an `onSuspend` hook receives its actions, each with
 * signed approval links when the app gives an {@link ApprovalLinks}, so the app can post them to
 * chat or email. {@link createWebhookNotifier} is the default hook: it POSTs the notice as JSON,
 * signed, and retries with backoff.
 */
import { listActions } from '../engine/actions';
import type { Action } from '../engine/protocol';
import { ContinuationError } from '../errors';
import type { Continuation } from '../format/format';
import type { JsonObject } from '../format/json';
import { base64UrlDecode, base64UrlEncode, type SealSecret } from '../trust/seal';
import type { ApprovalLinks } from './approval-links';

/** An action of a notice, with its approval links (for approvals, when links are configured). */
export interface NoticeAction extends Action {
  links?: { approve: string; reject: string };
}

/** What an `onSuspend` hook receives: one suspension of a stored run. */
export interface SuspendNotice {
  /** The stored continuation's id: what the console and the links act on. */
  continuationId: string;
  runId: string;
  agent: string;
  metadata: JsonObject;
  /** Why it is notified: a new suspension, or an action past its deadline escalated. */
  reason: 'suspended' | 'escalated';
  actions: NoticeAction[];
}

/** A hook told of each suspension of a stored run. */
export type OnSuspend = (notice: SuspendNotice) => void | Promise<void>;

/** Where `resumeStored`, `streamStored`, the deadline sweeper and the worker send notices. */
export interface NotifyOptions {
  /**
   * Told when the run suspends again, after the suspension is saved. An error it throws is thrown
   * by the call that notified, after the run's state is safely stored (the run is not affected).
   */
  onSuspend?: OnSuspend;
  /** Sign approve and reject links into each approval of the notice. */
  links?: ApprovalLinks;
}

/**
 * The notice for `continuation`: its actions, or only `only` (action ids), each approval with its
 * links when `links` is given. A link expires at its action's deadline when that comes before the
 * links' own lifetime.
 *
 * @example
 * ```ts
 * const notice = await suspendNotice(result.continuation, { links });
 * await chat.post(notice.actions.map((action) => `${action.toolName}: ${action.links?.approve}`).join('\n'));
 * ```
 */
export async function suspendNotice(
  continuation: Continuation,
  options: { links?: ApprovalLinks; reason?: SuspendNotice['reason']; only?: readonly string[] } = {},
): Promise<SuspendNotice> {
  const actions: NoticeAction[] = listActions(continuation).filter(
    (action) => !options.only || options.only.includes(action.id),
  );
  const { links } = options;
  if (links) {
    for (const action of actions) {
      if (action.kind !== 'approval') continue;
      const expiresAt = action.deadline === undefined ? undefined : new Date(action.deadline);
      const at = expiresAt && expiresAt.getTime() > Date.now() ? { expiresAt } : undefined;
      action.links = {
        approve: await links.url(continuation.id, action.id, 'approve', at),
        reject: await links.url(continuation.id, action.id, 'reject', at),
      };
    }
  }
  return {
    continuationId: continuation.id,
    runId: continuation.runId,
    agent: continuation.agent.name,
    metadata: continuation.metadata,
    reason: options.reason ?? 'suspended',
    actions,
  };
}

/** Tell `options.onSuspend` of a suspended result; for the stored-run entry points. */
export async function notifySuspended(
  result: { status: string; continuation?: Continuation },
  options: NotifyOptions,
): Promise<void> {
  if (!options.onSuspend || result.status !== 'suspended' || !result.continuation) return;
  const notice = await suspendNotice(result.continuation, options.links ? { links: options.links } : {});
  if (notice.actions.length > 0) await options.onSuspend(notice);
}

/** Options of {@link createWebhookNotifier}. */
export interface WebhookNotifierOptions {
  url: string | URL;
  /** Signs each body: `x-agent-continuations-signature: v1=<base64url HMAC-SHA256 of "<timestamp>.<body>">`. */
  secret: SealSecret;
  /** Attempts after the first; 4 by default. */
  retries?: number;
  /** The first retry's delay, doubled for each next one; 500 ms by default. */
  backoffMs?: number;
  /** Extra headers, e.g. an authorization token. */
  headers?: Record<string, string>;
  /** The `fetch` to use; the global one by default. */
  fetch?: typeof fetch;
  /** How long one attempt may take before it is abandoned (and retried); 10 s by default. */
  timeoutMs?: number;
  /**
   * How long the whole delivery may take, attempts and backoff together, before it gives up with
   * `NOTIFY_FAILED`; 30 s by default. No retry starts that could not end within it.
   */
  budgetMs?: number;
}

/**
 * An `onSuspend` hook that POSTs each notice as JSON to `url`. The body is signed with the secret
 * over `<timestamp>.<body>`, so a receiver can check it and refuse replays; a network error, a
 * 429, a 5xx or an attempt past `timeoutMs` is retried with exponential backoff, any other non-2xx
 * fails at once. After the last attempt, or once `budgetMs` is spent, it throws `NOTIFY_FAILED`.
 *
 * @example
 * ```ts
 * const onSuspend = createWebhookNotifier({ url: 'https://hooks.example.com/agents', secret: process.env.HOOK_SECRET! });
 * await resumeStored(store, agent, id, decisions, { onSuspend, links });
 * ```
 */
export function createWebhookNotifier(
  options: WebhookNotifierOptions,
): (notice: SuspendNotice) => Promise<void> {
  const retries = options.retries ?? 4;
  const backoffMs = options.backoffMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const budgetMs = options.budgetMs ?? 30_000;
  const send = options.fetch ?? fetch;
  const secret =
    typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
  const key = crypto.subtle.importKey(
    'raw',
    new Uint8Array(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return async (notice) => {
    const body = JSON.stringify(notice);
    const giveUpAt = Date.now() + budgetMs;
    let last = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) {
        const delay = backoffMs * 2 ** (attempt - 1);
        if (Date.now() + delay >= giveUpAt) {
          last += ` (gave up: its ${budgetMs} ms budget would run out)`;
          break;
        }
        await new Promise((done) => setTimeout(done, delay));
      }
      const attemptMs = Math.min(timeoutMs, giveUpAt - Date.now());
      const timestamp = String(Date.now());
      const signature = await crypto.subtle.sign(
        'HMAC',
        await key,
        new TextEncoder().encode(`${timestamp}.${body}`),
      );
      let response: Response;
      try {
        response = await send(options.url, {
          method: 'POST',
          headers: {
            ...options.headers,
            'content-type': 'application/json',
            'x-agent-continuations-timestamp': timestamp,
            'x-agent-continuations-signature': `v1=${base64UrlEncode(new Uint8Array(signature))}`,
          },
          body,
          signal: AbortSignal.timeout(Math.max(1, attemptMs)),
        });
      } catch (error) {
        const timedOut =
          error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        last = timedOut
          ? `no answer within ${attemptMs} ms`
          : error instanceof Error
            ? error.message
            : String(error);
        continue;
      }
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) return;
      last = `HTTP ${response.status}`;
      if (response.status !== 429 && response.status < 500) break;
    }
    throw new ContinuationError(
      'NOTIFY_FAILED',
      `The webhook notice for continuation ${notice.continuationId} was not delivered: ${last}.`,
    );
  };
}

/**
 * Check a webhook notice's signature as {@link createWebhookNotifier} makes it: true when the
 * signature matches the body and timestamp, and the timestamp is within `toleranceMs` (5 minutes
 * by default) of now.
 *
 * @example
 * ```ts
 * const body = await request.text();
 * const ok = await verifyWebhookSignature({
 *   body,
 *   timestamp: request.headers.get('x-agent-continuations-timestamp'),
 *   signature: request.headers.get('x-agent-continuations-signature'),
 *   secret: process.env.HOOK_SECRET!,
 * });
 * ```
 */
export async function verifyWebhookSignature(input: {
  body: string;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  secret: SealSecret;
  toleranceMs?: number;
  now?: number;
}): Promise<boolean> {
  const { body, timestamp, signature } = input;
  if (!timestamp || !signature?.startsWith('v1=') || !/^\d{1,16}$/.test(timestamp)) return false;
  if (Math.abs((input.now ?? Date.now()) - Number(timestamp)) > (input.toleranceMs ?? 300_000)) return false;
  const mac = base64UrlDecode(signature.slice(3));
  if (!mac || base64UrlEncode(mac) !== signature.slice(3)) return false;
  const secret = typeof input.secret === 'string' ? new TextEncoder().encode(input.secret) : input.secret;
  const key = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  return crypto.subtle.verify('HMAC', key, mac, new TextEncoder().encode(`${timestamp}.${body}`));
}
