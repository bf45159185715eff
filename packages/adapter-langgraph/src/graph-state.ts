/**
 * The `state` of a LangGraph continuation: for each checkpoint namespace that a resume needs, the
 * newest checkpoint and its pending writes, as plain JSON (LangChain's own serialization of its
 * messages, parsed: no JSON inside JSON strings), plus which LangGraph interrupt each action
 * answers. Moved in and out of a private `MemorySaver`.
 */
import {
  type Continuation,
  ContinuationError,
  type JsonObject,
  type JsonValue,
  type PendingEntry,
} from '@agent-continuations/core';
import type { MemorySaver } from '@langchain/langgraph';
import { z } from 'zod';
import { MARK } from './keys';
import { PrivateSaver } from './private-saver';

/** How a pending action is answered in LangGraph terms. */
export interface InterruptRef {
  /** The LangGraph interrupt id, the key of `Command({ resume: { [id]: value } })`. */
  id: string;
  /**
   * The payload's shape: ours, the langchain human-in-the-loop middleware's, LangGraph's
   * `HumanInterrupt` (answered with a `HumanResponse`), or a plain `interrupt()`.
   */
  source: 'ours' | 'hitl' | 'inbox' | 'plain';
  /** For `hitl`: this call's place in the middleware's request, and the request's size. */
  index?: number;
  count?: number;
  /** For `inbox`: the payload was a list of one `HumanInterrupt` (answered with a list), and its action name. */
  list?: boolean;
  action?: string;
  /** For `inbox`: a reject is answered `ignore` (the request allows no response text). */
  ignore?: boolean;
  /** The decisions the graph's policy allows (`approve`, `edit`, `reject`, `input`); all when absent. */
  allowed?: DecisionKind[];
  /** What the graph's policy says about the action. */
  description?: string;
}

/** A decision as a graph's human-in-the-loop policy names it: an approval with edited arguments is an `edit`. */
export type DecisionKind = 'approve' | 'edit' | 'reject' | 'input';

/** The adapter-native part of a LangGraph continuation. */
export interface GraphState {
  v: 1;
  /** The graph's node names when the run suspended; a renamed node makes the state unusable. */
  nodes: string[];
  checkpoints: SavedCheckpoint[];
  /**
   * Each LangChain message of the checkpoints once, by its id; the checkpoints refer to them as
   * `{ "__ac_message": id }` (a pending Send carries the whole state again, so messages repeat).
   */
  messages?: Record<string, JsonValue>;
  /** Tool-call id of each pending action -> its interrupt. */
  interrupts: Record<string, InterruptRef>;
  /** The app's thread the run was on (thread mode): a resume writes back to it. */
  thread?: string;
}

interface SavedCheckpoint {
  ns: string;
  id: string;
  parent?: string;
  checkpoint: JsonValue;
  metadata: JsonValue;
  /** Pending writes: [task id, index key, channel, value, task path]. */
  writes: Array<[string, string, string, JsonValue, string]>;
}

/**
 * The schema of {@link GraphState}, built at its first use: building a zod schema costs import
 * time that an app which never resumes a graph should not pay.
 */
let graphStateSchema: ReturnType<typeof buildGraphStateSchema> | undefined;

function buildGraphStateSchema() {
  const json = z.custom<JsonValue>(() => true);
  return z
    .object({
      v: z.literal(1),
      nodes: z.array(z.string()),
      thread: z.string().min(1).optional(),
      messages: z.record(z.string(), json).optional(),
      checkpoints: z.array(
        z.object({
          ns: z.string(),
          id: z.string().min(1),
          parent: z.string().optional(),
          checkpoint: json,
          metadata: json,
          writes: z.array(z.tuple([z.string(), z.string(), z.string(), json, z.string()])),
        }),
      ),
      interrupts: z.record(
        z.string(),
        z.object({
          id: z.string().min(1),
          source: z.enum(['ours', 'hitl', 'inbox', 'plain']),
          index: z.number().int().nonnegative().optional(),
          count: z.number().int().positive().optional(),
          list: z.boolean().optional(),
          action: z.string().optional(),
          ignore: z.boolean().optional(),
          allowed: z.array(z.enum(['approve', 'edit', 'reject', 'input'])).optional(),
          description: z.string().optional(),
        }),
      ),
    })
    .strict();
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * What `saver` holds for `threadId` that a resume needs: the root namespace and every namespace
 * on the way to a pending interrupt, each at its newest checkpoint.
 */
export function exportState(
  saver: MemorySaver,
  threadId: string,
  nodes: string[],
  interrupts: Record<string, InterruptRef>,
  history = false,
  pending: readonly PendingEntry[] = [],
  thread?: string,
): GraphState {
  const namespaces = saver.storage[threadId] ?? {};
  const newest = new Map<string, string>();
  for (const [ns, checkpoints] of Object.entries(namespaces)) {
    const id = Object.keys(checkpoints).sort().reverse()[0];
    if (id) newest.set(ns, id);
  }
  const keep = new Set<string>(['']);
  for (const [ns, id] of newest) {
    const writes = Object.values(saver.writes[key(threadId, ns, id)] ?? {});
    if (ns !== '' && writes.some(([, channel]) => channel === '__interrupt__')) {
      const parts = ns.split('|');
      for (let i = 1; i <= parts.length; i++) keep.add(parts.slice(0, i).join('|'));
    }
  }
  const checkpoints: SavedCheckpoint[] = [];
  for (const ns of [...keep].sort()) {
    const id = newest.get(ns);
    if (!id) continue;
    // Delta channels rebuild their value from every ancestor's writes: then the chain goes along.
    const ids = history ? Object.keys(namespaces[ns]!).sort() : [id];
    for (const one of ids) checkpoints.push(savedCheckpoint(saver, threadId, ns, one));
  }
  const messages: Record<string, JsonValue> = {};
  const children = childPaths(pending);
  const shared = checkpoints.map((saved) => ({
    ...saved,
    checkpoint: share(saved.checkpoint, messages),
    writes: saved.writes.map(([task, inner, channel, value, path]): SavedCheckpoint['writes'][number] => [
      task,
      inner,
      channel,
      share(channel === INTERRUPT && children.size > 0 ? referToChildren(value, children) : value, messages),
      path,
    ]),
  }));
  return {
    v: 1,
    nodes,
    ...(thread === undefined ? {} : { thread }),
    checkpoints: shared,
    ...(Object.keys(messages).length > 0 ? { messages } : {}),
    interrupts,
  };
}

function savedCheckpoint(saver: MemorySaver, threadId: string, ns: string, id: string): SavedCheckpoint {
  const [checkpoint, metadata, parent] = saver.storage[threadId]![ns]![id]!;
  const writes = Object.entries(saver.writes[key(threadId, ns, id)] ?? {}).map(
    ([inner, [task, channel, value, path]]): SavedCheckpoint['writes'][number] => [
      task,
      inner,
      channel,
      parse(value),
      path ?? '',
    ],
  );
  return {
    ns,
    id,
    ...(parent ? { parent } : {}),
    checkpoint: parse(checkpoint),
    metadata: parse(metadata),
    writes,
  };
}

const REF = '__ac_message';
/** A sub-agent's continuation held by the pending entry at this path of tool-call ids. */
const CHILD_REF = '__ac_pending';
const INTERRUPT = '__interrupt__';

/**
 * The JSON text of each waiting sub-agent's continuation in `pending` (at any depth) -> the path
 * of tool-call ids to its entry. An `agentTool` interrupt carries that very text (the entry was
 * parsed from it), so the state can point at the entry instead of holding the child again.
 */
function childPaths(
  pending: readonly PendingEntry[],
  prefix: string[] = [],
  found = new Map<string, string[]>(),
) {
  for (const entry of pending) {
    if (entry.kind !== 'agent') continue;
    const path = [...prefix, entry.toolCallId];
    found.set(JSON.stringify(entry.child), path);
    childPaths(entry.child.pending, path, found);
  }
  return found;
}

/** An `__interrupt__` write with each sub-agent payload whose child a pending entry holds as a reference. */
function referToChildren(value: JsonValue, children: Map<string, string[]>): JsonValue {
  if (!Array.isArray(value)) return value;
  return value.map((item) => {
    const payload = isObject(item) ? item.value : undefined;
    if (!isObject(payload) || payload[MARK] !== 'agent' || typeof payload.child !== 'string') return item;
    const path = children.get(payload.child);
    if (!path) return item;
    return { ...(item as JsonObject), value: { ...payload, child: { [CHILD_REF]: path } } };
  });
}

/** Put each referred sub-agent's continuation back into its interrupt payload, as the JSON text it was. */
function attachChildren(
  value: JsonValue,
  continuation: Pick<Continuation, 'pending'> | undefined,
): JsonValue {
  if (!Array.isArray(value)) return value;
  return value.map((item) => {
    const payload = isObject(item) ? item.value : undefined;
    const ref = isObject(payload) && isObject(payload.child) ? payload.child[CHILD_REF] : undefined;
    if (ref === undefined) return item;
    const child = Array.isArray(ref) ? childAt(continuation, ref) : undefined;
    if (!child) {
      throw new ContinuationError(
        'STATE_MISMATCH',
        `The continuation's LangGraph state refers to a sub-agent it does not hold (${JSON.stringify(ref)}).`,
      );
    }
    return { ...(item as JsonObject), value: { ...(payload as JsonObject), child: JSON.stringify(child) } };
  });
}

function childAt(continuation: Pick<Continuation, 'pending'> | undefined, path: JsonValue[]) {
  let at: Continuation | undefined;
  let pending = continuation?.pending ?? [];
  for (const id of path) {
    const entry = pending.find((one) => one.kind === 'agent' && one.toolCallId === id);
    if (entry?.kind !== 'agent') return undefined;
    at = entry.child;
    pending = at.pending;
  }
  return at;
}

function isObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Replace each serialized LangChain message that has an id by a reference, keeping one copy. */
function share(value: JsonValue, messages: Record<string, JsonValue>): JsonValue {
  if (Array.isArray(value)) return value.map((item) => share(item, messages));
  if (value === null || typeof value !== 'object') return value;
  const id = messageId(value);
  // Shared only when every copy is the same message: an older copy under the same id stays inline.
  if (
    id !== undefined &&
    (messages[id] === undefined || JSON.stringify(messages[id]) === JSON.stringify(value))
  ) {
    messages[id] ??= value;
    return { [REF]: id };
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) out[key] = share(item, messages);
  return out;
}

/** Put the referenced messages back. */
function unshare(value: JsonValue, messages: Record<string, JsonValue>): JsonValue {
  if (Array.isArray(value)) return value.map((item) => unshare(item, messages));
  if (value === null || typeof value !== 'object') return value;
  const ref = value[REF];
  if (typeof ref === 'string' && Object.keys(value).length === 1) {
    const message = messages[ref];
    if (message === undefined)
      throw new ContinuationError(
        'STATE_MISMATCH',
        `The continuation's LangGraph state refers to a message it does not hold ("${ref}").`,
      );
    return message;
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) out[key] = unshare(item, messages);
  return out;
}

/** The id of a LangChain message in its serialized form (`{ lc: 1, type: 'constructor', id: [..., 'messages', X], kwargs }`). */
function messageId(value: { [key: string]: JsonValue }): string | undefined {
  if (
    value.lc !== 1 ||
    value.type !== 'constructor' ||
    !Array.isArray(value.id) ||
    value.id[1] !== 'messages'
  )
    return undefined;
  const kwargs = value.kwargs;
  if (kwargs === null || typeof kwargs !== 'object' || Array.isArray(kwargs)) return undefined;
  return typeof kwargs.id === 'string' ? kwargs.id : undefined;
}

/**
 * `saver` (a fresh private saver by default) holding `state` under `threadId`; the sub-agents the
 * state refers to are taken from `continuation`'s pending entries. Throws `STATE_MISMATCH` when
 * the state is malformed or was made by a graph with other nodes.
 */
export function importState(
  raw: JsonValue,
  threadId: string,
  nodes: readonly string[],
  keepHistory = false,
  continuation?: Pick<Continuation, 'pending'>,
  saver: MemorySaver = new PrivateSaver(keepHistory),
): { saver: MemorySaver; state: GraphState } {
  graphStateSchema ??= buildGraphStateSchema();
  const parsed = graphStateSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ContinuationError(
      'STATE_MISMATCH',
      `The continuation's LangGraph state is malformed: ${z.prettifyError(parsed.error)}`,
    );
  }
  const state = parsed.data as GraphState;
  const missing = state.nodes.filter((node) => !nodes.includes(node));
  const added = nodes.filter((node) => !state.nodes.includes(node));
  if (missing.length > 0 || added.length > 0) {
    const what = [
      missing.length ? `nodes no longer in the graph: ${missing.join(', ')}` : '',
      added.length ? `nodes new in the graph: ${added.join(', ')}` : '',
    ].filter(Boolean);
    throw new ContinuationError(
      'STATE_MISMATCH',
      `The continuation's LangGraph state does not fit this graph (${what.join('; ')}).`,
      {
        details: { missing, added },
      },
    );
  }
  const messages = state.messages ?? {};
  const thread: MemorySaver['storage'][string] = Object.create(null);
  for (const saved of state.checkpoints) {
    thread[saved.ns] ??= Object.create(null);
    thread[saved.ns]![saved.id] = [
      bytes(unshare(saved.checkpoint, messages)),
      bytes(saved.metadata),
      saved.parent,
    ];
    if (saved.writes.length === 0) continue;
    const writes: MemorySaver['writes'][string] = Object.create(null);
    for (const [task, inner, channel, value, path] of saved.writes) {
      const attached = channel === INTERRUPT ? attachChildren(value, continuation) : value;
      writes[inner] = [task, channel, bytes(unshare(attached, messages)), path];
    }
    saver.writes[key(threadId, saved.ns, saved.id)] = writes;
  }
  saver.storage[threadId] = thread;
  return { saver, state };
}

/** The newest checkpoint id of the root namespace the state holds. */
export function rootCheckpointId(state: GraphState): string | undefined {
  return newestRootId(state.checkpoints);
}

/** The newest id among `checkpoints` of the root namespace. */
export function newestRootId(checkpoints: readonly { ns: string; id: string }[]): string | undefined {
  return checkpoints
    .filter((saved) => saved.ns === '')
    .map((saved) => saved.id)
    .sort()
    .at(-1);
}

/** The metadata a checkpoint carries, as JSON. */
export function metadataOf(state: GraphState): JsonObject {
  const root = state.checkpoints.find((saved) => saved.ns === '');
  return (root?.metadata ?? {}) as JsonObject;
}

function key(threadId: string, ns: string, id: string): string {
  // MemorySaver's own key layout for pending writes.
  return JSON.stringify([threadId, ns, id]);
}

function parse(value: Uint8Array): JsonValue {
  return JSON.parse(decoder.decode(value)) as JsonValue;
}

function bytes(value: JsonValue): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}
