/**
 * What a LangChain tool running inside a wrapped graph can know about its call: the run, the
 * tool-call id, and the idempotency key the core gives every tool (`runId` + tool-call id).
 */
import { ContinuationError } from '@agent-continuations/core';
import type { ToolRunnableConfig } from '@langchain/core/tools';
import { RUN_ID_KEY } from './keys';

/** A tool call's identity inside a run. */
export interface LangGraphToolContext {
  runId: string;
  toolCallId: string;
  /**
   * `runId` + tool-call id, the same as the core engine's: stable across suspend, resume and crash
   * recovery, and across frameworks, so a side effect can be de-duplicated by it.
   */
  idempotencyKey: string;
}

/**
 * The run id, tool-call id and idempotency key of the call a tool is running for. Call it with the
 * config LangChain hands the tool.
 *
 * @example
 * ```ts
 * const refund = tool(
 *   async ({ orderId }, config) => payments.refund(orderId, { key: getToolContext(config).idempotencyKey }),
 *   { name: 'issue_refund', schema: z.object({ orderId: z.string() }) },
 * );
 * ```
 */
export function getToolContext(config: ToolRunnableConfig): LangGraphToolContext {
  const runId = config.configurable?.[RUN_ID_KEY];
  const toolCallId = config.toolCall?.id;
  if (typeof runId !== 'string' || !toolCallId) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'getToolContext needs a tool called by a tool node of a graph wrapped with fromGraph.',
    );
  }
  return { runId, toolCallId, idempotencyKey: `${runId}:${toolCallId}` };
}
