/** Conformance specs as AI SDK agents: the neutral tools as SDK tools, and the options of continuable(). */
import type { ConformanceAgentSpec, ConformanceTool } from '@agent-continuations/testing';
import { type Tool, tool } from 'ai';
import { agentTool, getToolContext, type VercelContinuableAgent } from '../../src/index';

/** The conformance suite's neutral tools as AI SDK tools. */
export function sdkTools(tools: readonly ConformanceTool[]): Record<string, Tool> {
  return Object.fromEntries(tools.map((spec): [string, Tool] => [spec.name, sdkTool(spec)]));
}

function sdkTool(spec: ConformanceTool): Tool {
  if (spec.kind === 'agent') return agentTool(spec.agent, { description: spec.description });
  if (spec.kind === 'human') {
    return tool({ description: spec.description, inputSchema: spec.parameters, outputSchema: spec.response });
  }
  return tool({
    description: spec.description,
    inputSchema: spec.parameters,
    ...(spec.needsApproval === undefined ? {} : { needsApproval: spec.needsApproval }),
    execute: (args, options) => {
      const ctx = getToolContext(options);
      return spec.execute(args, {
        requestInput: (request) => ctx.requestInput(request),
        idempotencyKey: ctx.idempotencyKey,
      });
    },
  });
}

/** Options of `continuable()` from a conformance spec. */
export function specOptions(spec: ConformanceAgentSpec) {
  return {
    name: spec.name,
    ...(spec.suspendWhen ? { suspendWhen: spec.suspendWhen } : {}),
    ...(spec.onReject ? { onReject: spec.onReject } : {}),
    ...(spec.seal ? { seal: spec.seal } : {}),
  };
}

/** The agent with every run and resume going through `stream()`, so streamed steps meet the same scenarios. */
export function streamed(agent: VercelContinuableAgent): VercelContinuableAgent {
  return {
    ...agent,
    run: (input, options) => agent.stream(input, options).result,
    resume: (continuation, decisions, options) =>
      agent.stream({ continuation, ...(decisions ? { decisions } : {}) }, options).result,
  };
}
