/**
 * Where the model runs: a real OpenAI endpoint when OPENAI_API_KEY is set (OPENAI_BASE_URL for any
 * compatible server, OPENAI_MODEL for the model), else a local scripted OpenAI-compatible server
 * that decides from the transcript alone, so either process can go on where the other stopped.
 */
import {
  lastToolResults,
  type Script,
  startScriptedOpenAIServer,
} from '@agent-continuations/testing/runtime';
import { OpenAIProvider } from '@openai/agents';

const DESK_MODEL = 'support-desk';

const deskScript: Script = [
  { text: 'Let me get billing for you.', toolCalls: [{ name: 'transfer_to_billing', args: {} }] },
  { toolCalls: [{ name: 'refund', args: { orderId: 'O-1001', amount: 49 } }] },
  (request) => `Refund done: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}.`,
];

/** The SDK's model provider for both processes, and the model name. */
export interface Endpoint {
  modelProvider: OpenAIProvider;
  model: string;
  close(): Promise<void>;
}

export async function endpoint(): Promise<Endpoint> {
  if (process.env.OPENAI_API_KEY) {
    return {
      modelProvider: new OpenAIProvider({
        apiKey: process.env.OPENAI_API_KEY,
        ...(process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : {}),
      }),
      model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
      close: async () => {},
    };
  }
  const server = await startScriptedOpenAIServer({ scripts: { [DESK_MODEL]: deskScript } });
  return {
    modelProvider: new OpenAIProvider({ baseURL: server.baseURL, apiKey: 'scripted' }),
    model: DESK_MODEL,
    close: () => server.close(),
  };
}
