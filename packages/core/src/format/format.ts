/**
 * The continuation object, format version 1 (docs/design.md section 3): one JSON value that captures a
 * suspended agent run, recursive through the `child` of pending `agent` entries.
 */
import type { JsonObject, JsonValue } from './json';
import type { Message } from './messages';

/** The constant tag every continuation carries in its `format` field. */
export const FORMAT = 'agent-continuation' as const;
/** The format version this build writes. */
export const CURRENT_VERSION = 1 as const;
/** Every version this build reads; older ones are migrated to {@link CURRENT_VERSION}. */
export const SUPPORTED_VERSIONS: readonly number[] = [1];

/** Token usage, summed over model calls. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** Which agent definition can resume a continuation. */
export interface AgentRef {
  name: string;
  /** The adapter that made it: `core`, `openai`, `vercel-ai`, `langgraph`, ... */
  framework: string;
  /** Digest of instructions and tool schemas, readable per part; see `fingerprintAgent`. */
  fingerprint?: string;
}

interface PendingBase {
  toolCallId: string;
  toolName: string;
  /** The arguments the tool runs with (the edited ones once an edit was approved). */
  args: JsonValue;
  /** Set once a human approved this call, so a later suspension inside the tool does not ask again. */
  approved?: boolean;
  /**
   * Results of the tool's earlier `requestInput` / sub-agent calls, in order, for a tool that
   * suspended more than once: on resume the tool runs from its start and these are replayed.
   */
  journal?: JsonValue[];
  /**
   * When a human must have acted by (an ISO date-time); past it, a deadline sweeper applies the
   * configured default decision. Set by the tool's policy or the run's `deadlines` at suspend time.
   */
  deadline?: string;
}

/** A decision a human may make on an action; `edit` is an approval with edited arguments. */
export type AllowedDecision = 'approve' | 'edit' | 'reject' | 'input';

/** The agent's own human-in-the-loop policy for an action a human acts on. */
interface ActionPolicyFields {
  /** What the human is told about the action (the policy's text, not the tool's for the model). */
  description?: string;
  /** The decisions allowed; any that fits the kind when absent. The core refuses any other. */
  allowedDecisions?: AllowedDecision[];
}

/** A tool call waiting for a human yes or no before it runs. */
export interface PendingApproval extends PendingBase, ActionPolicyFields {
  kind: 'approval';
  /**
   * The call of a tool that declared `idempotent: false` started and its result was never
   * recorded (its worker stopped): a person says what happened. `approve` runs it (it did not run,
   * or run it again), `input` gives its result (it ran; the value is the result the model reads),
   * `reject` does not run it. Never set together with `approved`.
   */
  inDoubt?: true;
}

/** A tool waiting for a human's answer: a human tool, or a tool that called `ctx.requestInput`. */
export interface PendingInput extends PendingBase, ActionPolicyFields {
  kind: 'input';
  /** What the human is asked (any JSON). */
  request: JsonValue;
}

/** A tool call that ran a sub-agent which itself suspended. */
export interface PendingAgent extends PendingBase {
  kind: 'agent';
  child: Continuation;
}

/** One thing a suspended run waits for. */
export type PendingEntry = PendingApproval | PendingInput | PendingAgent;

/** A settled tool call of the current model turn, so that it never runs twice. */
export interface DoneEntry {
  toolCallId: string;
  toolName: string;
  output: JsonValue;
  isError?: boolean;
  /** Set on a call a human rejected: it did not run, and `output` is the rejection the model reads. */
  rejected?: true;
}

/** Why a run stopped. */
export type SuspendReason =
  | { type: 'actions'; kinds: Array<PendingEntry['kind']> }
  | { type: 'predicate'; predicates: string[] }
  | { type: 'checkpoint' };

/** One applied decision, as kept in the audit trail. */
export interface AuditEntry {
  actionId: string;
  type: 'approve' | 'reject' | 'input';
  toolName: string;
  toolCallId: string;
  at: string;
  by?: string;
  reason?: string;
  /** The arguments the model asked for. */
  args?: JsonValue;
  /** The arguments a human replaced them with, when edited. */
  editedArgs?: JsonValue;
  /** The answer given to an input request. */
  value?: JsonValue;
}

/** An HMAC over the canonical encoding of everything but the seal itself. */
export interface Seal {
  alg: 'HMAC-SHA256';
  keyId?: string;
  mac: string;
}

/** A suspended agent run, as one JSON value. */
export interface Continuation {
  format: typeof FORMAT;
  version: typeof CURRENT_VERSION;
  /** Unique for this suspension. */
  id: string;
  /** Stable for the whole run, across every suspend and resume. */
  runId: string;
  agent: AgentRef;
  messages: Message[];
  pending: PendingEntry[];
  done: DoneEntry[];
  /** Model calls made so far. */
  step: number;
  usage: Usage;
  suspendedBy: SuspendReason;
  /** Adapter-native data for same-framework resume; never needed for cross-framework resume. */
  state?: JsonValue;
  /** The user's own JSON, carried through untouched. */
  metadata: JsonObject;
  decisions: AuditEntry[];
  createdAt: string;
  seal?: Seal;
}

/**
 * Zero usage.
 *
 * @example
 * ```ts
 * let usage = emptyUsage();
 * ```
 */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/**
 * Sum two usages; a missing `totalTokens` counts as input plus output.
 *
 * @example
 * ```ts
 * usage = addUsage(usage, { inputTokens: 10, outputTokens: 5 });
 * ```
 */
export function addUsage(a: Usage, b: Partial<Usage> | undefined): Usage {
  if (!b) return a;
  const inputTokens = a.inputTokens + (b.inputTokens ?? 0);
  const outputTokens = a.outputTokens + (b.outputTokens ?? 0);
  return {
    inputTokens,
    outputTokens,
    totalTokens: a.totalTokens + (b.totalTokens ?? (b.inputTokens ?? 0) + (b.outputTokens ?? 0)),
  };
}
