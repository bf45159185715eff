/**
 * The core engine as a {@link ConformanceHarness}: agents from `createContinuableAgent` over the
 * scripted model, optionally sealed. The simulation's CLI and the core's simulation test use it.
 */
import {
  agentTool,
  createContinuableAgent,
  type SealConfig,
  type ToolDefinition,
  zodJsonSchema,
  zodValidator,
} from '@agent-continuations/core';
import type { ConformanceHarness, ConformanceTool } from '../conformance-harness';
import { scriptedModel } from '../scripted-model';

/**
 * A harness building core engine agents, sealed with `seal` when given.
 *
 * @example
 * ```ts
 * const summary = await runSimulation({ harness: engineHarness(), sealedHarness: engineHarness({ secret }), seed: 1, runs: 100 });
 * ```
 */
export function engineHarness(seal?: SealConfig): ConformanceHarness {
  return {
    name: seal ? 'core engine (sealed)' : 'core engine',
    createAgent: (spec) =>
      createContinuableAgent({
        name: spec.name,
        instructions: spec.instructions,
        model: scriptedModel(spec.script),
        tools: spec.tools.map(engineTool),
        ...(spec.suspendWhen ? { suspendWhen: spec.suspendWhen } : {}),
        ...(spec.onReject ? { onReject: spec.onReject } : {}),
        ...(seal ? { seal } : {}),
      }),
  };
}

/** JSON Schemas and validators per zod schema: the simulation builds the same tools many times. */
const schemas = new WeakMap<
  object,
  { inputSchema: ToolDefinition['inputSchema']; validate: ToolDefinition['validate'] }
>();

function checked(parameters: Parameters<typeof zodJsonSchema>[0]) {
  let entry = schemas.get(parameters);
  if (!entry) {
    entry = { inputSchema: zodJsonSchema(parameters), validate: zodValidator(parameters) };
    schemas.set(parameters, entry);
  }
  return entry;
}

function engineTool(tool: ConformanceTool): ToolDefinition {
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
        ...checked(tool.parameters),
        ...(tool.needsApproval === undefined ? {} : { needsApproval: tool.needsApproval }),
        ...(tool.idempotent === undefined ? {} : { idempotent: tool.idempotent }),
        execute: (args, ctx) => tool.execute(args, ctx),
      };
  }
}
