/**
 * Threads of the LangGraph HTTP API over a runtime: a thread's suspension is the store's record
 * saved with the thread id in its metadata (claimed and settled by the store); the thread list
 * keeps what the store does not (a thread before its first run, the transcript once a run ends).
 * Rendered as the API's `Thread` and `ThreadState`, each action as a `HumanInterrupt`.
 */
import type {
  Action,
  JsonObject,
  JsonValue,
  Message,
  Runtime,
  StoredContinuation,
} from '@agent-continuations/core';
import { toHitlRequest } from './hitl-request';
import { toHumanInterrupt } from './human-interrupt';
import { toLangChainMessages } from './messages';

/** The metadata keys a thread's suspensions are saved with. */
export const THREAD_KEY = 'threadId';
export const USER_KEY = 'userId';

/** What the API keeps of a thread beside the store's records. */
export interface ApiThread {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** The client's metadata (`threads.create({ metadata })`). */
  metadata: JsonObject;
  /** The user it belongs to, from the route's `context`. */
  user?: string;
  /** The transcript as the thread's last finished run left it. */
  messages: Message[];
  /** Names the state after the last finished run (`checkpoint.checkpoint_id`). */
  checkpointId?: string;
  /** The last run's error, when it failed. */
  error?: string;
}

/**
 * Where the API keeps its threads. In memory by default: give one over your database when several
 * processes serve the API, so a thread created or finished in one is seen by the others.
 *
 * @example
 * ```ts
 * const threads: ThreadStore = {
 *   get: async (id) => JSON.parse((await kv.get(`thread:${id}`)) ?? 'null') ?? undefined,
 *   put: async (thread) => void (await kv.set(`thread:${thread.id}`, JSON.stringify(thread))),
 * };
 * ```
 */
export interface ThreadStore {
  get(id: string): Promise<ApiThread | undefined>;
  put(thread: ApiThread): Promise<void>;
}

/**
 * A {@link ThreadStore} in this process's memory.
 *
 * @example
 * ```ts
 * const api = langGraphApi(runtime, { agent: 'ops', threads: memoryThreads() });
 * ```
 */
export function memoryThreads(): ThreadStore {
  const threads = new Map<string, ApiThread>();
  return {
    async get(id) {
      const found = threads.get(id);
      return found && structuredClone(found);
    },
    async put(thread) {
      threads.set(thread.id, structuredClone(thread));
    },
  };
}

/** A thread as the API sees it: its record, and the suspension it waits at with its actions. */
export interface ThreadView {
  thread: ApiThread;
  waiting?: StoredContinuation;
  actions: Action[];
  /** True when the store holds suspensions of the thread, waiting or decided. */
  suspended: boolean;
}

/** The thread `id` of `user`, or undefined when neither the thread list nor the store knows it. */
export async function loadThread(
  runtime: Runtime,
  threads: ThreadStore,
  id: string,
  user: string | undefined,
): Promise<ThreadView | undefined> {
  const known = await threads.get(id);
  if (known && known.user !== user) return undefined;
  const newest = await runtime.store.list({ metadata: { [THREAD_KEY]: id }, order: 'desc', limit: 20 });
  const mine = newest.items.filter((item) => (item.metadata[USER_KEY] ?? undefined) === user);
  if (!known && mine.length === 0) return undefined;
  let waiting: StoredContinuation | undefined;
  let actions: Action[] = [];
  for (const summary of mine) {
    if (summary.status !== 'suspended') continue;
    const view = await runtime.get(summary.id);
    if (view?.status !== 'suspended') continue;
    waiting = view;
    actions = view.actions;
    break;
  }
  const at = mine[0]?.createdAt ?? new Date().toISOString();
  const thread: ApiThread = known ?? {
    id,
    createdAt: mine.at(-1)?.createdAt ?? at,
    updatedAt: at,
    metadata: {},
    ...(user === undefined ? {} : { user }),
    messages: [],
  };
  return { thread, ...(waiting ? { waiting } : {}), actions, suspended: mine.length > 0 };
}

/**
 * The thread's messages as the API's message dicts (`{ type, content, ... }`); a content of text
 * parts alone is its text, as LangGraph servers send it and clients render it.
 */
export function messageDicts(messages: readonly Message[]): JsonObject[] {
  return toLangChainMessages(messages).map((message) => {
    const data = JSON.parse(JSON.stringify(message.toDict().data)) as JsonObject;
    const content = data.content;
    const textOnly =
      Array.isArray(content) &&
      content.every((part) => isObject(part) && part.type === 'text' && typeof part.text === 'string');
    if (textOnly) data.content = (content as Array<{ text: string }>).map((part) => part.text).join('');
    return { ...data, type: message.getType() };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How interrupts show the actions: each as a `HumanInterrupt` (Agent Inbox's shape), or the
 * approvals together as the human-in-the-loop middleware's request (what a `useStream` page
 * written for `createAgent` reads), with input actions as `HumanInterrupt`s still.
 */
export type InterruptShape = 'human-interrupt' | 'middleware';

/** One interrupt: its id (an action's id), the task it is listed under, and its value. */
export interface ApiInterrupt {
  id: string;
  name: string;
  value: JsonValue;
}

/** The interrupts of `actions`, as the API lists them. */
export function interruptsOf(actions: readonly Action[], shape: InterruptShape): ApiInterrupt[] {
  const one = (action: Action): ApiInterrupt => ({
    id: action.id,
    name: action.toolName,
    value: toHumanInterrupt(action) as unknown as JsonValue,
  });
  if (shape === 'human-interrupt') return actions.map(one);
  const approvals = actions.filter((action) => action.kind === 'approval');
  const inputs = actions.filter((action) => action.kind === 'input').map(one);
  if (approvals.length === 0) return inputs;
  const request = toHitlRequest(approvals) as unknown as JsonValue;
  return [{ id: approvals[0]!.id, name: approvals[0]!.toolName, value: request }, ...inputs];
}

/** Interrupts as the API's `Interrupt` objects (`__interrupt__`, a task's `interrupts`). */
export function interruptValues(interrupts: readonly ApiInterrupt[]): JsonObject[] {
  return interrupts.map(({ id, value }) => ({ id, value }));
}

/** The API's `ThreadState` of a thread: one task per interrupt. */
export function threadState(view: ThreadView, shape: InterruptShape): JsonObject {
  const { thread, waiting, actions } = view;
  const messages = waiting ? waiting.continuation.messages : thread.messages;
  const checkpointId = waiting?.id ?? thread.checkpointId;
  const names = [...new Set(actions.map((action) => action.toolName))];
  return {
    values: { messages: messageDicts(messages) },
    next: waiting ? (names.length > 0 ? names : [waiting.agentName]) : [],
    tasks: interruptsOf(actions, shape).map((interrupt) => ({
      id: interrupt.id,
      name: interrupt.name,
      path: [],
      error: null,
      interrupts: interruptValues([interrupt]),
      checkpoint: null,
      state: null,
      result: null,
    })),
    metadata: { ...thread.metadata, thread_id: thread.id, ...(waiting ? { run_id: waiting.runId } : {}) },
    created_at: waiting?.createdAt ?? thread.updatedAt,
    checkpoint:
      checkpointId === undefined
        ? null
        : { thread_id: thread.id, checkpoint_ns: '', checkpoint_id: checkpointId, checkpoint_map: null },
    parent_checkpoint: null,
  };
}

/** The API's `Thread`. */
export function threadJson(view: ThreadView, shape: InterruptShape): JsonObject {
  const { thread, waiting } = view;
  const state = threadState(view, shape);
  return {
    thread_id: thread.id,
    created_at: thread.createdAt,
    updated_at: waiting?.createdAt ?? thread.updatedAt,
    metadata: thread.metadata,
    status: waiting ? 'interrupted' : thread.error === undefined ? 'idle' : 'error',
    values: state.values as JsonValue,
    interrupts: Object.fromEntries(
      interruptsOf(view.actions, shape).map((interrupt) => [interrupt.id, interruptValues([interrupt])]),
    ),
  };
}
