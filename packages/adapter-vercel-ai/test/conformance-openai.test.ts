/**
 * The conformance suite through the real `@ai-sdk/openai` provider, speaking HTTP to the shared
 * scripted OpenAI-compatible server: chat completions and the responses API.
 */
import { runConformanceSuite, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { createOpenAI } from '@ai-sdk/openai';
import { ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { continuable } from '../src/index';
import { sdkTools, specOptions, streamed } from './support/harness';

const server = setupScriptedOpenAIServer({ scripts: {} });

const provider = () => createOpenAI({ baseURL: server.baseURL, apiKey: 'test' });

for (const api of ['chat', 'responses'] as const) {
  describe(api, () => {
    runConformanceSuite({
      name: `vercel-ai: ToolLoopAgent over @ai-sdk/openai (${api}) and HTTP`,
      createAgent(spec) {
        server.setScript(spec.name, spec.script);
        const model = api === 'chat' ? provider().chat(spec.name) : provider().responses(spec.name);
        return continuable(
          new ToolLoopAgent({
            model,
            instructions: spec.instructions,
            tools: sdkTools(spec.tools),
            maxRetries: 0,
          }),
          specOptions(spec),
        );
      },
    });
  });
}

describe('chat, streamed', () => {
  runConformanceSuite({
    name: 'vercel-ai: streamed steps over @ai-sdk/openai (chat, server-sent events)',
    createAgent(spec) {
      server.setScript(spec.name, spec.script);
      const agent = continuable(
        {
          model: provider().chat(spec.name),
          system: spec.instructions,
          tools: sdkTools(spec.tools),
          maxRetries: 0,
        },
        specOptions(spec),
      );
      return streamed(agent);
    },
  });
});

it('sent the model calls over HTTP, tools included, on both APIs, streamed and not', () => {
  const sse = server.requests.filter((request) => request.path === '/v1/chat/completions' && request.stream);
  expect(sse.length).toBeGreaterThan(40);
  for (const path of ['/v1/chat/completions', '/v1/responses']) {
    const requests = server.requests.filter((request) => request.path === path);
    expect(requests.length).toBeGreaterThan(40);
    // Only the scenarios' deliberate model failures (a script that throws) answer with an error.
    const failed = requests.filter((request) => request.status !== 200);
    expect(failed.every((request) => request.status === 400 && request.modelRequest !== undefined)).toBe(
      true,
    );
    expect(failed.length).toBeLessThan(requests.length / 10);
    expect(JSON.stringify(requests.map((request) => request.body?.tools))).toContain('"transfer"');
  }
});
