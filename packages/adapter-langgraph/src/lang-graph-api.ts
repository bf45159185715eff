/**
 * The part of the LangGraph HTTP API that `@langchain/langgraph-sdk`'s `Client` and `useStream`
 * use for human-in-the-loop, as one fetch-style handler over a runtime: threads, their state, and
 * runs streamed (or waited for) on a thread, started with `input` or resumed with
 * `command: { resume }`. A resume is matched, server-side, to the thread's waiting suspension and
 * runs under the store's claim, so it applies once; refusals are statuses with a message.
 */
import {
  ContinuationError,
  isContinuationError,
  type JsonObject,
  type JsonValue,
  type Message,
  type RunEvent,
  type RunResult,
  type Runtime,
} from '@agent-continuations/core';
import { type BaseMessage, coerceMessageLikeToMessage } from '@langchain/core/messages';
import { decisionsFromResume } from './api-resume';
import {
  type ApiThread,
  interruptsOf,
  loadThread,
  memoryThreads,
  messageDicts,
  THREAD_KEY,
  type ThreadStore,
  type ThreadView,
  threadJson,
  threadState,
  USER_KEY,
} from './api-threads';
import { fromLangChainMessages } from './messages';

/** Who calls, from your auth. */
export interface LangGraphApiContext {
  /** The signed-in user: a thread of another user is not found. */
  user?: string;
  /** Who decides, in the audit trail (`by`); the user by default. */
  by?: string;
}

/** Options of {@link langGraphApi}. */
export interface LangGraphApiOptions {
  /** The runtime's agent clients reach, by name: the `assistant_id` they send. */
  agent?: string | { name: string };
  /** Several agents, each reached by its name as `assistant_id`. */
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
  /** Where threads are kept beside the store's records; in memory by default (see {@link ThreadStore}). */
  threads?: ThreadStore;
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
 * the action does not allow 422.
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
        if (body.if_exists === 'do_nothing') return json(threadJson(existing));
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
      return json(threadJson({ thread, actions: [], suspended: false }));
    }
    const view = await loadThread(runtime, threads, route.thread, user);
    if (!view) return refusal(404, `No thread "${route.thread}".`);
    if (route.kind === 'thread') return json(threadJson(view));
    if (route.kind === 'state') return json(threadState(view));
    if (route.kind === 'history') {
      const state = threadState(view);
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
      return json(finalValues(settled.result!));
    }
    return sse(run, modesOf(body.stream_mode), route.thread);
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

/** A run of the API: its events as they happen, then its settlement. */
interface ApiRun {
  id: string;
  events: AsyncIterable<RunEvent>;
  settled: Promise<{ result?: RunResult<unknown>; error?: unknown }>;
  /** Resolves once something ran (the first event) or the run settled: a refusal comes before. */
  begun: Promise<void>;
  /** How the run ended, once it has. */
  outcome(): { result?: RunResult<unknown>; error?: unknown } | undefined;
}

/** Start or resume the thread's run, as the body asks; the thread list learns how it ended. */
function startRun(
  runtime: Runtime,
  threads: ThreadStore,
  view: ThreadView,
  agent: string,
  body: Record<string, unknown>,
  who: { user: string | undefined; by: string | undefined },
): ApiRun {
  const queue: RunEvent[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let outcome: { result?: RunResult<unknown>; error?: unknown } | undefined;
  let markBegun: () => void = () => {};
  const begun = new Promise<void>((resolve) => {
    markBegun = resolve;
  });
  const onEvent = (event: RunEvent) => {
    if (event.path && event.path.length > 0) return;
    queue.push(event);
    markBegun();
    wake?.();
  };
  const go = async (): Promise<RunResult<unknown>> => {
    const command = body.command;
    const resume = isObject(command) && command.resume !== undefined ? command.resume : undefined;
    if (isObject(command) && (command.goto !== undefined || command.update !== undefined)) {
      throw new ContinuationError(
        'INVALID_DECISION',
        'Only command.resume is supported; goto and update are not.',
      );
    }
    if (resume !== undefined) {
      if (!view.waiting) {
        throw new ContinuationError(
          view.suspended ? 'CLAIM_CONFLICT' : 'NOT_RESUMABLE',
          view.suspended
            ? `Thread "${view.thread.id}" was already resumed: nothing waits for a decision. Reload its state.`
            : `Nothing on thread "${view.thread.id}" waits for a resume.`,
        );
      }
      const decisions = decisionsFromResume(view.actions, resume, who.by);
      return runtime.resume(view.waiting.id, decisions, { onEvent, ...(who.by ? { owner: who.by } : {}) });
    }
    if (view.waiting) {
      throw new ContinuationError(
        'CLAIM_CONFLICT',
        `Thread "${view.thread.id}" waits for a decision: resume it with command.resume before sending input.`,
      );
    }
    const input = [...view.thread.messages, ...inputMessages(body.input)];
    const metadata: JsonObject = {
      [THREAD_KEY]: view.thread.id,
      ...(who.user === undefined ? {} : { [USER_KEY]: who.user }),
    };
    return runtime.start(agent, input, { metadata, onEvent });
  };
  const settled = go().then(
    async (result) => {
      await threads.put(endedThread(view.thread, result));
      return { result };
    },
    async (error: unknown) => {
      if (!isRefusal(error)) await threads.put({ ...view.thread, error: messageOf(error) });
      return { error };
    },
  );
  settled.then((ended) => {
    outcome = ended;
    done = true;
    markBegun();
    wake?.();
  });
  const events: AsyncIterable<RunEvent> = {
    async *[Symbol.asyncIterator]() {
      while (true) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (done) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
  };
  return { id: crypto.randomUUID(), events, settled, begun, outcome: () => outcome };
}

/** The thread once a run ended: its transcript when it finished, its new checkpoint. */
function endedThread(thread: ApiThread, result: RunResult<unknown>): ApiThread {
  const { error: _error, ...rest } = thread;
  const now = new Date().toISOString();
  if (result.status === 'suspended') return { ...rest, updatedAt: now };
  return { ...rest, updatedAt: now, messages: result.messages, checkpointId: crypto.randomUUID() };
}

/** The run as server-sent events: `metadata`, then each step in the asked modes, then the end state. */
async function sse(run: ApiRun, modes: ReadonlySet<string>, thread: string): Promise<Response> {
  await run.begun;
  const early = run.outcome();
  if (early?.error && isRefusal(early.error)) return failure(early.error);
  const encoder = new TextEncoder();
  const frame = (event: string, data: unknown) =>
    encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(frame('metadata', { run_id: run.id, attempt: 1 }));
      for await (const event of run.events) {
        for (const [mode, data] of stepChunks(event, modes)) controller.enqueue(frame(mode, data));
      }
      const { result, error } = await run.settled;
      if (error) controller.enqueue(frame('error', { error: nameOf(error), message: messageOf(error) }));
      else for (const [mode, data] of endChunks(result!, modes)) controller.enqueue(frame(mode, data));
      controller.close();
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'content-location': `/threads/${encodeURIComponent(thread)}/runs/${run.id}`,
    },
  });
}

/** The chunks of one step: the state after it (`values`), what it added (`updates`). */
function stepChunks(event: RunEvent, modes: ReadonlySet<string>): Array<[string, unknown]> {
  if (event.type !== 'model-call' && event.type !== 'tool-result') return [];
  const chunks: Array<[string, unknown]> = [];
  if (modes.has('updates')) {
    const added: Message =
      event.type === 'model-call'
        ? event.message
        : {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: event.toolCallId,
                toolName: event.toolName,
                output: event.output,
                ...(event.isError ? { isError: true } : {}),
              },
            ],
          };
    chunks.push([
      'updates',
      { [event.type === 'model-call' ? 'agent' : 'tools']: { messages: messageDicts([added]) } },
    ]);
  }
  if (modes.has('values')) chunks.push(['values', { messages: messageDicts(event.checkpoint().messages) }]);
  return chunks;
}

/** The chunks of the run's end: its last state, and the interrupts it waits on. */
function endChunks(result: RunResult<unknown>, modes: ReadonlySet<string>): Array<[string, unknown]> {
  const values = finalValues(result);
  const { __interrupt__: interrupts, ...state } = values;
  const chunks: Array<[string, unknown]> = [];
  if (modes.has('values')) chunks.push(['values', state]);
  if (interrupts !== undefined) {
    if (modes.has('values')) chunks.push(['values', { __interrupt__: interrupts }]);
    if (modes.has('updates')) chunks.push(['updates', { __interrupt__: interrupts }]);
  }
  return chunks;
}

/** The last state of a run, with `__interrupt__` when it waits (as `runs.wait` returns it). */
function finalValues(result: RunResult<unknown>): JsonObject {
  if (result.status !== 'suspended') return { messages: messageDicts(result.messages) };
  return {
    messages: messageDicts(result.continuation.messages),
    __interrupt__: interruptsOf(result.actions),
  };
}

function modesOf(value: unknown): ReadonlySet<string> {
  if (typeof value === 'string') return new Set([value]);
  if (Array.isArray(value) && value.length > 0) return new Set(value.map(String));
  return new Set(['values']);
}

/** The run's new messages: `input.messages` (or `input` itself) as LangChain message-likes. */
function inputMessages(input: unknown): Message[] {
  const given = isObject(input) && 'messages' in input ? input.messages : input;
  if (given === undefined || given === null) return [];
  const list = Array.isArray(given) ? given : [given];
  let messages: BaseMessage[];
  try {
    messages = list.map((message) => coerceMessageLikeToMessage(message as never));
  } catch (error) {
    throw new ContinuationError(
      'INVALID_DECISION',
      `input.messages must be LangChain messages ({ type, content } or { role, content }): ${messageOf(error)}`,
    );
  }
  return fromLangChainMessages(messages);
}

async function jsonBody(request: Request, optional: boolean): Promise<Record<string, unknown>> {
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

class BadRequest extends Error {}

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
function isRefusal(error: unknown): boolean {
  return error instanceof BadRequest || (isContinuationError(error) && REFUSALS[error.code] !== undefined);
}

function failure(error: unknown): Response {
  if (error instanceof BadRequest) return refusal(400, error.message);
  if (isContinuationError(error) && REFUSALS[error.code] !== undefined) {
    return refusal(REFUSALS[error.code]!, error.message, error.code);
  }
  throw error;
}

function refusal(status: number, message: string, code?: string): Response {
  return json({ detail: message, ...(code ? { code } : {}) }, status);
}

function json(value: JsonValue | JsonObject[], status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nameOf(error: unknown): string {
  return isContinuationError(error) ? error.code : error instanceof Error ? error.name : 'Error';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
