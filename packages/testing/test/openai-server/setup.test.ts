import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { setupScriptedOpenAIServer } from '../../src/index';

const ask = (baseURL: string, model: string) =>
  new OpenAI({ baseURL, apiKey: 'test', maxRetries: 0 }).chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'Hi' }],
  });

describe('setupScriptedOpenAIServer', () => {
  const server = setupScriptedOpenAIServer({ scripts: { greeter: ['Hello.'] } });

  it('reads through to the running server: its URL, scripts and requests', async () => {
    expect(server.baseURL).toBe(`${server.url}/v1`);
    const reply = await ask(server.baseURL, 'greeter');
    expect(reply.choices[0]!.message.content).toBe('Hello.');
    server.setScript('other', ['From the other script.']);
    expect((await ask(server.baseURL, 'other')).choices[0]!.message.content).toBe('From the other script.');
    expect(server.requests.map((request) => request.model)).toEqual(['greeter', 'other']);
  });

  it('closes once: a test that closes it leaves nothing for afterAll to fail on', async () => {
    const { baseURL } = server;
    await server.close();
    await server.close();
    await expect(ask(baseURL, 'greeter')).rejects.toThrow();
  });
});

describe('setupScriptedOpenAIServer before its beforeAll', () => {
  const server = setupScriptedOpenAIServer({ scripts: {} });
  const early = (() => {
    try {
      return server.baseURL;
    } catch (error) {
      return error;
    }
  })();

  it('throws a readable error', () => {
    expect(String(early)).toContain('starts in beforeAll');
  });
});
