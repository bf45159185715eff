/**
 * What the port's SDK calls share, made once per agent from its settings: the tools as the model
 * sees them (schemas only, no `execute` and no approval rules), the call settings, and the
 * `prepareStep` that hands the SDK the engine's history as each step's prompt.
 */
import type { ModelRequest, ModelResponse } from '@agent-continuations/core';
import { type ModelMessage, stepCountIs, type Tool } from 'ai';
import { type AnySettings, instructionsOf, LOOP_ONLY_KEYS, prepareStepOf, STEP_CALLBACK } from './compat';
import { type Accepted, inputSchemaOf, notingSchema } from './input-schemas';
import { type StepParts, toResponse } from './model-response';
import type { OpenCall } from './open-call';
import { PER_CALL_SETTINGS } from './settings';

/** The request a call's next step answers, with its prompt. */
export interface Current {
  request: ModelRequest;
  history: ModelMessage[];
}

/**
 * Settings that one SDK call kept open across a segment's steps honours as one call per step
 * does. Any other setting (step callbacks, telemetry, timeouts, stream transforms, `output`)
 * would see the calls themselves, so an agent with one makes a call per step.
 */
const SEGMENT_SAFE = new Set<string>([
  ...LOOP_ONLY_KEYS,
  ...PER_CALL_SETTINGS,
  'experimental_context',
  'onError',
  'includeRawChunks',
]);

/** What the port's calls share (see {@link portCalls}). */
export interface PortCalls {
  /** The agent's tools, as the engine runs them. */
  tools: Record<string, Tool>;
  /** The engine's response for one SDK step. */
  responseOf(step: StepParts): ModelResponse;
  /** The SDK call's arguments; `open` for a call kept open across a segment's steps. */
  callArgs(at: () => Current, open?: OpenCall): Record<string, unknown>;
  /** The agent's own `onError`, called for each error of a streamed call. */
  userOnError: ((event: { error: unknown }) => unknown) | undefined;
  /** The agent's own step callback, called after each step of a streamed call. */
  userStepCallback: ((step: StepParts) => unknown) | undefined;
  /** Every setting is one that a call kept open across a segment's steps honours. */
  segments: boolean;
}

/** The calls' shared parts for an agent's settings. */
export function portCalls(settings: AnySettings): PortCalls {
  const tools = settings.tools ?? {};
  // The inputs the SDK's validation of tool calls accepted, by the value it gave: a call whose
  // arguments are that same input reaches the engine's tool already validated.
  const accepted: Accepted = new WeakMap();
  const modelTools = schemaOnlyTools(tools, accepted);
  const placeholderTools = withPlaceholders(modelTools);
  const skip = new Set<string>(LOOP_ONLY_KEYS);
  const callSettings = Object.fromEntries(Object.entries(settings).filter(([key]) => !skip.has(key)));
  const system = instructionsOf(settings);
  const userPrepareStep = prepareStepOf(settings);
  const userRepair = settings.experimental_repairToolCall as
    | ((options: Record<string, unknown>) => unknown)
    | undefined;
  return {
    tools,
    responseOf: (step) =>
      toResponse(step.response.messages, step.usage, step.finishReason, step.rawFinishReason, {
        accepted,
        content: step.content,
      }),
    userOnError: settings.onError as ((event: { error: unknown }) => unknown) | undefined,
    userStepCallback: settings[STEP_CALLBACK] as ((step: StepParts) => unknown) | undefined,
    segments: Object.entries(settings).every(([key, value]) => value === undefined || SEGMENT_SAFE.has(key)),
    callArgs(at, open) {
      const { signal } = at().request;
      return {
        ...callSettings,
        ...(system === undefined ? {} : { system }),
        // The SDK checks a call's `messages` against its schema, at a cost that grows with their size,
        // then sends each step the messages `prepareStep` returns as they are. The history comes from
        // the continuation, checked when it was parsed, so it goes through `prepareStep`, and the
        // call itself carries one empty user message (the model never sees it).
        messages: [{ role: 'user', content: '' }],
        ...(userRepair
          ? {
              experimental_repairToolCall: (options: Record<string, unknown>) =>
                userRepair({ ...options, messages: at().history }),
            }
          : {}),
        prepareStep: stepPreparer(settings, userPrepareStep, at, open),
        tools: open ? placeholderTools : modelTools,
        stopWhen: open ? async () => !(await open.decision?.promise) : stepCountIs(1),
        ...(signal ? { abortSignal: signal } : {}),
      };
    },
  };
}

/** The tools as the model sees them: no `execute`, no approval rules, inputs noted when accepted. */
function schemaOnlyTools(
  tools: Record<string, Tool>,
  accepted: Accepted,
): Record<string, Tool & Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const {
        execute: _execute,
        needsApproval: _needsApproval,
        ...schemaOnly
      } = tool as Tool & Record<string, unknown>;
      if (schemaOnly.type === 'provider') return [name, schemaOnly];
      const inputSchema = notingSchema(inputSchemaOf((tool as Tool).inputSchema), accepted);
      return [name, { ...schemaOnly, inputSchema }];
    }),
  );
}

/**
 * The tools of a call kept open across steps. There the SDK must go on after a step with tool
 * calls, which it does once each call has a result: these placeholders are never sent (the next
 * step's prompt is the engine's history, with the engine's results).
 */
function withPlaceholders(
  modelTools: Record<string, Tool & Record<string, unknown>>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(modelTools).map(([name, tool]) => {
      if (tool.type === 'provider') return [name, tool];
      const { toModelOutput: _toModelOutput, ...rest } = tool as Record<string, unknown>;
      return [name, { ...rest, execute: placeholderResult }];
    }),
  );
}

/** The call's `prepareStep`: each step's prompt is the engine's history, through the user's own. */
function stepPreparer(
  settings: AnySettings,
  userPrepareStep: ReturnType<typeof prepareStepOf>,
  at: () => Current,
  open: OpenCall | undefined,
) {
  return async (options: Record<string, unknown>) => {
    const { request, history } = at();
    // The user's prepareStep sees the run's real step number and the whole history; in a call
    // kept open, what a call of its own would show: no earlier steps, the settings' context.
    const seen = open ? { steps: [], experimental_context: settings.experimental_context } : {};
    const own = (await userPrepareStep?.({
      ...options,
      ...seen,
      stepNumber: request.step,
      messages: history,
    })) as Record<string, unknown> | undefined;
    return {
      ...own,
      messages: own?.messages ?? history,
      ...(open ? { experimental_context: own?.experimental_context ?? settings.experimental_context } : {}),
    };
  };
}

/** What a placeholder tool returns in a call kept open (see `withPlaceholders`). */
function placeholderResult(): null {
  return null;
}
