/**
 * The conformance harness of this adapter: `@openai/agents` agents over the SDK's own OpenAI models
 * (Chat Completions or Responses) on the real `openai` client, talking HTTP to one scripted
 * server; each agent's name is its model name there.
 */
import type { ConformanceHarness, ConformanceTool, ScriptedOpenAIServer } from '@agent-continuations/testing';
import {
  Agent,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  setTracingDisabled,
  type Tool,
  tool,
} from '@openai/agents';
import OpenAI from 'openai';
import { agentTool, continuable, continuationContext, humanTool } from '../src/index';

setTracingDisabled(true);

/** This adapter's form of a conformance tool. */
export function toSdkTool(spec: ConformanceTool): Tool {
  if (spec.kind === 'agent') return agentTool(spec.agent, { name: spec.name, description: spec.description });
  if (spec.kind === 'human') {
    return humanTool({
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      response: spec.response,
    });
  }
  const needsApproval = spec.needsApproval;
  return tool({
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    ...(needsApproval === undefined
      ? {}
      : {
          needsApproval:
            typeof needsApproval === 'boolean' ? needsApproval : async (_ctx, args) => needsApproval(args),
        }),
    execute: (args, runContext) => spec.execute(args, continuationContext(runContext)!),
  });
}

/** The SDK's model for one API over the scripted server. */
export function sdkModel(api: 'chat' | 'responses', server: ScriptedOpenAIServer, name: string) {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
  return api === 'chat'
    ? new OpenAIChatCompletionsModel(client, name)
    : new OpenAIResponsesModel(client, name);
}

/** A harness for one API over a running scripted server. */
export function agentsHarness(
  api: 'chat' | 'responses',
  server: () => ScriptedOpenAIServer,
): ConformanceHarness {
  return {
    name: `openai-agents (${api}) over HTTP`,
    createAgent(spec) {
      const running = server();
      running.setScript(spec.name, spec.script);
      const agent = new Agent({
        name: spec.name,
        instructions: spec.instructions,
        model: sdkModel(api, running, spec.name),
        tools: spec.tools.map(toSdkTool),
      });
      return continuable(agent, {
        ...(spec.suspendWhen ? { suspendWhen: spec.suspendWhen } : {}),
        ...(spec.onReject ? { onReject: spec.onReject } : {}),
        ...(spec.seal ? { seal: spec.seal } : {}),
      });
    },
  };
}
