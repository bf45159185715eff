import { runConformanceSuite, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { agentsHarness } from './harness';

const server = setupScriptedOpenAIServer({ scripts: {} });

runConformanceSuite(agentsHarness('chat', () => server));
runConformanceSuite(agentsHarness('responses', () => server));
