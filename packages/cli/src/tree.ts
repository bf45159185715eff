/**
 * The pending tree of a continuation as plain data: the chain of agents down to each action, with
 * the arguments of the tool call at each level. What `show` prints, and `show --json` returns.
 */
import { actionId, type Continuation, type JsonValue, type PendingEntry } from '@agent-continuations/core';

/** One agent of the chain: its pending tool calls, and the calls of this turn that already ran. */
export interface TreeNode {
  agent: string;
  framework: string;
  continuationId: string;
  runId: string;
  step: number;
  suspendedBy: Continuation['suspendedBy'];
  pending: TreeEntry[];
  done: Array<{ toolCallId: string; toolName: string; isError?: boolean }>;
}

/** A pending tool call: a leaf (an action, with its id) or a sub-agent (with its own node). */
export interface TreeEntry {
  kind: PendingEntry['kind'];
  toolName: string;
  toolCallId: string;
  args: JsonValue;
  /** For a leaf: the id to pass to approve, reject or answer. */
  actionId?: string;
  /** For an input request: what the human is asked. */
  request?: JsonValue;
  /** Approved already, not run yet (it runs on the next resume, no decision needed). */
  approved?: boolean;
  child?: TreeNode;
}

/**
 * The pending tree of `continuation`.
 *
 * @example
 * ```ts
 * const tree = pendingTree(continuation);
 * tree.pending[0]?.child?.pending[0]?.actionId; // 'call_1/call_2'
 * ```
 */
export function pendingTree(continuation: Continuation, ids: readonly string[] = []): TreeNode {
  return {
    agent: continuation.agent.name,
    framework: continuation.agent.framework,
    continuationId: continuation.id,
    runId: continuation.runId,
    step: continuation.step,
    suspendedBy: continuation.suspendedBy,
    pending: continuation.pending.map((entry) => {
      const path = [...ids, entry.toolCallId];
      const node: TreeEntry = {
        kind: entry.kind,
        toolName: entry.toolName,
        toolCallId: entry.toolCallId,
        args: entry.args,
      };
      if (entry.kind === 'agent') node.child = pendingTree(entry.child, path);
      else if (entry.approved) node.approved = true;
      else node.actionId = actionId(path);
      if (entry.kind === 'input') node.request = entry.request;
      return node;
    }),
    done: continuation.done.map(({ toolCallId, toolName, isError }) => ({
      toolCallId,
      toolName,
      ...(isError ? { isError } : {}),
    })),
  };
}

/**
 * The tree as indented text lines, one per agent and tool call, arguments inline.
 *
 * @example
 * ```ts
 * console.log(treeLines(pendingTree(continuation)).join('\n'));
 * ```
 */
export function treeLines(node: TreeNode, indent = ''): string[] {
  const lines: string[] = [];
  node.pending.forEach((entry, index) => {
    const last = index === node.pending.length - 1;
    const branch = `${indent}${last ? '└─ ' : '├─ '}`;
    const below = `${indent}${last ? '   ' : '│  '}`;
    const what = entry.kind === 'agent' ? `sub-agent ${entry.child?.agent ?? '?'}` : entry.kind;
    lines.push(`${branch}${entry.toolName} ${json(entry.args)}  [${what}, call ${entry.toolCallId}]`);
    if (entry.kind === 'input') lines.push(`${below}asks: ${json(entry.request ?? null)}`);
    if (entry.actionId !== undefined) lines.push(`${below}action id: ${entry.actionId}`);
    if (entry.approved) lines.push(`${below}approved, runs on the next resume`);
    if (entry.child) {
      lines.push(`${below}${entry.child.agent} (${entry.child.framework}), step ${entry.child.step}`);
      lines.push(...treeLines(entry.child, below));
    }
  });
  return lines;
}

/** JSON on one line, shortened past `max` characters. */
export function json(value: unknown, max = 200): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
