/**
 * The conformance suite through `ChatOpenAI` from @langchain/openai, speaking HTTP to the shared
 * scripted OpenAI-compatible server: each agent's name is its model name there.
 */
import { runConformanceSuite, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { ChatOpenAI } from '@langchain/openai';
import { expect, it } from 'vitest';
import { fromGraph } from '../src';
import { buildGraph, conformanceTools } from './harness';

const server = setupScriptedOpenAIServer({ scripts: {} });

for (const kind of ['react', 'create-agent'] as const) {
  runConformanceSuite({
    name: `langgraph (${kind} over ChatOpenAI and HTTP)`,
    createAgent(spec) {
      server.setScript(spec.name, spec.script);
      const llm = new ChatOpenAI({
        model: spec.name,
        apiKey: 'test',
        maxRetries: 0,
        configuration: { baseURL: server.baseURL },
      });
      const graph = buildGraph(kind, llm, conformanceTools(spec.tools), spec.instructions);
      return fromGraph(graph, {
        name: spec.name,
        instructions: spec.instructions,
        ...(spec.seal ? { seal: spec.seal } : {}),
        ...(spec.suspendWhen ? { suspendWhen: spec.suspendWhen } : {}),
        ...(spec.onReject ? { onReject: spec.onReject } : {}),
      });
    },
  });
}

it('sent the model calls over HTTP as chat completions, tools included', () => {
  const chat = server.requests.filter((request) => request.path === '/v1/chat/completions');
  expect(chat.length).toBeGreaterThan(80);
  expect(
    chat.some((request) =>
      request.body?.tools?.some((t: { function?: { name?: string } }) => t.function?.name === 'transfer'),
    ),
  ).toBe(true);
});
