/**
 * Every difference between the `ai` majors this adapter supports (6 and 7), in one place:
 * where an agent keeps its settings, how instructions are named, what a tool's options carry,
 * and the `toolApproval` policy that `ai@7` adds on top of a tool's own `needsApproval`.
 */

import type { Tool } from 'ai';
import * as sdk from 'ai';

/** The installed major of `ai`: 7 has `isStepCount` (6 only `stepCountIs`). */
export const AI_MAJOR: 6 | 7 = 'isStepCount' in sdk ? 7 : 6;

/** The setting of the step callback: `onStepEnd` in ai@7 (`onStepFinish` its deprecated alias), `onStepFinish` in ai@6. */
export const STEP_CALLBACK: 'onStepEnd' | 'onStepFinish' = AI_MAJOR === 7 ? 'onStepEnd' : 'onStepFinish';

/** The kind of the ai@7 `custom` part that carries a suspended run's {@link ContinuationData}. */
export const CONTINUATION_KIND = 'agent-continuations.continuation';

/**
 * The stream part that names a suspended run's continuation where the SDK builds the UI stream
 * from the run's stream parts (ai@7's `createAgentUIStreamResponse`): a `custom` part, which
 * becomes a `custom` UI part. In ai@6 the adapter builds the UI stream itself, with a
 * `data-continuation` part, and there is no such stream part.
 */
export function continuationStreamPart(data: object): Record<string, unknown> | undefined {
  if (AI_MAJOR === 6) return undefined;
  return {
    type: 'custom',
    kind: CONTINUATION_KIND,
    providerMetadata: { 'agent-continuations': JSON.parse(JSON.stringify(data)) },
  };
}

/**
 * What a step's `response.messages` holds: in ai@6 the response messages of the whole call so
 * far, in ai@7 those of the step alone.
 */
export const STEP_RESPONSE_MESSAGES: 'accumulated' | 'own' = AI_MAJOR === 7 ? 'own' : 'accumulated';

/** The settings of a `generateText` call or a `ToolLoopAgent`, read loosely across majors. */
export type AnySettings = Record<string, unknown> & { tools?: Record<string, Tool> };

/** True for a `ToolLoopAgent` (or any agent of the SDK's `agent-v1` interface). */
export function isSdkAgent(value: unknown): value is { version: 'agent-v1'; generate: unknown } {
  return (
    typeof value === 'object' && value !== null && (value as { version?: unknown }).version === 'agent-v1'
  );
}

/**
 * The settings a `ToolLoopAgent` was built with. Both majors keep them in a `settings` field
 * (TypeScript-private, present at run time).
 */
export function agentSettings(agent: object): AnySettings {
  const settings = (agent as { settings?: unknown }).settings;
  if (typeof settings !== 'object' || settings === null) {
    throw new TypeError(
      'This ToolLoopAgent does not expose its settings; pass the settings object to continuable() instead.',
    );
  }
  return settings as AnySettings;
}

/** The system prompt: `instructions` (agents, and `generateText` in ai@7) or `system` (ai@6 `generateText`). */
export function instructionsOf(settings: AnySettings): unknown {
  return settings.instructions ?? settings.system;
}

/**
 * Keys of agent settings that concern the whole loop, which the adapter handles itself, and never
 * reach the per-step `generateText` call.
 */
export const LOOP_ONLY_KEYS = [
  'id',
  'version',
  'instructions',
  'system',
  'tools',
  'stopWhen',
  'prepareCall',
  'callOptionsSchema',
  'onFinish',
  'onEnd',
  'toolApproval',
  'prepareStep',
  'experimental_prepareStep',
  'experimental_repairToolCall',
] as const;

/** The user's `prepareStep` (`experimental_prepareStep` is ai@6's older name). */
export function prepareStepOf(
  settings: AnySettings,
): ((options: Record<string, unknown>) => unknown) | undefined {
  return (settings.prepareStep ?? settings.experimental_prepareStep) as
    | ((options: Record<string, unknown>) => unknown)
    | undefined;
}

/** The structured output specification (`experimental_output` is ai@6's older name). */
export function outputOf(settings: AnySettings): OutputSpec | undefined {
  return (settings.output ?? settings.experimental_output) as OutputSpec | undefined;
}

/** What the adapter reads of an `Output` specification (`Output.object(...)`, `Output.text()`, ...). */
export interface OutputSpec {
  parseCompleteOutput(
    options: { text: string },
    context: { response: Record<string, unknown>; usage: Record<string, unknown>; finishReason: string },
  ): Promise<unknown>;
}

/** The completion callback: `onEnd` in ai@7 (with `onFinish` its deprecated alias), `onFinish` in ai@6. */
export function onFinishOf(settings: AnySettings): ((event: Record<string, unknown>) => unknown) | undefined {
  return (settings.onEnd ?? settings.onFinish) as ((event: Record<string, unknown>) => unknown) | undefined;
}

/** A stop condition, as both majors call it. */
export type StopConditionFn = (options: { steps: never[] }) => boolean | PromiseLike<boolean>;

/**
 * The stop conditions of a run: the settings' `stopWhen`, or for a `ToolLoopAgent` without one the
 * default of both majors, 20 steps (`stepCountIs(20)` in ai@6, `isStepCount(20)` in ai@7).
 * `generateText` settings without `stopWhen` get none: their native default, one step, is the
 * engine's loop itself, bounded by the engine's own step limit.
 */
export function stopConditionsOf(settings: AnySettings, isAgent: boolean): StopConditionFn[] {
  const stopWhen = settings.stopWhen as StopConditionFn | StopConditionFn[] | undefined;
  if (stopWhen === undefined) return isAgent ? [({ steps }) => steps.length === 20] : [];
  return Array.isArray(stopWhen) ? stopWhen : [stopWhen];
}

/** What a tool's `execute`, `needsApproval` and `toModelOutput` see besides the input, per major. */
export function toolOptionsContext(settings: AnySettings, toolName: string): Record<string, unknown> {
  const toolsContext = settings.toolsContext as Record<string, unknown> | undefined;
  return {
    // ai@6 passes the whole run's experimental context; ai@7 a per-tool `context`.
    ...(settings.experimental_context === undefined
      ? {}
      : { experimental_context: settings.experimental_context }),
    ...(toolsContext?.[toolName] === undefined ? {} : { context: toolsContext[toolName] }),
  };
}

/** How an approval check ends: ask a human, run without asking, or refuse without asking (ai@7, with its reason). */
export type ApprovalStatus = 'ask' | 'run' | { deny: string | undefined };

/**
 * Decide whether a call needs a human: the `ai@7` `toolApproval` policy first (generic function
 * or per-tool entry), then the tool's own `needsApproval` (boolean or function, both majors).
 */
export async function approvalStatus(
  settings: AnySettings,
  toolName: string,
  tool: Tool,
  input: unknown,
  call: { toolCallId: string; messages: () => unknown[] },
): Promise<ApprovalStatus> {
  const policy = settings.toolApproval as unknown;
  const needsApproval = tool.needsApproval as unknown;
  // The conversation is converted only for a rule that is a function, which may read it.
  if (policy === undefined && typeof needsApproval !== 'function')
    return needsApproval === true ? 'ask' : 'run';
  const options: Record<string, unknown> = {
    toolCallId: call.toolCallId,
    messages: call.messages(),
    ...toolOptionsContext(settings, toolName),
  };
  if (typeof policy === 'function') {
    const status = await policy({
      toolCall: { type: 'tool-call', toolCallId: call.toolCallId, toolName, input },
      tools: settings.tools,
      toolsContext: settings.toolsContext ?? {},
      runtimeContext: settings.runtimeContext,
      messages: options.messages,
    });
    return fromPolicyStatus(status);
  }
  if (typeof policy === 'object' && policy !== null && Object.hasOwn(policy, toolName)) {
    const entry = (policy as Record<string, unknown>)[toolName];
    const status =
      typeof entry === 'function'
        ? await entry(input, {
            ...options,
            toolContext: options.context,
            runtimeContext: settings.runtimeContext,
          })
        : entry;
    return fromPolicyStatus(status);
  }
  if (typeof needsApproval === 'function') return (await needsApproval(input, options)) ? 'ask' : 'run';
  return needsApproval === true ? 'ask' : 'run';
}

function fromPolicyStatus(status: unknown): ApprovalStatus {
  const object =
    typeof status === 'object' && status !== null
      ? (status as { type?: unknown; reason?: unknown })
      : undefined;
  const type = object ? object.type : status;
  if (type === 'user-approval') return 'ask';
  if (type === 'denied') return { deny: typeof object?.reason === 'string' ? object.reason : undefined };
  return 'run';
}
