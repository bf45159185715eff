/**
 * CSRF protection for the console's forms: a random nonce in an HttpOnly, SameSite=Lax cookie,
 * and in each form the HMAC of that nonce with the console's secret. A write needs both, and a
 * matching `Origin` when the browser sends one.
 */

/** The cookie that holds the session's nonce. */
export const CSRF_COOKIE = 'ac_console_csrf';

const encoder = new TextEncoder();

/** HMAC-SHA256 of `text` with `secret`, as base64url. */
export async function hmac(secret: string | Uint8Array, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    typeof secret === 'string' ? encoder.encode(secret) : new Uint8Array(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
  return base64url(mac);
}

/** A fresh random nonce. */
export function newNonce(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(18)));
}

/** The form token for a session nonce. */
export function csrfToken(secret: string | Uint8Array, nonce: string): Promise<string> {
  return hmac(secret, `csrf\u0000${nonce}`);
}

/** Does `token` belong to `nonce`? Compared in constant time. */
export async function csrfValid(
  secret: string | Uint8Array,
  nonce: string | undefined,
  token: unknown,
): Promise<boolean> {
  if (!nonce || typeof token !== 'string' || token.length === 0) return false;
  return equalText(await csrfToken(secret, nonce), token);
}

/** Constant-time comparison of two strings. */
export function equalText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
