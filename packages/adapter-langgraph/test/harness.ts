/**
 * Builds LangGraph agents of each wrapped kind from the conformance suite's neutral specs: a
 * custom StateGraph (model node, a ToolNode fed one Send per call), createReactAgent v2, and
 * langchain's createAgent. The model is a ScriptedChatModel, or any chat model given.
 */
import type { ModelRequest } from '@agent-continuations/core';
import type { ConformanceAgentSpec, ConformanceHarness, ConformanceTool } from '@agent-continuations/testing';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, SystemMessage } from '@langchain/core/messages';
import { type StructuredToolInterface, tool } from '@langchain/core/tools';
import {
  type BaseCheckpointSaver,
  END,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { createReactAgent, ToolNode } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { agentTool, fromGraph, getToolContext, humanTool, requestInput, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

export type GraphKind = 'custom' | 'react' | 'create-agent';

/** LangChain tools from neutral conformance tools. */
export function conformanceTools(tools: readonly ConformanceTool[]): StructuredToolInterface[] {
  return tools.map((spec) => {
    if (spec.kind === 'agent')
      return agentTool(spec.agent, { name: spec.name, description: spec.description });
    if (spec.kind === 'human') {
      return humanTool({
        name: spec.name,
        description: spec.description,
        schema: spec.parameters,
        response: spec.response,
      });
    }
    const made = tool(
      async (args: unknown, config) =>
        spec.execute(args, {
          requestInput: async (request) => requestInput(request, config),
          idempotencyKey: getToolContext(config).idempotencyKey,
        }),
      { name: spec.name, description: spec.description, schema: spec.parameters },
    ) as unknown as StructuredToolInterface;
    if (!spec.needsApproval) return made;
    const rule = spec.needsApproval;
    return requireApproval([made], rule === true ? true : ({ args }) => rule(args))[0]!;
  });
}

/** A compiled graph of `kind` around `llm` and `tools`. */
export function buildGraph(
  kind: GraphKind,
  llm: BaseChatModel,
  tools: StructuredToolInterface[],
  instructions: string,
) {
  if (kind === 'react') return createReactAgent({ llm, tools, prompt: instructions, version: 'v2' });
  if (kind === 'create-agent') return createAgent({ model: llm, tools, systemPrompt: instructions });
  const bound = llm.bindTools!(tools);
  return new StateGraph(MessagesAnnotation)
    .addNode('model', async (state) => ({
      messages: [await bound.invoke([new SystemMessage(instructions), ...state.messages])],
    }))
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'model')
    .addConditionalEdges(
      'model',
      (state) => {
        const last = state.messages.at(-1);
        const calls = last && AIMessage.isInstance(last) ? (last.tool_calls ?? []) : [];
        if (calls.length === 0) return END;
        return calls.map((call) => new Send('tools', { ...state, lg_tool_call: call }));
      },
      ['tools', END],
    )
    .addEdge('tools', 'model')
    .compile();
}

/**
 * A conformance harness for one graph kind, over the scripted chat model; with `checkpointer`,
 * every agent runs in thread mode on it.
 */
export function graphHarness(
  kind: GraphKind,
  requests: ModelRequest[] = [],
  checkpointer?: BaseCheckpointSaver,
): ConformanceHarness {
  return {
    name: `langgraph (${kind}${checkpointer ? ', thread mode' : ''})`,
    createAgent(spec: ConformanceAgentSpec) {
      const llm = new ScriptedChatModel(spec.script, [], requests);
      const graph = buildGraph(kind, llm, conformanceTools(spec.tools), spec.instructions);
      return fromGraph(graph, {
        name: spec.name,
        instructions: spec.instructions,
        ...(spec.seal ? { seal: spec.seal } : {}),
        ...(spec.suspendWhen ? { suspendWhen: spec.suspendWhen } : {}),
        ...(spec.onReject ? { onReject: spec.onReject } : {}),
        ...(checkpointer ? { checkpointer } : {}),
      });
    },
  };
}
