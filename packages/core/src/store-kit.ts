/**
 * @agent-continuations/core/store-kit: what only authors of stores and checkpoint logs need. Agent
 * authors use the package root; a store or log imports from both.
 *
 * @example
 * ```ts
 * import type { ContinuationStore } from '@agent-continuations/core';
 * import { claimRefused, encodeStoredBody, listLimit, summarize } from '@agent-continuations/core/store-kit';
 * ```
 */
export { checkpointer, replayCheckpoints } from './durable/checkpoint';
export { type HeldClaim, holdClaim, keepClaim } from './durable/lease';
export { metadataMatches, summarize } from './stores/store';
export {
  cancelWithout,
  claimLost,
  claimRefused,
  errorText,
  leaseLost,
  listCursor,
  listLimit,
  listOrder,
  retryRefused,
  runRefused,
} from './stores/store-errors';
export {
  decodeLogEntry,
  decodeStoredBody,
  encodeLogEntry,
  encodeStoredBody,
  encryptionKeyIdOf,
  isEncrypted,
} from './trust/encryption';
export { trustContinuation } from './trust/trust';
