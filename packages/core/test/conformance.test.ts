import {
  agentTool,
  createContinuableAgent,
  type ToolDefinition,
  zodJsonSchema,
  zodValidator,
} from '@agent-continuations/core';
import { type ConformanceTool, runConformanceSuite, scriptedModel } from '@agent-continuations/testing';

function toEngineTool(tool: ConformanceTool): ToolDefinition {
  switch (tool.kind) {
    case 'agent':
      return agentTool(tool.agent, { name: tool.name, description: tool.description });
    case 'human':
      return {
        name: tool.name,
        description: tool.description,
        inputSchema: zodJsonSchema(tool.parameters),
        validate: zodValidator(tool.parameters),
        validateResponse: zodValidator(tool.response) as ToolDefinition['validateResponse'],
      };
    case 'function':
      return {
        name: tool.name,
        description: tool.description,
        inputSchema: zodJsonSchema(tool.parameters),
        validate: zodValidator(tool.parameters),
        ...(tool.needsApproval === undefined ? {} : { needsApproval: tool.needsApproval }),
        execute: (args, ctx) => tool.execute(args, ctx),
      };
  }
}

runConformanceSuite({
  name: 'core engine with the scripted model',
  createAgent: (spec) =>
    createContinuableAgent({
      name: spec.name,
      instructions: spec.instructions,
      model: scriptedModel(spec.script),
      tools: spec.tools.map(toEngineTool),
      ...(spec.suspendWhen ? { suspendWhen: spec.suspendWhen } : {}),
      ...(spec.onReject ? { onReject: spec.onReject } : {}),
      ...(spec.seal ? { seal: spec.seal } : {}),
    }),
});
