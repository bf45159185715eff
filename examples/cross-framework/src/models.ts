/**
 * Where the model runs: a real OpenAI endpoint when OPENAI_API_KEY is set (OPENAI_BASE_URL for any
 * compatible server, OPENAI_MODEL for the model), else a local scripted OpenAI-compatible server.
 */
import { startScriptedOpenAIServer } from '@agent-continuations/testing/runtime';
import { TRIAGE_MODEL, triageScript } from './scripts';

/** The endpoint and model both workers use. */
export interface Endpoint {
  baseURL: string | undefined;
  apiKey: string;
  model: string;
  close(): Promise<void>;
}

export async function endpoint(): Promise<Endpoint> {
  if (process.env.OPENAI_API_KEY) {
    return {
      baseURL: process.env.OPENAI_BASE_URL || undefined,
      apiKey: process.env.OPENAI_API_KEY,
      model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
      close: async () => {},
    };
  }
  const server = await startScriptedOpenAIServer({ scripts: { [TRIAGE_MODEL]: triageScript } });
  return { baseURL: server.baseURL, apiKey: 'scripted', model: TRIAGE_MODEL, close: () => server.close() };
}
