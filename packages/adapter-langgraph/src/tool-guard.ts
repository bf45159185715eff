/**
 * Exactly-once for tool nodes. LangGraph re-runs an interrupted node from its start; a tool node
 * that runs every call of a turn in one task (`createReactAgent` v1, a plain `ToolNode`) would run
 * the calls that already finished again. The guard records each finished call's result while the
 * graph runs, and on resume answers a recorded call from the record instead of running it.
 */
import type { RunOptions, ToolResultPart } from '@agent-continuations/core';
import type { ToolMessage } from '@langchain/core/messages';
import { isGraphInterrupt } from '@langchain/langgraph';
import { toolMessageOf, withEditedTurn } from './edited-args';
import { BEFORE_START_KEY, CAPTURE_KEY, DONE_KEY, RUN_ID_KEY, START_KEY, WRAPS } from './keys';
import { toolResultMessage } from './messages';

/** What the guard records while a segment runs. */
export interface Capture {
  /** Tool-call id -> the result its tool returned. */
  results: Map<string, ToolMessage>;
  /** Task id -> tool calls that interrupted in it: more than one cannot be answered by LangGraph. */
  interrupted: Map<string, InterruptedCall[]>;
  /** Interrupt id -> the tool call whose tool raised it (a tool node running several calls in one task). */
  byInterrupt: Map<string, InterruptedCall>;
  /** Sub-agents (`agentTool`) that failed: the run fails with their error, one level up. */
  childFailures: ChildFailure[];
}

/** A sub-agent's failure; its call waits holding the sub-agent's last good state. */
export interface ChildFailure {
  toolCallId: string;
  toolName: string;
  error: unknown;
}

/** A tool call whose tool interrupted, and what it asked. */
export interface InterruptedCall {
  toolCallId: string;
  toolName: string;
  args: unknown;
  /** The interrupt payloads it raised. */
  values: unknown[];
}

const GUARDED = Symbol.for('agent-continuations.langgraph.guarded');
const STARTS_AT_BODY = Symbol.for('agent-continuations.langgraph.starts-at-body');

/** A LangChain tool as far as the guard reaches into it: `_call` runs its body. */
interface ToolLike {
  name: string;
  _call?: (arg: unknown, runManager: unknown, config?: { configurable?: Record<string, unknown> }) => unknown;
  [WRAPS]?: ToolLike;
  [STARTS_AT_BODY]?: true;
}

/**
 * Make `tool` (through approval wrappers, the tool whose body runs) await the call's start (see
 * `START_KEY`) right before its body: LangChain's own steps before it (parsing, awaited callback
 * handlers) come before the lease check, not between it and the body. False when the tool has no
 * `_call` to do that in; the tool node then starts the call itself before invoking it.
 */
function startAtBody(tool: ToolLike): boolean {
  let inner = tool;
  while (inner[WRAPS]) inner = inner[WRAPS];
  if (inner[STARTS_AT_BODY]) return true;
  const body = inner._call;
  if (typeof body !== 'function') return false;
  inner._call = async function (this: unknown, arg, runManager, config) {
    const start = config?.configurable?.[START_KEY];
    if (typeof start === 'function') await (start as () => Promise<void>)();
    return body.call(this, arg, runManager, config);
  };
  inner[STARTS_AT_BODY] = true;
  return true;
}

interface ToolNodeLike {
  runTool(
    call: { id?: string; name: string; args?: unknown },
    config: { configurable?: Record<string, unknown> },
    state: unknown,
  ): Promise<unknown>;
  tools?: ToolLike[];
  [GUARDED]?: true;
}

/** A compiled graph, seen only as far as this module needs. */
export interface GraphNodes {
  nodes: Record<string, { bound?: unknown }>;
}

/** Tool nodes of a graph (LangGraph's and langchain's `ToolNode`), by node name. */
export function findToolNodes(graph: GraphNodes): Map<string, ToolNodeLike> {
  const found = new Map<string, ToolNodeLike>();
  for (const [name, node] of Object.entries(graph.nodes)) {
    const bound = node.bound as Partial<ToolNodeLike> | undefined;
    if (bound && typeof bound.runTool === 'function' && Array.isArray(bound.tools))
      found.set(name, bound as ToolNodeLike);
  }
  return found;
}

/**
 * Guard every tool node of `graph` (once; the guard does nothing for runs that are not ours).
 * Returns the tool nodes found.
 */
export function guardToolNodes(graph: GraphNodes): Map<string, ToolNodeLike> {
  const nodes = findToolNodes(graph);
  for (const node of nodes.values()) {
    if (node[GUARDED]) continue;
    const original = node.runTool.bind(node);
    // The tools that start their calls themselves, right before their bodies.
    const atBody = new Set((node.tools ?? []).filter(startAtBody).map((tool) => tool.name));
    node.runTool = async (call, config, state) => {
      const id = call.id;
      const configurable = config?.configurable ?? {};
      const done = id
        ? (configurable[DONE_KEY] as Record<string, ToolResultPart> | undefined)?.[id]
        : undefined;
      // A call answered from the record says again which arguments it ran with, if edited.
      if (done) return withEditedTurn({ ...config, state }, id!, call.name, toolResultMessage(done));
      const capture = configurable[CAPTURE_KEY] as Capture | undefined;
      const beforeStart = configurable[BEFORE_START_KEY] as RunOptions['beforeStart'];
      const start = async () =>
        beforeStart?.({
          type: 'tool',
          runId: String(configurable[RUN_ID_KEY] ?? ''),
          toolName: call.name,
          toolCallId: id ?? '',
        });
      // A refusal (a lost lease) fails the run, even where the tool node turns the tool's errors
      // into messages for the model; nothing starts.
      let refusal: { error: unknown } | undefined;
      let started: Promise<void> | undefined;
      let invoked = config;
      if (beforeStart && atBody.has(call.name)) {
        const once = () =>
          (started ??= start().catch((error: unknown) => {
            refusal = { error };
            throw error;
          }));
        invoked = { ...config, configurable: { ...configurable, [START_KEY]: once } };
      } else if (beforeStart) {
        await start();
      }
      let output: unknown;
      try {
        output = await original(call, invoked, state);
      } catch (error) {
        if (refusal) throw refusal.error;
        if (capture && id && isGraphInterrupt(error)) {
          const task = String(configurable.__pregel_task_id ?? '');
          const raised = (error as { interrupts?: Array<{ id?: string; value?: unknown }> }).interrupts ?? [];
          const entry: InterruptedCall = {
            toolCallId: id,
            toolName: call.name,
            args: call.args ?? {},
            values: raised.map((one) => one.value),
          };
          capture.interrupted.set(task, [...(capture.interrupted.get(task) ?? []), entry]);
          for (const one of raised) if (one.id) capture.byInterrupt.set(one.id, entry);
        }
        throw error;
      }
      if (refusal) throw refusal.error;
      const message = id ? toolMessageOf(output, id) : undefined;
      if (id && capture && message) capture.results.set(id, message);
      return output;
    };
    node[GUARDED] = true;
  }
  return nodes;
}
