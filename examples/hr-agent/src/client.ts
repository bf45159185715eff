/**
 * The OpenAI client the demo uses: a real endpoint when OPENAI_API_KEY is set (OPENAI_BASE_URL for
 * any OpenAI-compatible server, OPENAI_MODEL for the model of all three agents), else a local
 * scripted server.
 */
import { startScriptedOpenAIServer } from '@agent-continuations/testing/runtime';
import OpenAI from 'openai';
import { hrScripts, SCRIPTED_MODELS } from './scripts';

/** The client and the model name of each agent. */
export interface HrModels {
  client: OpenAI;
  models: { hr: string; payroll: string; benefits: string };
  close(): Promise<void>;
}

export async function demoClient(): Promise<HrModels> {
  if (process.env.OPENAI_API_KEY) {
    const model = process.env.OPENAI_MODEL ?? 'gpt-4.1-mini';
    const baseURL = process.env.OPENAI_BASE_URL;
    return {
      client: new OpenAI({ apiKey: process.env.OPENAI_API_KEY, ...(baseURL ? { baseURL } : {}) }),
      models: { hr: model, payroll: model, benefits: model },
      close: async () => {},
    };
  }
  const server = await startScriptedOpenAIServer({ scripts: hrScripts });
  return {
    client: new OpenAI({ apiKey: 'scripted', baseURL: server.baseURL }),
    models: SCRIPTED_MODELS,
    close: () => server.close(),
  };
}
