/**
 * Settling one model turn: every tool call of the last assistant message either runs, or becomes
 * a pending entry. Calls run concurrently; each settled one is recorded at once, so a checkpoint
 * taken mid-turn never runs it again.
 */
import { cloneJson } from './canonical';
import type { DoneEntry, PendingEntry } from './format';
import type { JsonValue } from './json';
import type { ToolCallPart } from './messages';
import type { ContinuableAgent, Decision, Decisions, RunEvent } from './protocol';
import type { RunState } from './run-state';
import type { ToolContext, ToolDefinition } from './tools';

/** The decisions that reach one tool call: its own, or those for its child's actions. */
export interface CallDecisions {
  decision?: { actionId: string; value: Decision };
  children?: Decisions;
}

export interface TurnContext {
  state: RunState;
  tools: ReadonlyMap<string, ToolDefinition>;
  toolErrors: 'model' | 'throw';
  signal?: AbortSignal | undefined;
  emit: (event: RunEvent) => Promise<void>;
  checkpoint: () => import('./format').Continuation;
}

/** Thrown inside a tool to unwind it when it must wait; never seen by users unless they catch it. */
class SuspendSignal extends Error {
  constructor() {
    super('The tool is suspending (do not catch this error).');
    this.name = 'SuspendSignal';
  }
}

/** Settle every call of the turn; returns once each is done or pending. */
export async function settleTurn(
  turn: TurnContext,
  calls: readonly ToolCallPart[],
  decisions: ReadonlyMap<string, CallDecisions>,
): Promise<void> {
  await Promise.all(calls.map((call) => settleCall(turn, call, decisions.get(call.toolCallId))));
}

async function settleCall(
  turn: TurnContext,
  call: ToolCallPart,
  decided: CallDecisions | undefined,
): Promise<void> {
  const { state } = turn;
  if (state.done.has(call.toolCallId)) return;
  const entry = state.pending.get(call.toolCallId);
  if (!entry) return startCall(turn, call);
  const tool = turn.tools.get(entry.toolName)!;
  const decision = decided?.decision?.value;

  if (entry.kind === 'agent') {
    if (!decided?.children) return;
    return execute(turn, call, tool, entry, {
      index: entry.journal?.length ?? 0,
      continuation: entry.child,
      decisions: decided.children,
    });
  }
  if (entry.kind === 'approval' && entry.approved) return execute(turn, call, tool, entry);
  if (!decision) return;
  if (decision.type === 'reject') return finish(turn, call, rejectionMessage(decision.reason), true, true);

  if (entry.kind === 'approval' && decision.type === 'approve') {
    const args = decision.args === undefined ? entry.args : cloneJson(decision.args);
    const ready: PendingEntry = { ...entry, args, approved: true };
    state.pending.set(call.toolCallId, ready);
    return execute(turn, call, tool, ready);
  }
  if (entry.kind === 'input' && decision.type === 'input') {
    if (!tool.execute) return finish(turn, call, decision.value, false);
    const journal = [...(entry.journal ?? []), decision.value];
    const ready: PendingEntry = {
      kind: 'approval',
      toolCallId: entry.toolCallId,
      toolName: entry.toolName,
      args: entry.args,
      approved: true,
      journal,
    };
    state.pending.set(call.toolCallId, ready);
    return execute(turn, call, tool, ready);
  }
}

/** A call seen for the first time: unknown tool, bad arguments, approval, or run it. */
async function startCall(turn: TurnContext, call: ToolCallPart): Promise<void> {
  const tool = turn.tools.get(call.toolName);
  if (!tool) {
    const known = [...turn.tools.keys()].join(', ') || 'none';
    return finish(turn, call, `Unknown tool "${call.toolName}". Available tools: ${known}.`, true);
  }
  const checked = await validateArgs(tool, call.args);
  if (!checked.ok)
    return finish(turn, call, `Invalid arguments for tool "${tool.name}": ${checked.message}`, true);
  const needsApproval =
    typeof tool.needsApproval === 'function'
      ? await tool.needsApproval(checked.value, {
          runId: turn.state.runId,
          agentName: turn.state.agent.name,
          toolCallId: call.toolCallId,
          metadata: turn.state.metadata,
          messages: turn.state.messages,
        })
      : tool.needsApproval === true;
  const base = { toolCallId: call.toolCallId, toolName: call.toolName, args: call.args };
  if (needsApproval) {
    turn.state.pending.set(call.toolCallId, { kind: 'approval', ...base });
    return;
  }
  return execute(turn, call, tool, { kind: 'approval', ...base, approved: false }, undefined, checked);
}

export async function validateArgs(tool: ToolDefinition, args: unknown) {
  if (!tool.validate) return { ok: true as const, value: args };
  return tool.validate(args);
}

/**
 * Run a tool (or, for a human tool, ask the human). `journal` replays earlier answers and child
 * outputs; `resumeChild` resumes the sub-agent that suspended at that point of the journal.
 * `validated` holds the arguments when the caller has just validated them.
 */
async function execute(
  turn: TurnContext,
  call: ToolCallPart,
  tool: ToolDefinition,
  entry: PendingEntry,
  resumeChild?: { index: number; continuation: import('./format').Continuation; decisions: Decisions },
  validated?: { ok: true; value: unknown },
): Promise<void> {
  const { state } = turn;
  const approved = entry.approved === true;
  if (!tool.execute) {
    state.pending.set(call.toolCallId, {
      kind: 'input',
      toolCallId: call.toolCallId,
      toolName: tool.name,
      args: entry.args,
      request: entry.args,
    });
    return;
  }
  const checked = validated ?? (await validateArgs(tool, entry.args));
  if (!checked.ok)
    return finish(turn, call, `Invalid arguments for tool "${tool.name}": ${checked.message}`, true);

  const recorded: JsonValue[] = [...(entry.journal ?? [])];
  let cursor = 0;
  let suspension: PendingEntry | undefined;
  const base = {
    toolCallId: call.toolCallId,
    toolName: tool.name,
    args: entry.args,
    ...(approved ? { approved: true } : {}),
  };
  const suspend = (pending: PendingEntry): never => {
    suspension = pending;
    throw new SuspendSignal();
  };
  const ctx: ToolContext = {
    runId: state.runId,
    agentName: state.agent.name,
    toolName: tool.name,
    toolCallId: call.toolCallId,
    idempotencyKey: `${state.runId}:${call.toolCallId}`,
    metadata: state.metadata,
    messages: state.messages,
    ...(turn.signal ? { signal: turn.signal } : {}),
    requestInput: async <T extends JsonValue>(request: JsonValue) => {
      if (suspension) throw new SuspendSignal();
      if (cursor < recorded.length) return recorded[cursor++] as T;
      return suspend({ kind: 'input', ...base, request: cloneJson(request), ...journalOf(recorded) });
    },
    runAgent: async <I, O>(agent: ContinuableAgent<I, O>, input: I): Promise<O> => {
      if (suspension) throw new SuspendSignal();
      if (cursor < recorded.length) return recorded[cursor++] as O;
      const index = cursor;
      const childOptions = turn.signal ? { signal: turn.signal } : {};
      const result =
        resumeChild && resumeChild.index === index
          ? await agent.resume(resumeChild.continuation, resumeChild.decisions, childOptions)
          : await agent.run(input, {
              ...childOptions,
              runId: `${state.runId}/${call.toolCallId}${index > 0 ? `#${index}` : ''}`,
            });
      if (result.status === 'suspended') {
        return suspend({ kind: 'agent', ...base, child: result.continuation, ...journalOf(recorded) });
      }
      if (result.status === 'rejected') {
        throw new Error(
          `The ${agent.name} agent stopped: a human rejected its ${result.rejection.toolName} call${result.rejection.reason ? ` (${result.rejection.reason})` : ''}.`,
        );
      }
      recorded.push(toJson(result.output));
      cursor++;
      return result.output;
    },
  };

  let output: unknown;
  try {
    output = await tool.execute(checked.value, ctx);
  } catch (error) {
    if (suspension) {
      state.pending.set(call.toolCallId, suspension);
      return;
    }
    if (turn.toolErrors === 'throw') throw error;
    return finish(turn, call, { error: error instanceof Error ? error.message : String(error) }, true);
  }
  if (suspension) {
    // The tool swallowed the suspension; it still waits.
    state.pending.set(call.toolCallId, suspension);
    return;
  }
  let json: JsonValue;
  try {
    json = toJson(output);
  } catch (error) {
    return finish(turn, call, { error: `The tool's result is not JSON: ${(error as Error).message}` }, true);
  }
  return finish(turn, call, json, false);
}

async function finish(
  turn: TurnContext,
  call: ToolCallPart,
  output: JsonValue,
  isError: boolean,
  rejected = false,
): Promise<void> {
  const { state } = turn;
  const done: DoneEntry = { toolCallId: call.toolCallId, toolName: call.toolName, output };
  if (isError) done.isError = true;
  state.pending.delete(call.toolCallId);
  state.done.set(call.toolCallId, done);
  await turn.emit({
    type: 'tool-result',
    runId: state.runId,
    step: state.step,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output,
    isError,
    ...(rejected ? { rejected } : {}),
    checkpoint: turn.checkpoint,
  });
}

function journalOf(recorded: JsonValue[]): { journal?: JsonValue[] } {
  return recorded.length > 0 ? { journal: [...recorded] } : {};
}

/**
 * The tool result a model gets when a human rejected its call, the same in every adapter.
 *
 * @example
 * ```ts
 * rejectionMessage('over the daily limit');
 * // 'A human rejected this tool call: over the daily limit. Do not retry it unchanged.'
 * ```
 */
export function rejectionMessage(reason?: string): string {
  const why = reason?.trim();
  if (!why) return 'A human rejected this tool call. Do not retry it unchanged.';
  return `A human rejected this tool call: ${why}${/[.!?]$/.test(why) ? '' : '.'} Do not retry it unchanged.`;
}

/** Tool output as JSON: `undefined` becomes null, anything else goes through a JSON round trip. */
function toJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}
