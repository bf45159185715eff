/**
 * One run of the LangGraph API on a thread: started with `input` or resumed with
 * `command: { resume }` through the runtime (under the store's claim), its steps streamed as
 * server-sent events in LangGraph's `values` and `updates` modes, or awaited whole.
 */
import {
  ContinuationError,
  type JsonObject,
  type Message,
  type RunEvent,
  type RunResult,
  type Runtime,
} from '@agent-continuations/core';
import { type BaseMessage, coerceMessageLikeToMessage } from '@langchain/core/messages';
import { BadRequest, failure, isObject, isRefusal, messageOf, nameOf } from './api-http';
import { decisionsFromResume } from './api-resume';
import {
  type ApiThread,
  type InterruptShape,
  interruptsOf,
  interruptValues,
  messageDicts,
  THREAD_KEY,
  type ThreadStore,
  type ThreadView,
  USER_KEY,
} from './api-threads';
import { fromLangChainMessages } from './messages';

/** A run of the API: its events as they happen, then its settlement. */
export interface ApiRun {
  id: string;
  events: AsyncIterable<RunEvent>;
  settled: Promise<{ result?: RunResult<unknown>; error?: unknown }>;
  /** Resolves once something ran (the first event) or the run settled: a refusal comes before. */
  begun: Promise<void>;
  /** How the run ended, once it has. */
  outcome(): { result?: RunResult<unknown>; error?: unknown } | undefined;
}

/** Start or resume the thread's run, as the body asks; the thread list learns how it ended. */
export function startRun(
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
    // A graph on the app's checkpointer (thread mode) runs on this very thread id.
    const options = { metadata, onEvent, configurable: { thread_id: view.thread.id } };
    return runtime.start(agent, input, options);
  };
  const settled = go()
    .then(async (result) => {
      await threads.put(endedThread(view.thread, result));
      return { result };
    })
    .catch(async (error: unknown) => {
      // The thread shows the failure; a refusal changed nothing, so the thread stays as it was.
      if (!isRefusal(error)) await threads.put({ ...view.thread, error: messageOf(error) }).catch(() => {});
      return { error };
    });
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
export async function sse(
  run: ApiRun,
  modes: ReadonlySet<string>,
  thread: string,
  shape: InterruptShape,
): Promise<Response> {
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
      else for (const [mode, data] of endChunks(result!, modes, shape)) controller.enqueue(frame(mode, data));
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
function endChunks(
  result: RunResult<unknown>,
  modes: ReadonlySet<string>,
  shape: InterruptShape,
): Array<[string, unknown]> {
  const values = finalValues(result, shape);
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
export function finalValues(result: RunResult<unknown>, shape: InterruptShape): JsonObject {
  if (result.status !== 'suspended') return { messages: messageDicts(result.messages) };
  return {
    messages: messageDicts(result.continuation.messages),
    __interrupt__: interruptValues(interruptsOf(result.actions, shape)),
  };
}

export function modesOf(value: unknown): ReadonlySet<string> {
  if (typeof value === 'string') return new Set([value]);
  if (Array.isArray(value) && value.length > 0) return new Set(value.map(String));
  return new Set(['values']);
}

/** The run's new messages: `input.messages` (or `input` itself) as LangChain message-likes. */
function inputMessages(input: unknown): Message[] {
  const given = isObject(input) && 'messages' in input ? input.messages : input;
  if (given === undefined || given === null)
    throw new BadRequest('A run needs input.messages, or command.resume.');
  const list = Array.isArray(given) ? given : [given];
  let messages: BaseMessage[];
  try {
    messages = list.map((message) => coerceMessageLikeToMessage(message as never));
  } catch (error) {
    throw new BadRequest(
      `input.messages must be LangChain messages ({ type, content } or { role, content }): ${messageOf(error)}`,
    );
  }
  if (messages.length === 0) throw new BadRequest('A run needs input.messages, or command.resume.');
  return fromLangChainMessages(messages);
}
