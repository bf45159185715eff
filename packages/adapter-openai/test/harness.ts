/**
 * The conformance harness of this adapter: agents built by `createAgent` over the real `openai`
 * client, talking HTTP to one scripted server; each agent's name is its model name there.
 */
import type { ConformanceHarness, ConformanceTool, ScriptedOpenAIServer } from '@agent-continuations/testing';
import OpenAI from 'openai';
import { agentTool, createAgent, humanTool, type OpenAIAgentTool, tool } from '../src/index';

/** This adapter's form of a conformance tool. */
export function toAdapterTool(spec: ConformanceTool): OpenAIAgentTool {
  if (spec.kind === 'agent') return agentTool(spec.agent, { name: spec.name, description: spec.description });
  if (spec.kind === 'human') {
    return humanTool({
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      response: spec.response,
    });
  }
  return tool({
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    ...(spec.needsApproval === undefined ? {} : { needsApproval: spec.needsApproval }),
    execute: (args, ctx) => spec.execute(args, ctx),
  });
}

/** A harness for one API over a running scripted server. */
export function openaiHarness(
  api: 'chat' | 'responses',
  server: () => ScriptedOpenAIServer,
): ConformanceHarness {
  return {
    name: `openai (${api}) over HTTP`,
    createAgent(spec) {
      const running = server();
      running.setScript(spec.name, spec.script);
      return createAgent({
        client: new OpenAI({ baseURL: running.baseURL, apiKey: 'test', maxRetries: 0 }),
        model: spec.name,
        name: spec.name,
        instructions: spec.instructions,
        api,
        tools: spec.tools.map(toAdapterTool),
        ...(spec.suspendWhen ? { suspendWhen: spec.suspendWhen } : {}),
        ...(spec.onReject ? { onReject: spec.onReject } : {}),
        ...(spec.seal ? { seal: spec.seal } : {}),
      });
    },
  };
}
