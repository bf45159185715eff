/**
 * The console: a Hono app over a continuation store, served as a standard `fetch` handler. Each page
 * is a sub-app of its own (`pages/`); this file sets the headers and error pages they share and
 * mounts them.
 */
import { isContinuationError } from '@agent-continuations/core';
import { Hono } from 'hono';
import { configuredOrigins, consoleContext } from './context';
import type { Console, ConsoleOptions } from './options';
import { cancelPage } from './pages/cancel';
import { decidePage } from './pages/decide';
import { inboxPage } from './pages/inbox';
import { linksPage } from './pages/links';
import { runPage } from './pages/run';
import { messagePage } from './views';

export type {
  Access,
  Console,
  ConsoleOptions,
  DecisionChoice,
  Identity,
  RunInfo,
} from './options';
export type { Html } from './views';

/**
 * Build the approval console.
 *
 * @example
 * ```ts
 * import { serve } from '@hono/node-server';
 * const inbox = createConsole({
 *   store,
 *   agents: { hr: hrAgent },
 *   authorize: (request) => ({ id: request.headers.get('x-user') ?? 'anonymous' }),
 *   secret: process.env.CONSOLE_SECRET!,
 * });
 * serve({ fetch: inbox.fetch, port: 3000 });
 * ```
 */
export function createConsole(options: ConsoleOptions): Console {
  const ctx = consoleContext(options);
  const { base } = ctx;
  // Not strict: `/inbox` and `/inbox/` are the same page, whichever a link or a person types.
  const app = base ? new Hono({ strict: false }).basePath(base) : new Hono({ strict: false });
  const hosts = new Set(configuredOrigins(options).map((origin) => new URL(origin).host));

  // No script runs on these pages, no other site frames them, and a link's token never leaks to
  // another site through a Referer header, nor into a shared cache.
  app.use('*', async (c, next) => {
    await next();
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    c.header('X-Frame-Options', 'DENY');
    c.header('X-Content-Type-Options', 'nosniff');
    // same-origin, not no-referrer: with no-referrer the browser posts forms with `Origin: null`.
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cache-Control', 'no-store');
  });

  // With its origins configured, the console answers only requests addressed to them: a page of
  // another site whose name resolves to this server (DNS rebinding) gets nothing.
  app.use('*', async (c, next) => {
    if (hosts.size > 0 && !hosts.has(c.req.header('host') ?? new URL(c.req.url).host)) {
      return c.html(
        messagePage(base, 'Wrong host', ['This console is not served under this host name.']),
        421,
      );
    }
    await next();
  });

  app.onError((error, c) => {
    // A typed error explains itself; anything else stays in the server's log.
    if (isContinuationError(error)) {
      return c.html(messagePage(base, 'Something went wrong', [`${error.code}: ${error.message}`]), 500);
    }
    console.error(error);
    return c.html(messagePage(base, 'Something went wrong', ['The server failed; see its log.']), 500);
  });
  app.notFound((c) => c.html(messagePage(base, 'Not found', ['There is no page here.']), 404));

  app.route('/', inboxPage(ctx));
  app.route('/', runPage(ctx));
  app.route('/', decidePage(ctx));
  app.route('/', cancelPage(ctx));
  app.route('/', linksPage(ctx));

  return { fetch: async (request) => app.fetch(request), app: app as unknown as Hono, links: ctx.links };
}
