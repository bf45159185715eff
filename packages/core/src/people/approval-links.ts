/**
 * Approval links: pre-signed, expiring URLs that carry one decision on one action, so a person can
 * approve or reject from an email or a chat message. A link's token is an HMAC-SHA256 (Web Crypto)
 * over the continuation id, the action id, the decision kind and the expiry; nothing else is
 * trusted. A link is single-use by construction: it names one suspension (`continuationId`), and
 * once that suspension is resumed (by the link or by anyone) the store refuses a second claim.
 */
import { ContinuationError } from '../errors';
import { base64UrlDecode, base64UrlEncode, type SealSecret } from '../trust/seal';

/** The decision a link applies. */
export type LinkKind = 'approve' | 'reject';

/** What a verified link says. */
export interface ApprovalLink {
  continuationId: string;
  actionId: string;
  kind: LinkKind;
  /** ISO date-time after which the link is refused. */
  expiresAt: string;
}

/** Options of {@link createApprovalLinks}. */
export interface ApprovalLinksOptions {
  /** The app's secret (at least 16 bytes); the same secret must verify what it signed. */
  secret: SealSecret;
  /** Where the console's link routes are served, e.g. `https://ops.example.com/inbox`. */
  baseUrl: string;
  /** How long a link holds when no expiry is given; 24 hours by default. */
  ttlMs?: number;
}

/** Signs and verifies approval links; see {@link createApprovalLinks}. */
export interface ApprovalLinks {
  /** The link's URL: `${baseUrl}/links/<token>`. */
  url(
    continuationId: string,
    actionId: string,
    kind: LinkKind,
    options?: { expiresAt?: Date },
  ): Promise<string>;
  /** The token alone (the last path segment of {@link ApprovalLinks.url}). */
  token(
    continuationId: string,
    actionId: string,
    kind: LinkKind,
    options?: { expiresAt?: Date },
  ): Promise<string>;
  /**
   * What a token says, once its MAC checks; `LINK_INVALID` when it was forged, altered or is not a
   * token, `LINK_EXPIRED` (with the link in `details`) when `now` is past its expiry.
   */
  verify(token: string, now?: Date): Promise<ApprovalLink>;
}

/** A default link lifetime of 24 hours. */
export const DEFAULT_LINK_TTL_MS = 24 * 60 * 60 * 1000;
const MIN_SECRET_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Make approval links signed with the app's secret.
 *
 * @example
 * ```ts
 * const links = createApprovalLinks({ secret: process.env.LINK_SECRET!, baseUrl: 'https://ops.example.com/inbox' });
 * for (const action of listActions(continuation)) {
 *   if (action.kind === 'approval') await chat.post(await links.url(continuation.id, action.id, 'approve'));
 * }
 * // in the route that serves `/links/:token`:
 * const { continuationId, actionId, kind } = await links.verify(token);
 * ```
 */
export function createApprovalLinks(options: ApprovalLinksOptions): ApprovalLinks {
  const secret = typeof options.secret === 'string' ? encoder.encode(options.secret) : options.secret;
  if (secret.byteLength < MIN_SECRET_BYTES) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `An approval-link secret needs at least ${MIN_SECRET_BYTES} bytes; this one has ${secret.byteLength}.`,
    );
  }
  const ttlMs = options.ttlMs ?? DEFAULT_LINK_TTL_MS;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const key = crypto.subtle.importKey(
    'raw',
    new Uint8Array(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );

  async function token(
    continuationId: string,
    actionId: string,
    kind: LinkKind,
    { expiresAt = new Date(Date.now() + ttlMs) }: { expiresAt?: Date } = {},
  ): Promise<string> {
    if (kind !== 'approve' && kind !== 'reject') {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `A link applies 'approve' or 'reject', not '${String(kind)}'.`,
      );
    }
    const payload = base64UrlEncode(
      encoder.encode(JSON.stringify([continuationId, actionId, kind, expiresAt.toISOString()])),
    );
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(payload)));
    return `${payload}.${base64UrlEncode(mac)}`;
  }

  return {
    token,
    async url(continuationId, actionId, kind, linkOptions) {
      return `${baseUrl}/links/${await token(continuationId, actionId, kind, linkOptions)}`;
    },
    async verify(text, now = new Date()) {
      const [payload, macText, extra] = typeof text === 'string' ? text.split('.') : [];
      const mac = macText === undefined ? undefined : base64UrlDecode(macText);
      if (
        payload === undefined ||
        mac === undefined ||
        extra !== undefined ||
        mac.byteLength !== 32 ||
        base64UrlEncode(mac) !== macText
      ) {
        throw invalid();
      }
      if (!(await crypto.subtle.verify('HMAC', await key, mac, encoder.encode(payload)))) throw invalid();
      const link = decodePayload(payload);
      if (!link) throw invalid();
      if (Date.parse(link.expiresAt) <= now.getTime()) {
        throw new ContinuationError('LINK_EXPIRED', `This link expired at ${link.expiresAt}.`, {
          details: link,
        });
      }
      return link;
    },
  };
}

function decodePayload(payload: string): ApprovalLink | undefined {
  const bytes = base64UrlDecode(payload);
  if (!bytes) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 4 || !value.every((part) => typeof part === 'string')) {
    return undefined;
  }
  const [continuationId, actionId, kind, expiresAt] = value as string[];
  if ((kind !== 'approve' && kind !== 'reject') || Number.isNaN(Date.parse(expiresAt!))) return undefined;
  return { continuationId: continuationId!, actionId: actionId!, kind, expiresAt: expiresAt! };
}

function invalid(): ContinuationError {
  return new ContinuationError(
    'LINK_INVALID',
    'This link is not valid: it was altered, or not made by this app.',
  );
}
