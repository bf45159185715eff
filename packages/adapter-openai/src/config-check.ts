/**
 * Every option of `createAgent`, and every request setting in `modelSettings`, is honoured or
 * refused when the agent is made, with an error naming it and saying what to do instead: a
 * setting the adapter would override or cannot honour never disappears silently. The README's
 * settings table lists the same.
 */
import { ContinuationError } from '@agent-continuations/core';
import type { OpenAIAgentConfig } from './create-agent';

const OPTIONS = new Set([
  'client',
  'model',
  'name',
  'description',
  'instructions',
  'tools',
  'api',
  'suspendWhen',
  'modelSettings',
  'onReject',
  'toolErrors',
  'maxChatCompletions',
  'maxSteps',
  'seal',
  'toolContext',
]);

/** Request settings the adapter sets itself, or cannot honour, with what to do instead. */
const REFUSED_SETTINGS: Record<'chat' | 'responses' | 'both', Record<string, string>> = {
  both: {
    model: 'set the `model` option of createAgent instead',
    stream: 'call agent.stream() to stream; agent.run() does not',
    tools: 'pass the tools in the `tools` option of createAgent',
  },
  chat: {
    messages: 'pass the conversation to agent.run(messages)',
    stream_options: 'the adapter asks for usage when it streams',
    functions: 'pass the functions as tools in the `tools` option of createAgent',
    function_call: 'use tool_choice',
    text: 'Chat Completions takes response_format (or set api: "responses")',
  },
  responses: {
    input: 'pass the input to agent.run(input)',
    instructions: 'set the `instructions` option of createAgent',
    previous_response_id:
      'the adapter sends the whole transcript with every call, so that any process can resume; remove it',
    conversation:
      'the adapter sends the whole transcript with every call, so that any process can resume; remove it',
    background: 'a run waits for each response; remove it',
    response_format: 'the Responses API takes text.format (or set api: "chat")',
  },
};

/**
 * Refuse, before anything runs, an option or request setting the agent would drop or override.
 *
 * @example
 * ```ts
 * checkConfig({ client, model: 'gpt-4.1', name: 'a', modelSettings: { stream: true } }, 'chat'); // throws
 * ```
 */
export function checkConfig(config: OpenAIAgentConfig, api: 'chat' | 'responses'): void {
  for (const [key, value] of Object.entries(config)) {
    if (value !== undefined && !OPTIONS.has(key)) {
      refuse(
        `createAgent does not know the option "${key}", so it would be dropped: remove it (the options are ${[...OPTIONS].join(', ')}).`,
      );
    }
  }
  if (config.maxChatCompletions !== undefined) {
    const n = config.maxChatCompletions;
    if (!Number.isInteger(n) || n < 1) refuse(`maxChatCompletions must be a whole number >= 1, not ${n}.`);
  }
  const settings = config.modelSettings ?? {};
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    const instead = REFUSED_SETTINGS.both[key] ?? REFUSED_SETTINGS[api][key];
    if (instead) refuse(`Agent "${config.name}" cannot honour modelSettings.${key}: ${instead}.`);
    if (key === 'n' && value !== 1) {
      refuse(
        `Agent "${config.name}" cannot honour modelSettings.n: a run goes on with one choice; remove it.`,
      );
    }
    if (key === 'tool_choice' && forcesACall(value)) {
      refuse(
        `Agent "${config.name}" cannot honour modelSettings.tool_choice ${JSON.stringify(value)}: it forces a tool call on every model call, so the model could never answer and the run would only stop at its step limit (runTools instead stops after the forced call); use 'auto', or call the tool yourself before run().`,
      );
    }
  }
}

/** A tool choice that makes every model call call a tool: `required`, or one named tool. */
function forcesACall(choice: unknown): boolean {
  if (choice === 'required') return true;
  if (typeof choice !== 'object' || choice === null) return false;
  const { type, mode } = choice as { type?: unknown; mode?: unknown };
  return type === 'function' || type === 'custom' || mode === 'required';
}

function refuse(message: string): never {
  throw new ContinuationError('INVALID_OPERATION', message);
}
