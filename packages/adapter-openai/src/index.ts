/**
 * @agent-continuations/openai: pause and resume agents built on the raw `openai` SDK (Chat
 * Completions or Responses) as JSON continuations.
 */
export { agentTool, humanTool } from '@agent-continuations/core';
export { fromChatAssistant, fromChatMessages, toChatMessages } from './chat-messages';
export { chatModel, type ModelSettings, type PortOptions } from './chat-model';
export { createAgent, type OpenAIAgent, type OpenAIAgentConfig, type OutputOf } from './create-agent';
export { fromResponsesItems, toResponsesItems } from './responses-items';
export { responsesModel } from './responses-model';
export { type OutputParser, outputParser } from './structured-output';
export {
  type ChatFunctionTool,
  type OpenAIAgentTool,
  type OpenAIToolDefinition,
  type ResponsesFunctionTool,
  type RunnableChatTool,
  type RunnableOptions,
  toEngineTool,
  tool,
} from './tool';
