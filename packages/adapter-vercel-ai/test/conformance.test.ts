import {
  type ConformanceAgentSpec,
  type ConformanceTool,
  runConformanceSuite,
} from '@agent-continuations/testing';
import { type Tool, ToolLoopAgent, tool } from 'ai';
import { agentTool, continuable, getToolContext } from '../src/index';
import { scriptedLanguageModel } from './support/scripted-language-model';

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
  };
}

runConformanceSuite({
  name: 'vercel-ai: ToolLoopAgent with the SDK mock model',
  createAgent: (spec) =>
    continuable(
      new ToolLoopAgent({
        model: scriptedLanguageModel(spec.script),
        instructions: spec.instructions,
        tools: sdkTools(spec.tools),
      }),
      specOptions(spec),
    ),
});

runConformanceSuite({
  name: 'vercel-ai: generateText settings, streamed model steps',
  createAgent: (spec) => {
    const agent = continuable(
      { model: scriptedLanguageModel(spec.script), system: spec.instructions, tools: sdkTools(spec.tools) },
      specOptions(spec),
    );
    // Every run and resume goes through stream(), so the streamText path meets the same scenarios.
    return {
      ...agent,
      run: (input, options) => agent.stream(input, options).result,
      resume: (continuation, decisions, options) =>
        agent.stream({ continuation, ...(decisions ? { decisions } : {}) }, options).result,
    };
  },
});
