/**
 * The part of the LangGraph HTTP API that `@langchain/langgraph-sdk`'s `Client` and `useStream`
 * use for human-in-the-loop, as one fetch-style handler over a runtime: threads, their state, and
 * runs streamed (or waited for) on a thread, started with `input` or resumed with
 * `command: { resume }`. A resume is matched, server-side, to the thread's waiting suspension and
 * runs under the store's claim, so it applies once; refusals are statuses with a message.
 */
import { ContinuationError, type JsonObject, type Runtime } from '@agent-continuations/core';
import { failure, isObject, json, jsonBody, refusal } from './api-http';
import { finalValues, modesOf, sse, startRun } from './api-run';
import {
  type ApiThread,
  type InterruptShape,
  loadThread,
  memoryThreads,
  type ThreadStore,
  threadJson,
  threadState,
} from './api-threads';

/** Who calls, from your auth. */
export interface LangGraphApiContext {
  /** The signed-in user: a thread of another user is not found. */
  user?: string;
  /** Who decides, in the audit trail (`by`); the user by default. */
  by?: string;
}

/** Options of {@link langGraphApi}. */
export interface LangGraphApiOptions {
  /**
   * The runtime's agent clients reach, by name: the `assistant_id` they send.
   *
   * @example
   * ```ts
   * langGraphApi(runtime, { agent: 'payments' }); // new Client().runs.stream(threadId, 'payments', ...)
   * ```
   */
  agent?: string | { name: string };
  /**
   * Several agents, each reached by its name as `assistant_id`.
   *
   * @example
   * ```ts
   * langGraphApi(runtime, { agents: ['payments', 'support'] });
   * ```
   */
  agents?: ReadonlyArray<string | { name: string }>;
  /**
   * Who posts, from your auth.
   *
   * @example
   * ```ts
   * langGraphApi(runtime, { agent: 'ops', context: async (request) => ({ user: (await auth(request)).id }) });
   * ```
   */
  context?: (request: Request) => LangGraphApiContext | Promise<LangGraphApiContext>;
  /**
   * Where threads are kept beside the store's records; in memory by default (see {@link ThreadStore}).
   *
   * @example
   * ```ts
   * langGraphApi(runtime, { agent: 'payments', threads: threadsInRedis });
   * ```
   */
  threads?: ThreadStore;
  /**
   * How interrupts show the actions: `'human-interrupt'` (default) renders each as a `HumanInterrupt`
   * for Agent Inbox; `'middleware'` renders the approvals together as the human-in-the-loop
   * middleware's request (`{ actionRequests, reviewConfigs }`), as a `useStream` page written for
   * `createAgent` reads it, answered with `{ decisions: [...] }`. Both answers are taken either way.
   *
   * @example
   * ```ts
   * langGraphApi(runtime, { agent: 'payments', interrupts: 'middleware' });
   * ```
   */
  interrupts?: InterruptShape;
}

/**
 * A fetch-style handler speaking the LangGraph HTTP API's thread and run endpoints over `runtime`:
 * `POST /threads`, `GET /threads/:id`, `GET /threads/:id/state`, `POST /threads/:id/history`,
 * `POST /threads/:id/runs/stream` and `POST /threads/:id/runs/wait`, under any path prefix. Point
 * the SDK's `Client` (or `useStream`) at where it is mounted. Each waiting action is an interrupt
 * whose `id` is the action's id and whose `value` is its `HumanInterrupt`; `command: { resume }`
 * takes `HumanResponse`s (see {@link decisionFromHumanResponse}) keyed by interrupt id, or one
 * response alone when one action waits. A resume of a thread whose actions were already decided
 * gets 409 and runs nothing; an unknown thread or assistant 404; a malformed body 400; a decision
 * the action does not allow 422. Other failures before the stream starts reach the caller as thrown
 * errors; once it streams, a failure is its `error` event.
 *
 * @example
 * ```ts
 * // app/api/langgraph/[...path]/route.ts
 * const api = langGraphApi(runtime, { agent: 'ops', context: async (request) => ({ user: await userOf(request) }) });
 * export const GET = api;
 * export const POST = api;
 * // in the browser: useStream({ apiUrl: '/api/langgraph', assistantId: 'ops' })
 * ```
 */
export function langGraphApi(
  runtime: Runtime,
  options: LangGraphApiOptions,
): (request: Request) => Promise<Response> {
  const names = [...(options.agent ? [options.agent] : []), ...(options.agents ?? [])].map((agent) =>
    typeof agent === 'string' ? agent : agent.name,
  );
  if (names.length === 0) {
    throw new ContinuationError('INVALID_OPERATION', 'langGraphApi() needs the agent (or agents) it serves.');
  }
  for (const name of names) runtime.agent(name);
  const threads = options.threads ?? memoryThreads();
  const shape = options.interrupts ?? 'human-interrupt';

  const handle = async (request: Request): Promise<Response> => {
    const route = routeOf(request);
    if (!route) return refusal(404, `No such endpoint: ${request.method} ${new URL(request.url).pathname}.`);
    const who = (await options.context?.(request)) ?? {};
    const user = who.user;
    const by = who.by ?? user;
    if (route.kind === 'create') {
      const body = await jsonBody(request, true);
      const id = body.thread_id ?? crypto.randomUUID();
      if (typeof id !== 'string' || id.length === 0)
        return refusal(400, 'thread_id must be a non-empty string.');
      if (body.metadata !== undefined && !isObject(body.metadata))
        return refusal(400, 'metadata must be an object.');
      const existing = await loadThread(runtime, threads, id, user);
      if (existing) {
        if (body.if_exists === 'do_nothing') return json(threadJson(existing, shape));
        return refusal(409, `Thread "${id}" already exists.`);
      }
      const now = new Date().toISOString();
      const thread: ApiThread = {
        id,
        createdAt: now,
        updatedAt: now,
        metadata: (body.metadata as JsonObject | undefined) ?? {},
        ...(user === undefined ? {} : { user }),
        messages: [],
      };
      await threads.put(thread);
      return json(threadJson({ thread, actions: [], suspended: false }, shape));
    }
    const view = await loadThread(runtime, threads, route.thread, user);
    if (!view) return refusal(404, `No thread "${route.thread}".`);
    if (route.kind === 'thread') return json(threadJson(view, shape));
    if (route.kind === 'state') return json(threadState(view, shape));
    if (route.kind === 'history') {
      const state = threadState(view, shape);
      return json(state.checkpoint === null ? [] : [state]);
    }
    const body = await jsonBody(request, false);
    const assistant = body.assistant_id;
    if (typeof assistant !== 'string' || !names.includes(assistant)) {
      return refusal(404, `No assistant "${String(assistant)}" here (assistants: ${names.join(', ')}).`);
    }
    const run = startRun(runtime, threads, view, assistant, body, { user, by });
    if (route.kind === 'wait') {
      const settled = await run.settled;
      if (settled.error) return failure(settled.error);
      return json(finalValues(settled.result!, shape));
    }
    return sse(run, modesOf(body.stream_mode), route.thread, shape);
  };

  return async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      return failure(error);
    }
  };
}

/** What a request asks for, by the path after its `/threads` segment. */
type Route =
  | { kind: 'create' }
  | { kind: 'thread' | 'state' | 'history' | 'stream' | 'wait'; thread: string };

function routeOf(request: Request): Route | undefined {
  const segments = new URL(request.url).pathname.split('/').filter((segment) => segment.length > 0);
  const at = segments.indexOf('threads');
  if (at < 0) return undefined;
  const [id, ...rest] = segments.slice(at + 1).map((segment) => decodeURIComponent(segment));
  const tail = rest.join('/');
  const method = request.method.toUpperCase();
  if (id === undefined) return method === 'POST' ? { kind: 'create' } : undefined;
  if (method === 'GET' && tail === '') return { kind: 'thread', thread: id };
  if (method === 'GET' && tail === 'state') return { kind: 'state', thread: id };
  if ((method === 'POST' || method === 'GET') && tail === 'history') return { kind: 'history', thread: id };
  if (method === 'POST' && tail === 'runs/stream') return { kind: 'stream', thread: id };
  if (method === 'POST' && tail === 'runs/wait') return { kind: 'wait', thread: id };
  return undefined;
}
