/**
 * How a segment drives the graph: `invoke`, or `stream` when an observer wants each step's state
 * or the caller streams the run in LangGraph's stream modes; and how a sub-agent's run events
 * reach this run's observers and stream, tagged with their path.
 */
import {
  type Action,
  addUsage,
  type Continuation,
  type DoneEntry,
  type JsonValue,
  type RunEvent,
  type RunOptions,
  toolCallsOf,
} from '@agent-continuations/core';
import {
  newContinuation,
  type QueuedRun,
  type RunState,
  streamEventOf,
} from '@agent-continuations/core/adapter-kit';
import { neutralMessages, toolResultPart } from './messages';
import type { ModelCallCounter } from './step-control';
import type { Capture } from './tool-guard';

/** LangGraph's stream modes. */
export type StreamMode = 'values' | 'updates' | 'messages' | 'custom' | 'debug' | 'checkpoints' | 'tasks';

/** Where a caller's stream wants LangGraph's chunks, in the shape `graph.stream` gives them. */
export interface ChunkSink {
  modes: StreamMode[];
  /** One mode was asked for (not a list): chunks come bare, not as `[mode, chunk]`. */
  single: boolean;
  /** Subgraphs' chunks too, as `[namespace, ...]`. */
  subgraphs: boolean;
  push(chunk: unknown): void;
}

type Streamable = {
  invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>;
  stream?(input: unknown, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
};

/** A chunk that names LangGraph interrupts, held until the segment knows their actions. */
export interface HeldChunk {
  ns: string[];
  mode: StreamMode;
  chunk: Record<string, unknown> & { __interrupt__: unknown[] };
}

/**
 * Run the graph once: invoke, or stream for the observer (`values`) and the sink's modes. A
 * root chunk carrying `__interrupt__` goes to `held` instead of the sink (see {@link releaseHeld}).
 */
export async function driveGraph(
  graph: Streamable,
  input: unknown,
  config: Record<string, unknown>,
  observe: ((values: Record<string, unknown>) => Promise<void>) | undefined,
  sink: ChunkSink | undefined,
  held: HeldChunk[] = [],
): Promise<void> {
  if (!graph.stream || (!observe && !sink)) return void (await graph.invoke(input, config));
  const modes = new Set<StreamMode>(sink?.modes ?? []);
  if (observe) modes.add('values');
  const subgraphs = sink?.subgraphs === true;
  const streamConfig = { ...config, streamMode: [...modes], ...(subgraphs ? { subgraphs: true } : {}) };
  for await (const item of await graph.stream(input, streamConfig)) {
    const [ns, mode, chunk] = (subgraphs ? item : [[], ...(item as unknown[])]) as [
      string[],
      StreamMode,
      unknown,
    ];
    if (observe && mode === 'values' && ns.length === 0) await observe(chunk as Record<string, unknown>);
    if (!sink?.modes.includes(mode)) continue;
    if (ns.length === 0 && namesInterrupts(chunk)) held.push({ ns, mode, chunk });
    else sink.push(shaped(sink, ns, mode, chunk));
  }
}

function namesInterrupts(chunk: unknown): chunk is HeldChunk['chunk'] {
  return (
    typeof chunk === 'object' &&
    chunk !== null &&
    Array.isArray((chunk as { __interrupt__?: unknown }).__interrupt__)
  );
}

/**
 * Push the held interrupt chunks, each interrupt with the ids of the actions that answer it
 * (`actionIds`, beside LangGraph's own `id`), so a stream's reader decides by action id.
 * `interruptOf` gives the LangGraph interrupt id a top-level tool call waits on.
 */
export function releaseHeld(
  held: readonly HeldChunk[],
  sink: ChunkSink | undefined,
  actions: readonly Action[],
  interruptOf: (toolCallId: string) => string | undefined,
): void {
  if (!sink) return;
  for (const { ns, mode, chunk } of held) {
    const interrupts = chunk.__interrupt__.map((item) => {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== 'string') return item;
      const actionIds = actions
        .filter((action) => interruptOf(action.id.split('/')[0]!) === id)
        .map((action) => action.id);
      return { ...(item as object), actionIds };
    });
    sink.push(shaped(sink, ns, mode, { ...chunk, __interrupt__: interrupts }));
  }
}

/** A custom-mode chunk (or a sub-agent's event) in the shape the sink's caller asked for. */
export function shaped(sink: ChunkSink, ns: string[], mode: StreamMode, chunk: unknown): unknown {
  if (sink.single) return sink.subgraphs ? [ns, chunk] : chunk;
  return sink.subgraphs ? [ns, mode, chunk] : [mode, chunk];
}

/**
 * What a sub-agent run by `agentTool` does with its run events, when anything listens: its steps
 * and tool results go to this run's observers with `path` (the tool-call ids down to it) and a
 * checkpoint of the whole tree, and to the `custom` stream mode as the core's stream events.
 */
export function childForwarder(
  context: RunState,
  counter: ModelCallCounter,
  capture: Capture,
  messagesKey: string,
  streamSink: ChunkSink | undefined,
  options: RunOptions,
  latest: () => Record<string, unknown>,
) {
  const sink = streamSink?.modes.includes('custom') ? streamSink : undefined;
  if (!options.onEvent && !sink) return undefined;
  return async (
    call: { toolCallId: string; toolName: string; args: JsonValue },
    event: RunEvent,
  ): Promise<void> => {
    if (event.type !== 'model-call' && event.type !== 'tool-result') return;
    const path = [call.toolCallId, ...(event.path ?? [])];
    const chunk = streamEventOf(event, path);
    if (sink && chunk) sink.push(shaped(sink, [], 'custom', chunk));
    if (!options.onEvent) return;
    // The whole tree at this point: this run's turn, its call holding the sub-agent's checkpoint.
    const checkpoint = (): Continuation => {
      const messages = neutralMessages(latest(), messagesKey);
      const calls = toolCallsOf(messages.at(-1)).filter((one) => one.toolCallId !== call.toolCallId);
      const done: DoneEntry[] = [];
      for (const one of calls) {
        const result = capture.results.get(one.toolCallId);
        if (!result) continue;
        const part = toolResultPart(result);
        done.push({
          toolCallId: one.toolCallId,
          toolName: one.toolName,
          output: part.output,
          ...(part.isError ? { isError: true } : {}),
        });
      }
      return newContinuation(context, {
        messages,
        pending: [{ kind: 'agent', ...call, child: event.checkpoint() }],
        done,
        step: context.step + counter.calls,
        usage: addUsage(context.usage, counter.usage),
        suspendedBy: { type: 'checkpoint' },
      });
    };
    await options.onEvent({ ...event, path, checkpoint });
  };
}

/** The options key a stream hands its sink to the segments of a run through. */
export const SINK: unique symbol = Symbol('agent-continuations.langgraph.sink') as never;

/** A streamed run: LangGraph's chunks as `graph.stream` yields them, then `result`. */
export interface GraphStream<Result> extends QueuedRun<unknown, Result> {}
