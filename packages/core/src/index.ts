/**
 * @agent-continuations/core: the continuation format, the suspend/resume engine, the agent
 * protocol and the stores API, for agent authors. No framework, no `node:` import. Adapter
 * authors also use `/adapter-kit`; store authors `/store-kit`.
 */

export {
  type CheckpointEnd,
  type CheckpointEntry,
  type CheckpointLog,
  type CheckpointReplay,
  type CheckpointStart,
  type CheckpointStep,
  type LeaseOptions,
  type RunLease,
  type RunRecord,
  // Also in /store-kit; kept here while the simulation tests import it from the root.
  replayCheckpoints,
  type StoreWrite,
} from './durable/checkpoint';
export { type DurableOptions, resumeDurably, runDurably } from './durable/durable';
export {
  DEFAULT_RECOVERY_ATTEMPTS,
  type RecoveredRun,
  type RecoverOptions,
  recover,
  recoverRun,
} from './durable/recover';
export {
  type ResumeStoredOptions,
  resumeStored,
  type StoredDecisions,
  type StreamingAgent,
  streamStored,
} from './durable/resume-stored';
export { actionId, listActions, splitActionId } from './engine/actions';
export { checkAllowed, checkDecisions, decisionKind } from './engine/decisions';
export {
  type ContinuableAgentConfig,
  createContinuableAgent,
  DEFAULT_MAX_STEPS,
  type EngineAgent,
  type StreamInput,
} from './engine/engine';
export type {
  ModelPort,
  ModelRequest,
  ModelResponse,
  ModelSegment,
  ModelStreamEvent,
  ToolSpec,
} from './engine/model';
export {
  everyTurns,
  maxDuration,
  maxTokens,
  onAbort,
  type PredicateContext,
  type SuspendPredicate,
  type SuspendWhen,
} from './engine/predicates';
export type {
  Action,
  ActionPathSegment,
  ApproveDecision,
  CompletedResult,
  ContinuableAgent,
  Decision,
  Decisions,
  InputDecision,
  RejectDecision,
  RejectedResult,
  RunEvent,
  RunOptions,
  RunResult,
  RunStart,
  SuspendedResult,
} from './engine/protocol';
export type { AgentStream, AgentStreamEvent } from './engine/stream';
export {
  type AgentToolOptions,
  type ApprovalContext,
  agentTool,
  defineTool,
  humanTool,
  type JsonSchema,
  type ToolContext,
  type ToolDefinition,
  type ToolPolicy,
  type Validation,
  zodJsonSchema,
  zodValidator,
} from './engine/tools';
export { resumesWithoutDecisions } from './engine/turn';
export {
  ContinuationError,
  type ContinuationErrorOptions,
  type ErrorCode,
  isContinuationError,
  ModelCallError,
  ToolCallError,
} from './errors';
export { canonicalJson } from './format/canonical';
export {
  openContinuation,
  type ParseOptions,
  parseContinuation,
  serializeContinuation,
} from './format/codec';
export {
  type AgentRef,
  type AllowedDecision,
  type AuditEntry,
  addUsage,
  type Continuation,
  CURRENT_VERSION,
  type DoneEntry,
  emptyUsage,
  FORMAT,
  type PendingAgent,
  type PendingApproval,
  type PendingEntry,
  type PendingInput,
  type Seal,
  SUPPORTED_VERSIONS,
  type SuspendReason,
  type Usage,
} from './format/format';
export type { JsonObject, JsonValue } from './format/json';
export {
  type AssistantMessage,
  type FilePart,
  type ImagePart,
  isRejected,
  type Message,
  type ReasoningPart,
  type SystemMessage,
  type TextPart,
  type ToolCallPart,
  type ToolMessage,
  type ToolResultPart,
  textOf,
  toolCallsOf,
  type UserMessage,
} from './format/messages';
export {
  type ApprovalLink,
  type ApprovalLinks,
  type ApprovalLinksOptions,
  createApprovalLinks,
  DEFAULT_LINK_TTL_MS,
  type LinkKind,
} from './people/approval-links';
export type {
  Deadline,
  DeadlineContext,
  DeadlinePolicy,
  ToolDeadline,
} from './people/deadlines';
export {
  createWebhookNotifier,
  type NoticeAction,
  type NotifyOptions,
  type OnSuspend,
  type SuspendNotice,
  suspendNotice,
  verifyWebhookSignature,
  type WebhookNotifierOptions,
} from './people/notify';
export {
  type DeadlineAction,
  type SweepOptions,
  type SweepReport,
  sweepDeadlines,
} from './people/sweep-deadlines';
export type { CancelledRun, CancelOptions } from './runtime/cancel';
export type { RunOutcome } from './runtime/outcome';
export {
  createRuntime,
  type InboxItem,
  type InboxPage,
  type ResumeOptions,
  type Runtime,
  type RuntimeConfig,
  type RuntimeRecoverOptions,
  type RunView,
  type StartOptions,
} from './runtime/runtime';
export type { RuntimeAgent, RuntimeStream } from './runtime/seal';
export { createMemoryStore } from './stores/memory-store';
export {
  type Claim,
  type ClaimOptions,
  type CompleteOptions,
  type ContinuationStore,
  DEFAULT_LEASE_MS,
  type ListFilter,
  type ListPage,
  type RenewOptions,
  type SaveOptions,
  type StoreCapabilities,
  type StoredContinuation,
  type StoredStatus,
  type StoredSummary,
} from './stores/store';
export {
  createEncryption,
  type Encryption,
  type EncryptionKey,
  type EncryptionOptions,
} from './trust/encryption';
export {
  type SealConfig,
  type SealOptions,
  type SealSecret,
  sealContinuation,
  verifySeal,
} from './trust/seal';
