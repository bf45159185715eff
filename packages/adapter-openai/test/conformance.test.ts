import {
  runConformanceSuite,
  type ScriptedOpenAIServer,
  startScriptedOpenAIServer,
} from '@agent-continuations/testing';
import { afterAll, beforeAll } from 'vitest';
import { openaiHarness } from './harness';

let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ scripts: {} });
});
afterAll(async () => {
  await server.close();
});

runConformanceSuite(openaiHarness('chat', () => server));
runConformanceSuite(openaiHarness('responses', () => server));
