/**
 * The HTTP side of the LangGraph API: JSON bodies in, JSON answers out, and refusals made before
 * anything ran as statuses with a message (`{ detail, code }`), as LangGraph servers answer them.
 */
import { isContinuationError, type JsonObject, type JsonValue } from '@agent-continuations/core';

export async function jsonBody(request: Request, optional: boolean): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '' && optional) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BadRequest('The body must be JSON.');
  }
  if (!isObject(body)) throw new BadRequest('The body must be a JSON object.');
  return body;
}

export class BadRequest extends Error {}

const REFUSALS: Partial<Record<string, number>> = {
  CLAIM_CONFLICT: 409,
  UNKNOWN_ACTION: 409,
  NOT_RESUMABLE: 409,
  EXPIRED: 409,
  NOT_FOUND: 404,
  INVALID_DECISION: 422,
  WRONG_DECISION_KIND: 422,
  DECISION_NOT_ALLOWED: 422,
  INVALID_ARGS: 422,
  INVALID_INPUT: 422,
};

/** True for a refusal made before anything ran: answered with a status, not an error event. */
export function isRefusal(error: unknown): boolean {
  return error instanceof BadRequest || (isContinuationError(error) && REFUSALS[error.code] !== undefined);
}

export function failure(error: unknown): Response {
  if (error instanceof BadRequest) return refusal(400, error.message);
  if (isContinuationError(error) && REFUSALS[error.code] !== undefined) {
    return refusal(REFUSALS[error.code]!, error.message, error.code);
  }
  throw error;
}

export function refusal(status: number, message: string, code?: string): Response {
  return json({ detail: message, ...(code ? { code } : {}) }, status);
}

export function json(value: JsonValue | JsonObject[], status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nameOf(error: unknown): string {
  return isContinuationError(error) ? error.code : error instanceof Error ? error.name : 'Error';
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
