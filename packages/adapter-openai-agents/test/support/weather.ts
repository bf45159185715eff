/**
 * The SDK's own human-in-the-loop example (`examples/agent-patterns/human-in-the-loop.ts` of
 * openai-agents-js): a main agent with a `get_temperature` tool that needs approval for Oakland,
 * and a weather agent as a tool (`asTool`) that needs approval when its input names San Francisco.
 * Built natively, or with the sub-agent's `asTool` made through `continuable(weatherAgent)`; every
 * model is the SDK's own OpenAI model on the scripted server.
 */
import { lastToolResults, type Script, type ScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
import { continuable } from '../../src/index';
import { sdkModel } from '../harness';

export const PROMPT =
  'What is the weather and temperature in San Francisco and Oakland? Use available tools as needed.';

const mainScript: Script = [
  {
    text: 'Checking both.',
    toolCalls: [
      { name: 'get_temperature', args: { city: 'Oakland' } },
      { name: 'ask_weather_agent', args: { input: 'Weather in San Francisco' } },
    ],
  },
  (request) =>
    `Here you go: ${lastToolResults(request.messages)
      .map((result) => String(result.output))
      .join(' / ')}`,
];
const weatherScript: Script = [
  { toolCalls: [{ name: 'get_weather', args: { city: 'San Francisco' } }] },
  (request) => `Sunny: ${String(lastToolResults(request.messages)[0]?.output)}`,
];

export type Ran = { get_weather?: number; get_temperature?: number };

/** The example's agents; `models` prefixes the model names so runs can be told apart on the server. */
export function weatherExample(options: {
  api: 'chat' | 'responses';
  server: ScriptedOpenAIServer;
  ran: Ran;
  models: string;
  wrapSubAgent: boolean;
}) {
  const { api, server, ran, models } = options;
  server.setScript(`${models}-main`, mainScript);
  server.setScript(`${models}-weather`, weatherScript);
  const getWeatherTool = tool({
    name: 'get_weather',
    description: 'Get the weather for a given city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      ran.get_weather = (ran.get_weather ?? 0) + 1;
      return `The weather in ${city} is sunny`;
    },
  });
  const weatherAgent = new Agent({
    name: 'Weather agent',
    instructions: 'You provide concise weather information based on the input.',
    handoffDescription: 'Handles weather-related queries',
    model: sdkModel(api, server, `${models}-weather`),
    tools: [getWeatherTool],
  });
  const getTemperatureTool = tool({
    name: 'get_temperature',
    description: 'Get the temperature for a given city',
    parameters: z.object({ city: z.string() }),
    needsApproval: async (_ctx, { city }) => city.includes('Oakland'),
    execute: async ({ city }) => {
      ran.get_temperature = (ran.get_temperature ?? 0) + 1;
      return `The temperature in ${city} is 20° Celsius`;
    },
  });
  const asToolOptions = {
    toolName: 'ask_weather_agent',
    toolDescription: 'Ask the weather agent about a location. Pass a short input string.',
    needsApproval: async (_ctx: unknown, { input }: { input: string }) => input.includes('San Francisco'),
  };
  return new Agent({
    name: 'Basic test agent',
    instructions:
      'You are a basic agent. For weather questions, use the weather agent tool with an appropriate input string and then answer.',
    model: sdkModel(api, server, `${models}-main`),
    tools: [
      getTemperatureTool,
      options.wrapSubAgent
        ? continuable(weatherAgent).asTool(asToolOptions)
        : weatherAgent.asTool(asToolOptions),
    ],
  });
}
