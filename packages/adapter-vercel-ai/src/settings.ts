/**
 * Every setting of a `ToolLoopAgent` or of `generateText` / `streamText` (ai@6 and ai@7) is
 * honoured, mapped, or refused at wrap time with a typed error that names it and says what to do
 * instead: nothing the framework did stops working silently. The README's settings table lists
 * the same three groups.
 */
import { ContinuationError } from '@agent-continuations/core';

/**
 * Settings each SDK call takes as they are and applies to that call alone: honoured, and as safe
 * in one call kept open across a segment's steps as in one call per step.
 */
export const PER_CALL_SETTINGS = [
  'model',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'stopSequences',
  'seed',
  'maxRetries',
  'headers',
  'providerOptions',
  'toolChoice',
  'activeTools',
  'experimental_activeTools',
  'allowSystemInMessages',
  'experimental_download',
  'experimental_include',
  'include',
  '_internal',
] as const;

/**
 * Settings each model call receives as they are (the SDK applies them to that call), or that the
 * adapter applies itself the SDK's way.
 */
const HONOURED = new Set<string>([
  // the model call
  ...PER_CALL_SETTINGS,
  'timeout',
  'reasoning',
  'toolOrder',
  'experimental_telemetry',
  'telemetry',
  'experimental_refineToolInput',
  'repairToolCall',
  'experimental_repairToolCall',
  'prepareStep',
  'experimental_prepareStep',
  // callbacks of one model call (streamText's only in `stream()`)
  'onStepFinish',
  'onStepStart',
  'experimental_onStepStart',
  'onStepEnd',
  'onStepError',
  'onLanguageModelCallStart',
  'onLanguageModelCallEnd',
  'onChunk',
  'onError',
  'onAbort',
  'includeRawChunks',
  'experimental_transform',
  // the loop, applied by the adapter
  'id',
  'instructions',
  'system',
  'tools',
  'toolApproval',
  'experimental_context',
  'runtimeContext',
  'toolsContext',
  'stopWhen',
  'output',
  'experimental_output',
  'onFinish',
  'onEnd',
  'prepareCall',
  'callOptionsSchema',
]);

/** Settings the adapter cannot honour, with what to do instead. */
const REFUSED: Record<string, string> = {
  prompt: 'pass the prompt to run(input) (or generate({ prompt }) / stream({ prompt })) instead',
  messages: 'pass the conversation to run(messages) instead',
  abortSignal: 'pass { signal } in the options of run() or resume() instead',
  experimental_toolApprovalSecret:
    'the SDK signs approval requests it sends to a client, and here the continuation carries them: seal continuations (sealContinuation / verifySeal from @agent-continuations/core) instead',
  onStart:
    'a run starts again on every resume: observe runs with the `onEvent` run option, or call your code before run()',
  experimental_onStart:
    'a run starts again on every resume: observe runs with the `onEvent` run option, or call your code before run()',
  onToolExecutionStart:
    "the adapter runs the tools: observe 'tool-result' events with the `onEvent` run option, or wrap the tool's execute",
  onToolExecutionEnd:
    "the adapter runs the tools: observe 'tool-result' events with the `onEvent` run option, or wrap the tool's execute",
  experimental_onToolCallStart:
    "the adapter runs the tools: observe 'tool-result' events with the `onEvent` run option, or wrap the tool's execute",
  experimental_onToolCallFinish:
    "the adapter runs the tools: observe 'tool-result' events with the `onEvent` run option, or wrap the tool's execute",
  toolCallConcurrency:
    "the adapter runs a turn's tool calls concurrently; remove it, or ask the model for one call at a time (e.g. providerOptions.openai.parallelToolCalls = false)",
  experimental_toolCallers:
    'tool callers are not supported by continuable(); call those tools from a tool execute instead',
};

/**
 * Refuse, before anything runs, a setting that `continuable()` would otherwise drop.
 *
 * @example
 * ```ts
 * checkSettings({ model, experimental_toolApprovalSecret: 's' }, 'ToolLoopAgent'); // throws INVALID_OPERATION
 * ```
 */
export function checkSettings(
  settings: Record<string, unknown>,
  source: 'ToolLoopAgent' | 'generateText',
): void {
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined || HONOURED.has(key)) continue;
    const instead = REFUSED[key];
    throw new ContinuationError(
      'INVALID_OPERATION',
      instead
        ? `continuable() cannot honour the ${source} setting "${key}": ${instead}.`
        : `continuable() does not know the ${source} setting "${key}", so it would be dropped: remove it, or wrap the agent's pieces yourself with createContinuableAgent from @agent-continuations/core.`,
    );
  }
}

/**
 * Options of one SDK-shaped `generate()` / `stream()` call that the adapter cannot honour.
 *
 * @example
 * ```ts
 * checkCallParameters({ prompt: 'hi', timeout: 1000 }); // throws INVALID_OPERATION
 * ```
 */
export function checkCallParameters(parameters: Record<string, unknown>): void {
  const honoured = new Set(['prompt', 'messages', 'options', 'abortSignal', 'onStepFinish', 'onStepEnd']);
  const refused: Record<string, string> = {
    timeout: 'pass an AbortSignal (e.g. AbortSignal.timeout(ms)) as abortSignal instead',
    experimental_transform:
      'set experimental_transform in generateText settings instead, where each model call applies it',
  };
  for (const [key, value] of Object.entries(parameters)) {
    if (value === undefined || honoured.has(key)) continue;
    throw new ContinuationError(
      'INVALID_OPERATION',
      `A continuable agent cannot honour the call option "${key}": ${refused[key] ?? 'remove it'}.`,
    );
  }
}
