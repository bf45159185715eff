/**
 * Call options (`callOptionsSchema`, `prepareCall`) for continuable runs. A `ToolLoopAgent` calls
 * `prepareCall` once per `generate()`; a continuable run calls it when it starts and again on
 * every resume, with the same call options, which the continuation keeps under
 * `state["ai-sdk"].callOptions`. So `prepareCall` must make the same settings from the same
 * options (it may read them, the prompt and the agent's settings, not the clock).
 */
import {
  type Continuation,
  ContinuationError,
  type JsonObject,
  type JsonValue,
  type RunOptions,
} from '@agent-continuations/core';
import { asSchema, type ModelMessage } from 'ai';
import type { AnySettings } from './compat';
import { AI_SDK_KEY } from './provider-metadata';

/** A run's prepared settings, and the prompt `prepareCall` may have rewritten. */
export interface PreparedCall {
  settings: AnySettings;
  prompt?: string | ModelMessage[];
}

/** True when the agent's settings depend on the call: `prepareCall` or `callOptionsSchema`. */
export function preparesCalls(settings: AnySettings): boolean {
  return settings.prepareCall !== undefined || settings.callOptionsSchema !== undefined;
}

/**
 * Validate the call options against `callOptionsSchema` and run `prepareCall`, as a
 * `ToolLoopAgent` does: `prepareCall` gets the settings, the default `stopWhen`, the prompt and
 * the options, and what it returns is the settings of the run.
 */
export async function prepareCall(
  settings: AnySettings,
  callOptions: unknown,
  prompt: { prompt: string | ModelMessage[] } | { messages: ModelMessage[] },
  defaultStopWhen: unknown,
): Promise<PreparedCall> {
  let options = callOptions;
  const schema = settings.callOptionsSchema;
  if (schema !== undefined && options !== undefined) {
    const checked = await asSchema(schema as never).validate?.(options);
    if (checked && !checked.success) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `The call options do not match the agent's callOptionsSchema: ${checked.error.message}`,
        { cause: checked.error },
      );
    }
    if (checked) options = checked.value;
  }
  const { onStepFinish, prepareCall: prepare, ...rest } = settings;
  const base = {
    ...rest,
    stopWhen: settings.stopWhen ?? defaultStopWhen,
    ...prompt,
    ...(options === undefined ? {} : { options }),
  };
  const prepared = ((await (prepare as ((args: object) => unknown) | undefined)?.(base)) ??
    base) as AnySettings;
  const { prompt: newPrompt, messages, options: _options, ...own } = prepared;
  return {
    // As in the SDK, what `prepareCall` returns is the run's settings; the step callback stays.
    settings: { ...own, ...(onStepFinish === undefined ? {} : { onStepFinish }) },
    ...(newPrompt !== undefined
      ? { prompt: newPrompt as string | ModelMessage[] }
      : messages !== undefined
        ? { prompt: messages as ModelMessage[] }
        : {}),
  };
}

/** The call options a continuation of this adapter kept, if any. */
export function callOptionsOf(continuation: Continuation): JsonValue | undefined {
  const state = continuation.state;
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return undefined;
  const own = (state as JsonObject)[AI_SDK_KEY];
  if (typeof own !== 'object' || own === null || Array.isArray(own)) return undefined;
  return (own as JsonObject).callOptions;
}

/**
 * Run options that keep the call options in every continuation the run emits (the suspension's,
 * the checkpoints observers take, a failure's), as the `state` the engine carries; the other
 * native data of a continuation this adapter made is kept beside them.
 */
export function keepingCallOptions(
  options: RunOptions,
  callOptions: unknown,
  resumed?: Continuation,
): RunOptions {
  if (callOptions === undefined) return options;
  let json: JsonValue;
  try {
    json = JSON.parse(JSON.stringify(callOptions)) as JsonValue;
  } catch (error) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `The call options must be JSON, to be kept in the continuation: ${(error as Error).message}`,
    );
  }
  const state = resumed?.agent.framework === 'vercel-ai' ? resumed.state : undefined;
  const others = typeof state === 'object' && state !== null && !Array.isArray(state) ? state : {};
  return { ...options, state: { ...others, [AI_SDK_KEY]: { callOptions: json } } };
}
