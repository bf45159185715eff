/**
 * @agent-continuations/langgraph: existing LangGraph JS graphs and prebuilt agents as continuable
 * agents, with approvals, human input and nested agents as LangChain tools.
 */

export { type ApiThread, type InterruptShape, memoryThreads, type ThreadStore } from './api-threads';
export type { GraphStream, StreamMode } from './drive-graph';
export {
  continuationFromThread,
  type FromGraphOptions,
  type FromThreadOptions,
  fromGraph,
  type GraphAgent,
  type GraphStreamOptions,
} from './from-graph';
export type { DecisionKind, GraphState, InterruptRef } from './graph-state';
export { decisionFromHumanResponse, isHumanResponse, toHumanInterrupt } from './human-interrupt';
export { type InterruptResume, plainResume } from './interrupts';
export { type LangGraphApiContext, type LangGraphApiOptions, langGraphApi } from './lang-graph-api';
export { fromLangChainMessages, toLangChainMessages } from './messages';
export { type ActionPolicy, actionPolicies } from './policies';
export type { GraphCompletedResult, GraphRunOptions, GraphRunResult } from './run-graph';
export { getToolContext, type LangGraphToolContext } from './tool-context';
export {
  type AgentToolOptions,
  type ApprovalPolicy,
  agentTool,
  humanTool,
  rejectionText,
  requestInput,
  requireApproval,
} from './tools';
