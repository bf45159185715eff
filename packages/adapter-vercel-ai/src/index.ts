/**
 * @agent-continuations/vercel-ai: continuations for AI SDK agents (`ToolLoopAgent`, and the
 * settings of `generateText` / `streamText`): suspend for approvals, human input, nested
 * sub-agents and predicates; resume from JSON in any process.
 */
export { type ChatBinding, chatAgent, SUPERSEDED_REASON } from './chat';
export { type ChatRouteOptions, type ChatStreamOptions, chatRoute } from './chat-route';
export { continuable } from './continuable';
export { continuationDataSchema } from './continuation-data-schema';
export { AI_SDK_KEY, toModelMessage, toModelMessages, toNeutralMessage, toNeutralMessages } from './messages';
export type { ContinuableGenerateResult, ContinuableStream } from './sdk-results';
export { type AgentToolOptions, agentTool, getToolContext } from './tools';
export type {
  CallOptionsOf,
  ContinuableGenerateTextResult,
  ContinuableOptions,
  ContinuableSettings,
  ContinuableStreamResult,
  OutputOf,
  SdkCallParameters,
  VercelAgentInput,
  VercelContinuableAgent,
  VercelRunOptions,
  VercelStreamInput,
} from './types';
export {
  type ContinuationData,
  continuationFromUIMessages,
  continuationRefFromUIMessages,
  decisionsFromUIMessages,
  toUIMessageStream,
  toUIMessageStreamResponse,
  type UIStreamBoundary,
  type UIStreamOptions,
} from './ui-stream';
