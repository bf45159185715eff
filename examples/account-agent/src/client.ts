/**
 * The OpenAI client the demo uses: a real endpoint when OPENAI_API_KEY is set (OPENAI_BASE_URL for
 * any OpenAI-compatible server, OPENAI_MODEL for the model), else a local scripted server.
 */
import { startScriptedOpenAIServer } from '@agent-continuations/testing/runtime';
import OpenAI from 'openai';
import { accountScript, SCRIPTED_MODEL } from './script';

export interface DemoClient {
  client: OpenAI;
  model: string;
  /** Where the model runs, for the log. */
  label: string;
  close(): Promise<void>;
}

export async function demoClient(): Promise<DemoClient> {
  if (process.env.OPENAI_API_KEY) {
    const baseURL = process.env.OPENAI_BASE_URL;
    const model = process.env.OPENAI_MODEL ?? 'gpt-4.1-mini';
    return {
      client: new OpenAI({ apiKey: process.env.OPENAI_API_KEY, ...(baseURL ? { baseURL } : {}) }),
      model,
      label: `${model} at ${baseURL ?? 'api.openai.com'}`,
      close: async () => {},
    };
  }
  const server = await startScriptedOpenAIServer({ scripts: { [SCRIPTED_MODEL]: accountScript } });
  return {
    client: new OpenAI({ apiKey: 'scripted', baseURL: server.baseURL }),
    model: SCRIPTED_MODEL,
    label: `the scripted server at ${server.baseURL}`,
    close: () => server.close(),
  };
}
