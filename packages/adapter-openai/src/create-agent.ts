/**
 * `createAgent`: an agent over the user's own OpenAI client that can suspend and resume as a JSON
 * continuation. The loop is the core's engine; this adapter supplies the model port and tools.
 */
import {
  type ContinuableAgentConfig,
  ContinuationError,
  createContinuableAgent,
  type EngineAgent,
  type SuspendWhen,
} from '@agent-continuations/core';
import type OpenAI from 'openai';
import { chatModel, type ModelSettings } from './chat-model';
import { responsesModel } from './responses-model';
import { type OpenAIAgentTool, toEngineTool } from './tool';

/** Configuration of {@link createAgent}. */
export interface OpenAIAgentConfig {
  /** The user's own client: its base URL, key, retries and timeouts apply to every call. */
  client: OpenAI;
  /** The model name sent with every request. */
  model: string;
  /** The agent's name, recorded in continuations; a resuming agent must have the same. */
  name: string;
  description?: string;
  /** The system prompt (chat) or `instructions` (responses), sent on every call. */
  instructions?: string;
  /** Tools made with `tool`, `humanTool`, `agentTool`, or plain OpenAI function tools with an `execute`. */
  tools?: readonly OpenAIAgentTool[];
  /** Which API the agent calls: Chat Completions (default) or Responses. */
  api?: 'chat' | 'responses';
  /** Predicates checked before every model call; when one fires the run suspends. */
  suspendWhen?: SuspendWhen | readonly SuspendWhen[];
  /** Passed through with every request: `temperature`, `max_tokens`, `reasoning`, `store`, ... */
  modelSettings?: ModelSettings;
  /** On a rejected call: tell the model and go on (default), or end the run as rejected. */
  onReject?: ContinuableAgentConfig['onReject'];
  /** A tool that throws: its message goes to the model as an error result (default), or the run throws. */
  toolErrors?: ContinuableAgentConfig['toolErrors'];
}

/**
 * Wrap an OpenAI client and tools into a continuable agent: `run`, `resume` and `stream`, with
 * approvals, human input, nested agents and suspension predicates.
 *
 * @example
 * ```ts
 * const agent = createAgent({
 *   client: new OpenAI(),
 *   model: 'gpt-4.1-mini',
 *   name: 'accounts',
 *   instructions: 'You help with bank accounts.',
 *   tools: [lookupAccount, transfer],
 * });
 * const result = await agent.run('Send 50 EUR from A1 to B2');
 * if (result.status === 'suspended') {
 *   // save result.continuation; later, in any process:
 *   await agent.resume(saved, { [result.actions[0].id]: { type: 'approve', by: 'ann' } });
 * }
 * ```
 */
export function createAgent(config: OpenAIAgentConfig): EngineAgent {
  const api = config.api ?? 'chat';
  check(config !== null && typeof config === 'object', 'createAgent needs a configuration object.');
  check(typeof config.name === 'string' && config.name.length > 0, 'createAgent needs a non-empty `name`.');
  check(
    typeof config.model === 'string' && config.model.length > 0,
    `Agent "${config.name}" needs a non-empty \`model\` name.`,
  );
  check(
    api === 'chat' || api === 'responses',
    `Agent "${config.name}": \`api\` must be 'chat' or 'responses', not ${JSON.stringify(api)}.`,
  );
  const client = config.client as Partial<OpenAI> | undefined;
  const endpoint = api === 'chat' ? client?.chat?.completions?.create : client?.responses?.create;
  check(
    typeof endpoint === 'function',
    `Agent "${config.name}" needs an OpenAI client (\`new OpenAI()\`) with the ${api === 'chat' ? 'chat.completions' : 'responses'} API.`,
  );
  check(
    config.tools === undefined || Array.isArray(config.tools),
    `Agent "${config.name}": \`tools\` must be an array.`,
  );

  const tools = (config.tools ?? []).map(toEngineTool);
  const ports = { strictTools: new Set(tools.filter((tool) => tool.strict).map((tool) => tool.name)) };
  const model =
    api === 'chat'
      ? chatModel(config.client, config.model, config.modelSettings, ports)
      : responsesModel(config.client, config.model, config.modelSettings, ports);
  return createContinuableAgent({
    name: config.name,
    framework: 'openai',
    model,
    tools,
    ...(config.description === undefined ? {} : { description: config.description }),
    ...(config.instructions === undefined ? {} : { instructions: config.instructions }),
    ...(config.suspendWhen === undefined ? {} : { suspendWhen: config.suspendWhen }),
    ...(config.onReject === undefined ? {} : { onReject: config.onReject }),
    ...(config.toolErrors === undefined ? {} : { toolErrors: config.toolErrors }),
  });
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ContinuationError('INVALID_OPERATION', message);
}
