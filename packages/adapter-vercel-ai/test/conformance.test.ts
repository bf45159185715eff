import { runConformanceSuite } from '@agent-continuations/testing';
import { ToolLoopAgent } from 'ai';
import { continuable } from '../src/index';
import { sdkTools, specOptions, streamed } from './support/harness';
import { scriptedLanguageModel } from './support/scripted-language-model';

runConformanceSuite({
  name: 'vercel-ai: ToolLoopAgent with the SDK mock model',
  createAgent: (spec) =>
    continuable(
      new ToolLoopAgent({
        model: scriptedLanguageModel(spec.script),
        instructions: spec.instructions,
        tools: sdkTools(spec.tools),
      }),
      specOptions(spec),
    ),
});

runConformanceSuite({
  name: 'vercel-ai: generateText settings, streamed model steps',
  createAgent: (spec) => {
    const agent = continuable(
      { model: scriptedLanguageModel(spec.script), system: spec.instructions, tools: sdkTools(spec.tools) },
      specOptions(spec),
    );
    // Every run and resume goes through stream(), so the streamText path meets the same scenarios.
    return streamed(agent);
  },
});
