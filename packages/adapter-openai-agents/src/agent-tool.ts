/**
 * `agentTool`: a continuable agent of any adapter (the raw OpenAI SDK's, the AI SDK's,
 * LangGraph's, this one's) as an `@openai/agents` function tool. Under a continuable parent its
 * suspensions nest in the parent's continuation; under the SDK's own `Runner` it runs to its answer.
 */
import { type ContinuableAgent, ContinuationError } from '@agent-continuations/core';
import { type FunctionTool, tool } from '@openai/agents';
import { z } from 'zod';
import { registerSubAgent } from './tools';

/** Options of {@link agentTool}. */
export interface AgentToolOptions {
  /** The tool's name; the agent's name by default. */
  name?: string;
  description?: string;
  /** Ask a human before the sub-agent runs. */
  needsApproval?: boolean;
}

/**
 * A sub-agent from any adapter as a tool of an `@openai/agents` agent, taking `{ input }`.
 *
 * @example
 * ```ts
 * const payroll = createAgent({ client, model: 'gpt-4.1', name: 'payroll', tools: [updateSalary] });
 * const hr = continuable(new Agent({ name: 'hr', tools: [agentTool(payroll, { description: 'Payroll' })] }));
 * ```
 */
export function agentTool(
  agent: ContinuableAgent<string, unknown>,
  options: AgentToolOptions = {},
): FunctionTool<unknown, z.ZodObject<{ input: z.ZodString }>, string> {
  const made = tool({
    name: options.name ?? agent.name,
    description: options.description ?? agent.description ?? `Delegate a task to the ${agent.name} agent.`,
    parameters: z.object({ input: z.string().describe('The task for the sub-agent') }),
    needsApproval: options.needsApproval ?? false,
    errorFunction: null,
    execute: async ({ input }) => {
      const result = await agent.run(input);
      if (result.status === 'completed')
        return typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
      if (result.status === 'rejected') return `A human rejected ${result.rejection.toolName}.`;
      throw new ContinuationError(
        'INVALID_OPERATION',
        `Sub-agent "${agent.name}" suspended, which the SDK's Runner cannot hold: wrap the parent agent with continuable() to nest its suspension.`,
      );
    },
  });
  return registerSubAgent(made, agent);
}
