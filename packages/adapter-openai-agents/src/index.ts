/**
 * @agent-continuations/openai-agents: pause and resume agents built with the OpenAI Agents SDK
 * (`@openai/agents`) as JSON continuations, nested to any depth and across frameworks.
 */
export { type AgentToolOptions, agentTool } from './agent-tool';
export {
  type ContinuableOptions,
  type ContinuableToolOptions,
  continuable,
  type OpenAIAgentsContinuable,
} from './continuable';
export { humanTool } from './human-tool';
export { fromAgentOutput, toAgentItems } from './messages';
export { agentModelPort, type PortOptions } from './model-port';
export { continuationContext } from './tools';
