/**
 * Sub-agents as the outer tool's output, the way the AI SDK shows them: while a sub-agent runs,
 * its message (text, and its own tool calls, a sub-sub-agent's message inside those) is the
 * preliminary output of the parent's tool part. The chat never gets a part of its own for a
 * sub-agent's call, so `convertToModelMessages` never hands such a call to the parent model, and
 * a nested approval is asked on the outer tool part, where `addToolApprovalResponse` finds it.
 */
import {
  type Action,
  type AgentStreamEvent,
  actionId,
  type Continuation,
  splitActionId,
  toolCallsOf,
} from '@agent-continuations/core';
import type { UIMessage } from 'ai';

/** A preliminary output of a top-level tool part: the sub-agent's message so far. */
export interface NestedUpdate {
  toolCallId: string;
  output: UIMessage;
}

/** A display part of a sub-agent's message. */
type NestedPart =
  | { type: 'text' | 'reasoning'; text: string; state?: 'streaming' | 'done' }
  | {
      type: 'dynamic-tool';
      toolName: string;
      toolCallId: string;
      state: string;
      input: unknown;
      output?: unknown;
      errorText?: string;
      approval?: { id: string };
    };

/** The sub-agents' messages of one streamed run, keyed by the path of tool-call ids to each. */
export class NestedOutputs {
  private readonly messages = new Map<string, UIMessage>();

  /** Apply a sub-agent's event; the top-level part whose output changed, if any. */
  apply(event: AgentStreamEvent<unknown>, path: readonly string[]): NestedUpdate | undefined {
    const message = this.message(path);
    const parts = message.parts as NestedPart[];
    switch (event.type) {
      case 'text-delta':
      case 'reasoning-delta': {
        const kind = event.type === 'text-delta' ? 'text' : 'reasoning';
        const last = parts.at(-1);
        if (last?.type === kind) last.text += event.delta;
        else parts.push({ type: kind, text: event.delta });
        break;
      }
      case 'tool-call':
        this.toolPart(parts, event.toolCall.toolCallId, event.toolCall.toolName, event.toolCall.args);
        break;
      case 'tool-result': {
        const part = this.toolPart(parts, event.toolCallId, event.toolName, undefined);
        part.state = event.rejected ? 'output-denied' : event.isError ? 'output-error' : 'output-available';
        if (event.isError) part.errorText = typeof event.output === 'string' ? event.output : 'failed';
        else if (!event.rejected) part.output = event.output;
        break;
      }
      default:
        return undefined;
    }
    return this.update(path);
  }

  /** Show a sub-agent's pending action inside its message; the top-level part to update. */
  pending(action: Action): NestedUpdate {
    const path = action.path.slice(0, -1).map((segment) => actionId([segment.toolCallId]));
    const parts = this.message(path).parts as NestedPart[];
    const part = this.toolPart(parts, action.toolCallId, action.toolName, action.args);
    part.state = action.kind === 'approval' ? 'approval-requested' : 'input-available';
    if (action.kind === 'approval') part.approval = { id: action.id };
    return this.update(path);
  }

  private message(path: readonly string[]): UIMessage {
    const key = path.join('/');
    let message = this.messages.get(key);
    if (!message) {
      message = { id: `sub-agent:${key}`, role: 'assistant', parts: [] };
      this.messages.set(key, message);
      if (path.length > 1) {
        // A sub-sub-agent's message is the output of its call's part in its parent's message.
        const parent = this.message(path.slice(0, -1)).parts as NestedPart[];
        const part = this.toolPart(parent, splitActionId(path.at(-1)!).head, 'agent', undefined);
        part.output = message;
      }
    }
    return message;
  }

  private toolPart(parts: NestedPart[], toolCallId: string, toolName: string, input: unknown) {
    let part = parts.find(
      (candidate): candidate is Extract<NestedPart, { type: 'dynamic-tool' }> =>
        candidate.type === 'dynamic-tool' && candidate.toolCallId === toolCallId,
    );
    if (!part) {
      part = { type: 'dynamic-tool', toolName, toolCallId, state: 'input-available', input };
      parts.push(part);
    } else if (input !== undefined) {
      part.input = input;
      part.toolName = toolName;
    }
    return part;
  }

  private update(path: readonly string[]): NestedUpdate {
    const root = this.messages.get(path[0]!)!;
    return { toolCallId: splitActionId(path[0]!).head, output: structuredClone(root) };
  }
}

/**
 * The actions as the chat shows them: top-level ones on their own parts, and for each top-level
 * call that waits on its sub-agent, the first of its nested actions, asked on that call's part
 * (a tool part holds one approval; the others are asked once it is answered).
 */
export function chatActions(actions: readonly Action[]): Action[] {
  const shown: Action[] = [];
  const outer = new Set<string>();
  for (const action of actions) {
    if (action.path.length === 1) shown.push(action);
    else if (!outer.has(action.path[0]!.toolCallId)) {
      outer.add(action.path[0]!.toolCallId);
      shown.push(action);
    }
  }
  return shown;
}

/** The chat's tool-call id of an action: its own at the top, the top-level call's for a sub-agent's. */
export function uiToolCallId(action: Action): string {
  return action.path[0]!.toolCallId;
}

/** The arguments of a top-level call, from the transcript. */
export function callArgs(continuation: Continuation, toolCallId: string): unknown {
  for (const message of continuation.messages)
    for (const call of toolCallsOf(message)) if (call.toolCallId === toolCallId) return call.args;
  return {};
}
