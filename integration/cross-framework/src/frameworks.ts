/**
 * One agent, five frameworks: build the same neutral agent description as an OpenAI chat agent,
 * an OpenAI responses agent, an AI SDK `ToolLoopAgent` (through `@ai-sdk/openai`, responses API),
 * a langchain `createAgent` graph (through `ChatOpenAI`) or an `@openai/agents` `Agent` (through
 * the SDK's own `OpenAIProvider`, whose default is the responses API). Every model call is real HTTP to the
 * scripted OpenAI-compatible server; the agent's model name there is `spec.model`.
 */
import type { ContinuableAgent, JsonValue } from '@agent-continuations/core';
import {
  fromGraph,
  agentTool as graphAgentTool,
  humanTool as graphHumanTool,
  getToolContext as graphToolContext,
  requestInput,
  requireApproval,
} from '@agent-continuations/langgraph';
import {
  createAgent,
  humanTool,
  agentTool as openaiAgentTool,
  tool as openaiTool,
} from '@agent-continuations/openai';
import {
  agentTool as agentsAgentTool,
  humanTool as agentsHumanTool,
  continuable as continuableAgent,
  continuationContext,
} from '@agent-continuations/openai-agents';
import type { ConformanceTool } from '@agent-continuations/testing';
import { continuable, getToolContext, agentTool as vercelAgentTool } from '@agent-continuations/vercel-ai';
import { createOpenAI } from '@ai-sdk/openai';
import { tool as langchainTool, type StructuredToolInterface } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { Agent, type Tool as AgentsTool, tool as agentsTool, OpenAIProvider } from '@openai/agents';
import { tool as sdkTool, type Tool, ToolLoopAgent } from 'ai';
import { createAgent as createLangChainAgent } from 'langchain';
import OpenAI from 'openai';

/** The five ways an agent is built here. */
export const FRAMEWORKS = [
  'openai-chat',
  'openai-responses',
  'vercel-ai',
  'langgraph',
  'openai-agents',
] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** An agent, described once for every framework. */
export interface AgentSpec {
  /** The agent's name: a handoff needs the same name on both sides. */
  name: string;
  /** The model name on the scripted server, which picks the script. */
  model: string;
  instructions: string;
  tools: readonly ConformanceTool[];
}

/** Build `spec` as an agent of `framework`, talking to the scripted server at `baseURL`. */
export function buildAgent(
  framework: Framework,
  spec: AgentSpec,
  baseURL: string,
): ContinuableAgent<string, string> {
  switch (framework) {
    case 'openai-chat':
    case 'openai-responses':
      return createAgent({
        client: new OpenAI({ baseURL, apiKey: 'test', maxRetries: 0 }),
        model: spec.model,
        name: spec.name,
        instructions: spec.instructions,
        api: framework === 'openai-chat' ? 'chat' : 'responses',
        tools: spec.tools.map(openaiToolOf),
      });
    case 'vercel-ai': {
      const provider = createOpenAI({ baseURL, apiKey: 'test' });
      const agent = new ToolLoopAgent({
        model: provider.responses(spec.model),
        instructions: spec.instructions,
        tools: Object.fromEntries(spec.tools.map((one) => [one.name, vercelToolOf(one)])),
        maxRetries: 0,
      });
      return continuable(agent, { name: spec.name }) as ContinuableAgent<string, string>;
    }
    case 'langgraph': {
      const model = new ChatOpenAI({
        model: spec.model,
        apiKey: 'test',
        maxRetries: 0,
        configuration: { baseURL },
      });
      const graph = createLangChainAgent({
        model,
        tools: spec.tools.map(langchainToolOf),
        systemPrompt: spec.instructions,
      });
      return fromGraph(graph, { name: spec.name });
    }
    case 'openai-agents': {
      const agent = new Agent({
        name: spec.name,
        instructions: spec.instructions,
        model: spec.model,
        tools: spec.tools.map(agentsToolOf),
      });
      const modelProvider = new OpenAIProvider({ baseURL, apiKey: 'test' });
      return continuableAgent(agent, { modelProvider }) as ContinuableAgent<string, string>;
    }
  }
}

/** The continuation's `agent.framework` of a framework built here. */
export function frameworkName(framework: Framework): string {
  return framework === 'openai-chat' || framework === 'openai-responses' ? 'openai' : framework;
}

function openaiToolOf(spec: ConformanceTool) {
  if (spec.kind === 'agent')
    return openaiAgentTool(spec.agent, { name: spec.name, description: spec.description });
  if (spec.kind === 'human')
    return humanTool({
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      response: spec.response,
    });
  return openaiTool({
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    ...(spec.needsApproval === undefined ? {} : { needsApproval: spec.needsApproval }),
    execute: (args, ctx) => spec.execute(args, ctx),
  });
}

function vercelToolOf(spec: ConformanceTool): Tool {
  if (spec.kind === 'agent') return vercelAgentTool(spec.agent, { description: spec.description });
  if (spec.kind === 'human')
    return sdkTool({
      description: spec.description,
      inputSchema: spec.parameters,
      outputSchema: spec.response,
    });
  return sdkTool({
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

function langchainToolOf(spec: ConformanceTool): StructuredToolInterface {
  if (spec.kind === 'agent')
    return graphAgentTool(spec.agent, { name: spec.name, description: spec.description });
  if (spec.kind === 'human')
    return graphHumanTool({
      name: spec.name,
      description: spec.description,
      schema: spec.parameters,
      response: spec.response,
    });
  const made = langchainTool(
    async (args: unknown, config) =>
      spec.execute(args, {
        requestInput: async (request) => requestInput(request, config),
        idempotencyKey: graphToolContext(config).idempotencyKey,
      }),
    { name: spec.name, description: spec.description, schema: spec.parameters },
  ) as unknown as StructuredToolInterface;
  if (!spec.needsApproval) return made;
  const rule = spec.needsApproval;
  return requireApproval([made], rule === true ? true : ({ args }) => rule(args as JsonValue))[0]!;
}

function agentsToolOf(spec: ConformanceTool): AgentsTool {
  if (spec.kind === 'agent')
    return agentsAgentTool(spec.agent, { name: spec.name, description: spec.description });
  if (spec.kind === 'human')
    return agentsHumanTool({
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      response: spec.response,
    });
  const rule = spec.needsApproval;
  return agentsTool({
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    ...(rule === undefined
      ? {}
      : { needsApproval: typeof rule === 'boolean' ? rule : async (_context, args) => rule(args) }),
    execute: (args, runContext) => spec.execute(args, continuationContext(runContext)!),
  });
}
