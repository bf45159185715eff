/**
 * The inbox page (`GET /`): the pending actions of suspended runs, newest first, filtered by agent,
 * tool, metadata and age, a page at a time.
 */
import { isContinuationError, type JsonObject, type JsonValue, listActions } from '@agent-continuations/core';
import { Hono } from 'hono';
import { type ConsoleContext, runInfo } from '../context';
import { type InboxRow, inboxBody, page } from '../views';

/** The inbox as a Hono sub-app. */
export function inboxPage(ctx: ConsoleContext): Hono {
  const { base, store } = ctx;
  return new Hono().get('/', async (c) => {
    if (!(await ctx.allow(c, { kind: 'read' }))) return ctx.refuse(c);
    const query = new URL(c.req.url).searchParams;
    const errors: string[] = [];
    const agent = query.get('agent')?.trim() ?? '';
    const tool = query.get('tool')?.trim() ?? '';
    const metaText = query.get('metaFilter')?.trim() ?? '';
    const metadata: JsonObject = {};
    for (const [key, value] of query) {
      if (key.startsWith('meta.') && key.length > 5) metadata[key.slice(5)] = metaValue(value);
    }
    for (const pair of metaText.split(',').map((each) => each.trim())) {
      if (!pair) continue;
      const at = pair.indexOf('=');
      if (at <= 0) errors.push(`Metadata filter "${pair}" should be key=value.`);
      else metadata[pair.slice(0, at).trim()] = metaValue(pair.slice(at + 1).trim());
    }
    const olderThan = duration(query.get('olderThan'), 'Older than', errors);
    const newerThan = duration(query.get('newerThan'), 'Newer than', errors);
    const cursor = query.get('cursor') ?? undefined;
    const now = Date.now();
    const rows: InboxRow[] = [];
    let next: string | undefined;
    let listed: Awaited<ReturnType<typeof store.list>> | undefined;
    if (errors.length === 0) {
      try {
        listed = await store.list({
          status: 'suspended',
          ...(Object.keys(metadata).length ? { metadata } : {}),
          limit: ctx.pageSize,
          order: 'desc',
          ...(cursor ? { cursor } : {}),
        });
      } catch (error) {
        // A cursor the store does not know is the client's error, not the server's.
        if (!cursor || !isContinuationError(error, 'INVALID_OPERATION')) throw error;
        errors.push('The page cursor is not one this inbox gave: start again from the first page.');
      }
    }
    if (listed) {
      const loaded = await Promise.all(listed.items.map((item) => store.load(item.id)));
      for (const stored of loaded) {
        // Claimed or settled since it was listed, or a suspension the run's log has moved past.
        if (!stored || !(await ctx.waiting(stored))) continue;
        // Each run is a read of its own: an app can show each person their own tenant's runs.
        const run = runInfo(stored);
        if (!(await ctx.allow(c, { kind: 'read', continuationId: stored.id, run }))) continue;
        const ageMs = now - Date.parse(stored.createdAt);
        if (olderThan !== undefined && ageMs < olderThan) continue;
        if (newerThan !== undefined && ageMs > newerThan) continue;
        for (const action of listActions(stored.continuation)) {
          if (agent && !action.path.some((segment) => segment.agent === agent)) continue;
          if (tool && action.toolName !== tool) continue;
          rows.push({
            continuationId: stored.id,
            runId: stored.runId,
            createdAt: stored.createdAt,
            action,
          });
        }
      }
      if (listed.cursor) {
        const params = new URLSearchParams(query);
        params.set('cursor', listed.cursor);
        next = `${base}/?${params.toString()}`;
      }
    }
    const filters = {
      agent,
      tool,
      meta: metaText,
      olderThan: query.get('olderThan') ?? '',
      newerThan: query.get('newerThan') ?? '',
    };
    return c.html(
      page('Inbox', base, inboxBody(base, rows, filters, next, errors, now)),
      errors.length ? 400 : 200,
    );
  });
}

/** A metadata filter value: JSON when it parses, else the text. */
function metaValue(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function duration(text: string | null, label: string, errors: string[]): number | undefined {
  if (!text?.trim()) return undefined;
  const match = /^(\d+)\s*([smhd])$/.exec(text.trim());
  if (!match) {
    errors.push(`${label}: "${text}" is not a duration such as 30s, 15m, 2h or 7d.`);
    return undefined;
  }
  return Number(match[1]) * units[match[2]!]!;
}
