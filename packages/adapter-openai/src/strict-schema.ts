/**
 * The strict JSON Schema of a zod tool, made by the SDK's own zod helper (`zodFunction`). That
 * helper loads zod's JSON Schema converter and the SDK's parsers, tens of milliseconds of a cold
 * start, so it is loaded at the first strict tool rather than with the adapter. `tool()` is
 * synchronous, hence `require`, of the build of `openai` the app has loaded: its CommonJS build
 * if the app required `openai`, else its ES module (which shares the app's `openai` and `zod`),
 * or the CommonJS build on a Node that cannot `require` ES modules (before 20.19).
 */
import { createRequire } from 'node:module';
import type { JsonSchema } from '@agent-continuations/core';

type ZodHelper = typeof import('openai/helpers/zod');

let helper: ZodHelper | undefined;

/**
 * The schema `zodFunction({ name, parameters, description })` sends for a zod schema.
 *
 * @example
 * ```ts
 * const schema = strictSchema({ name: 'lookup', parameters: z.object({ id: z.string() }) });
 * ```
 */
export function strictSchema(options: {
  name: string;
  parameters: unknown;
  description?: string;
}): JsonSchema {
  helper ??= loadHelper();
  const sdkTool = helper.zodFunction({
    name: options.name,
    parameters: options.parameters as never,
    ...(options.description === undefined ? {} : { description: options.description }),
  });
  return sdkTool.function.parameters as JsonSchema;
}

function loadHelper(): ZodHelper {
  const load = createRequire(import.meta.url);
  if (load.cache[load.resolve('openai')]) return load('openai/helpers/zod') as ZodHelper;
  try {
    return load('openai/helpers/zod.mjs') as ZodHelper;
  } catch {
    return load('openai/helpers/zod') as ZodHelper;
  }
}
