import {
  runConformanceSuite,
  type ScriptedOpenAIServer,
  startScriptedOpenAIServer,
} from '@agent-continuations/testing';
import { afterAll, beforeAll } from 'vitest';
import { agentsHarness } from './harness';

let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ scripts: {} });
});
afterAll(async () => {
  await server.close();
});

runConformanceSuite(agentsHarness('chat', () => server));
runConformanceSuite(agentsHarness('responses', () => server));
