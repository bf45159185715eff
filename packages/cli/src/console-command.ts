/**
 * `console`: serve the web approval inbox (`@agent-continuations/console`) over the command line's
 * runtime, with `node:http`, until the process is interrupted. Decisions resume runs in this
 * process, with the agents of `--agents`; the deciding person is `--user` (the login name by
 * default). It listens on loopback; another address needs `--password-env`, and then every request
 * signs in with HTTP Basic authentication. Requests for another host name are refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { userInfo } from 'node:os';
import { Readable } from 'node:stream';
import { type Command, type CommandContext, stringOption } from './context';
import { UsageError } from './usage-error';

/** The port the console listens on when `--port` is not given. */
export const DEFAULT_CONSOLE_PORT = 4318;

/** A handler as `createConsole` returns it: Web `Request` in, `Response` out. */
export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
}

/** `console --store URL --agents FILE`: serve the approval inbox until interrupted. */
export const consoleCommand: Command = {
  usage:
    'console --agents FILE [--port 4318] [--host 127.0.0.1] [--password-env NAME] [--secret-env NAME] [--user NAME] [--base-path /inbox]',
  summary: 'serve the web approval inbox over the store (decisions resume runs with --agents)',
  operands: { min: 0, max: 0 },
  options: {
    agents: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'secret-env': { type: 'string' },
    'password-env': { type: 'string' },
    user: { type: 'string' },
    'base-path': { type: 'string' },
  },
  async run(context) {
    const file = stringOption(context.values, 'agents') ?? context.env.AGENT_CONTINUATIONS_AGENTS;
    if (!file) {
      throw new UsageError(
        'console needs --agents FILE (a module exporting your agents by name): decisions taken in the inbox resume the runs in this process.',
      );
    }
    const port = portOption(stringOption(context.values, 'port'));
    const host = stringOption(context.values, 'host') ?? '127.0.0.1';
    const basePath = basePathOption(stringOption(context.values, 'base-path'));
    const user = stringOption(context.values, 'user') ?? loginName();
    const secret = secretOption(context, stringOption(context.values, 'secret-env'));
    const password = passwordOption(context, stringOption(context.values, 'password-env'));
    if (!isLoopback(host) && !password) {
      throw new UsageError(
        `--host ${host} serves the inbox beyond this machine, deciding as ${user} for anyone who reaches it: ` +
          'give --password-env NAME (every request then signs in with that password), or keep the default 127.0.0.1.',
      );
    }

    const runtime = await context.runtime(file);
    const { createConsole } = await loadConsole();
    // Listen first: the approval links the console signs carry the address it is served at.
    let handler: FetchHandler | undefined;
    const server = await listen(
      { fetch: (request) => handler!.fetch(request) },
      port,
      host,
      context,
      password,
    );
    const bound = (server.address() as AddressInfo).port;
    const origin = `http://${urlHost(host)}:${bound}`;
    // The names this console answers to: the one it prints and, on loopback, its other spellings.
    const origins = isLoopback(host)
      ? [`http://127.0.0.1:${bound}`, `http://localhost:${bound}`, `http://[::1]:${bound}`]
      : [];
    handler = createConsole({
      runtime,
      secret: secret.value,
      basePath,
      baseUrl: `${origin}${basePath}`,
      origins,
      // The console serves one person: every request acts as `user` (signed in when a password is set).
      authorize: () => ({ id: user }),
    });
    const url = `${origin}${basePath}/`;
    context.say(`The approval inbox is at ${url} (deciding as ${user}). Stop it with Ctrl+C.`);
    if (!secret.fromEnv) {
      context.say(
        'Approval links are signed with a secret made for this process: they stop working when it exits (give one with --secret-env NAME).',
      );
    }
    await stopped(server, context.signal);
    return { json: { url, stopped: true }, text: 'The approval inbox stopped.' };
  },
};

async function loadConsole(): Promise<typeof import('@agent-continuations/console')> {
  try {
    return await import('@agent-continuations/console');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new UsageError(
        'The console needs the package @agent-continuations/console: npm install @agent-continuations/console',
      );
    }
    throw error;
  }
}

function portOption(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CONSOLE_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) {
    throw new UsageError(`--port must be a port number (0 to 65535, 0 for any free port), not "${text}".`);
  }
  return port;
}

function basePathOption(text: string | undefined): string {
  if (text === undefined || text === '' || text === '/') return '';
  if (!text.startsWith('/'))
    throw new UsageError(`--base-path must start with "/", as in /inbox; not "${text}".`);
  return text.replace(/\/+$/, '');
}

function secretOption(
  context: CommandContext,
  name: string | undefined,
): { value: string; fromEnv: boolean } {
  if (name === undefined) return { value: randomBytes(32).toString('base64url'), fromEnv: false };
  const value = context.env[name];
  if (!value)
    throw new UsageError(`The environment variable ${name} (the console's secret) is not set or empty.`);
  if (Buffer.byteLength(value) < 16) {
    throw new UsageError(
      `The secret in ${name} is too short: give at least 16 bytes (32 random bytes are best).`,
    );
  }
  return { value, fromEnv: true };
}

function passwordOption(context: CommandContext, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const value = context.env[name];
  if (!value)
    throw new UsageError(`The environment variable ${name} (the console's password) is not set or empty.`);
  if (Buffer.byteLength(value) < 12) {
    throw new UsageError(`The password in ${name} is too short: give at least 12 characters.`);
  }
  return value;
}

/** Whether `host` is an address of this machine only. */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Whether `header` (an `Authorization` header) is HTTP Basic with `password`, any user name. */
function signedIn(header: string | undefined, password: string): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const given = Buffer.from(decoded.slice(decoded.indexOf(':') + 1));
  const wanted = Buffer.from(password);
  return decoded.includes(':') && given.length === wanted.length && timingSafeEqual(given, wanted);
}

function loginName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'console';
  }
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** Resolves once `server` closed, after SIGINT, SIGTERM or `signal`. */
function stopped(server: Server, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Serve `handler` with `node:http`: each request becomes a Web `Request`, each `Response` is written back. */
function listen(
  handler: FetchHandler,
  port: number,
  host: string,
  context: CommandContext,
  password: string | undefined,
): Promise<Server> {
  const server = createServer(async (incoming, outgoing) => {
    if (password && !signedIn(incoming.headers.authorization, password)) {
      outgoing
        .writeHead(401, {
          'www-authenticate': 'Basic realm="approval inbox", charset="UTF-8"',
          'content-type': 'text/plain; charset=utf-8',
        })
        .end('Sign in to the approval inbox.');
      incoming.resume();
      return;
    }
    try {
      const response = await handler.fetch(toRequest(incoming, host));
      const headers: OutgoingHttpHeaders = {};
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie') headers[key] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) headers['set-cookie'] = cookies;
      const body = incoming.method === 'HEAD' ? undefined : Buffer.from(await response.arrayBuffer());
      outgoing.writeHead(response.status, headers).end(body);
    } catch (error) {
      context.warn(`console: ${error instanceof Error ? error.message : String(error)}`);
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      outgoing.end('The console failed on this request.');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new UsageError(
              `Port ${port} on ${host} is in use: pick another with --port (0 for any free port).`,
            )
          : error,
      );
    });
    server.listen(port, host, () => resolve(server));
  });
}

/** The Web `Request` of `incoming`; its body streams in, so the console's limit applies while it is read. */
function toRequest(incoming: IncomingMessage, host: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = incoming.method ?? 'GET';
  let url: URL;
  try {
    url = new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? urlHost(host)}`);
  } catch {
    // A Host header that is no host name: the console's host check refuses it.
    url = new URL(incoming.url ?? '/', 'http://invalid.invalid');
    headers.set('host', 'invalid.invalid');
  }
  const body =
    method === 'GET' || method === 'HEAD' ? {} : { body: Readable.toWeb(incoming), duplex: 'half' };
  return new Request(url, { method, headers, ...body } as RequestInit);
}
