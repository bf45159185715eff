/**
 * Every difference between the `ai` majors this adapter supports (6 and 7), in one place:
 * where an agent keeps its settings, how instructions are named, what a tool's options carry,
 * and the `toolApproval` policy that `ai@7` adds on top of a tool's own `needsApproval`.
 */
import type { Tool } from 'ai';

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

/** Keys of agent settings that concern the whole loop, which the engine replaces, and never reach `generateText`. */
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
  'onStart',
  'experimental_onStart',
  'onToolExecutionStart',
  'onToolExecutionEnd',
  'experimental_onToolCallStart',
  'experimental_onToolCallFinish',
  'toolApproval',
  'experimental_toolApprovalSecret',
  'output',
  'experimental_output',
  'prompt',
  'messages',
] as const;

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
