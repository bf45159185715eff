import { runConformanceSuite, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { openaiHarness } from './harness';

const server = setupScriptedOpenAIServer({ scripts: {} });

runConformanceSuite(openaiHarness('chat', () => server));
runConformanceSuite(openaiHarness('responses', () => server));
