/**
 * Handoffs: an agent's `handoffs` as engine tools. The model sees each as the SDK sends it (its
 * `transfer_to_…` tool); calling it runs the target agent, continuable, on the conversation so far
 * plus the SDK's transfer message, as the SDK's Runner hands over. When the target waits, the run
 * waits inside it, so a resume goes on with the agent the run was on; the target's answer is the
 * run's answer (the model port gives it back without another model call).
 */
import {
  type AssistantMessage,
  type ContinuableAgent,
  ContinuationError,
  type Message,
  type ToolDefinition,
} from '@agent-continuations/core';
import { type Agent, getHandoff, getTransferMessage, type Handoff, RunContext } from '@openai/agents';

/** What the SDK answers a second handoff asked in the same turn, which it does not take. */
export const IGNORED_HANDOFF = 'Multiple handoffs detected, ignoring this one.';

/**
 * The handoffs of `agent` as tools; `wrap` makes (once per agent) the continuable form of a target.
 *
 * @example
 * ```ts
 * const { tools, handoffs } = handoffTools(triage, (target) => continuable(target));
 * ```
 */
export function handoffTools(
  agent: Agent<any, any>,
  wrap: (target: Agent<any, any>) => ContinuableAgent<Message[], string>,
  context?: unknown,
): { tools: ToolDefinition[]; handoffs: Map<string, Handoff<any, any>> } {
  const handoffs = new Map<string, Handoff<any, any>>();
  for (const entry of agent.handoffs) {
    const made = getHandoff(entry);
    if (made.inputFilter) {
      refuse(
        `Agent "${agent.name}": the handoff to "${made.agentName}" has an inputFilter, which rewrites the SDK's run items, and a continuable run holds the neutral transcript instead: remove it, or shape the target's input in its instructions.`,
      );
    }
    if (handoffs.has(made.toolName))
      refuse(`Agent "${agent.name}" has two handoffs named "${made.toolName}".`);
    handoffs.set(made.toolName, made);
  }
  const tools = [...handoffs.values()].map((made): ToolDefinition => {
    let target: ContinuableAgent<Message[], string> | undefined;
    const resolve = () => {
      target ??= wrap(made.agent);
      return target;
    };
    return {
      name: made.toolName,
      description: made.toolDescription,
      inputSchema: made.inputJsonSchema as Record<string, unknown>,
      // Resolved on first use: handoffs may form a cycle (triage > billing > triage).
      get agent() {
        return resolve();
      },
      execute: async (args, ctx) => {
        const turn = ctx.messages.at(-1) as AssistantMessage;
        const calls = typeof turn.content === 'string' ? [] : turn.content;
        const first = calls.find((part) => part.type === 'tool-call' && handoffs.has(part.toolName));
        if (first?.type === 'tool-call' && first.toolCallId !== ctx.toolCallId) return IGNORED_HANDOFF;
        // The handoff's own hook (handoff(agent, { onHandoff, inputType })) with the model's input,
        // once: when the target waited, the call goes on inside it and does not hand off again.
        if (!ctx.replaying) await made.onInvokeHandoff(new RunContext(context), JSON.stringify(args));
        // The target reads the conversation as the SDK hands it over: this turn's text and its
        // handoff call, then the transfer message as that call's result.
        const handedOver: AssistantMessage = {
          ...turn,
          content: calls.filter((part) => part.type !== 'tool-call' || part.toolCallId === ctx.toolCallId),
        };
        return ctx.runAgent(resolve(), [
          ...ctx.messages.slice(0, -1),
          handedOver,
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: ctx.toolCallId,
                toolName: made.toolName,
                output: getTransferMessage(made.agent),
              },
            ],
          },
        ]);
      },
    };
  });
  return { tools, handoffs };
}

/**
 * The answer of the agent a run handed off to, when the transcript ends with it: the run's answer,
 * which the model is not asked for again.
 *
 * @example
 * ```ts
 * handedOffAnswer(messages, new Set(['transfer_to_billing'])); // 'Refunded.' or undefined
 * ```
 */
export function handedOffAnswer(
  messages: readonly Message[],
  names: ReadonlySet<string>,
): string | undefined {
  const last = messages.at(-1);
  const turn = messages.at(-2);
  if (last?.role !== 'tool' || turn?.role !== 'assistant' || typeof turn.content === 'string')
    return undefined;
  const call = turn.content.find((part) => part.type === 'tool-call' && names.has(part.toolName));
  if (call?.type !== 'tool-call') return undefined;
  const result = last.content.find((part) => part.toolCallId === call.toolCallId);
  if (!result || result.isError) return undefined;
  return typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
}

function refuse(message: string): never {
  throw new ContinuationError('INVALID_OPERATION', message);
}
