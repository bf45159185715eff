/**
 * A LangChain tool as the core sees it, so decisions can be checked before anything runs: edited
 * arguments against its schema, answers against a human tool's response schema, sub-agents.
 */
import { type ToolDefinition, zodValidator } from '@agent-continuations/core';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { z } from 'zod';
import { agentOf, responseOf } from './tools';

/** A LangChain tool as the core sees it, to check decisions (edited arguments, sub-agents). */
export function toolDefinition(lc: { name: string; description?: string; schema?: unknown }): ToolDefinition {
  const schema = lc.schema as z.ZodType | Record<string, unknown> | undefined;
  const isZod = typeof (schema as { safeParse?: unknown } | undefined)?.safeParse === 'function';
  let inputSchema: Record<string, unknown> = {};
  try {
    inputSchema = schema ? (toJsonSchema(schema as never) as Record<string, unknown>) : {};
  } catch {
    inputSchema = {};
  }
  const agent = agentOf(lc);
  const response = responseOf(lc);
  return {
    name: lc.name,
    ...(lc.description ? { description: lc.description } : {}),
    inputSchema,
    ...(isZod ? { validate: zodValidator(schema as z.ZodType) } : {}),
    // A human tool has no execute for the core: its answers are checked against `response`.
    ...(response
      ? { validateResponse: zodValidator(response) as ToolDefinition['validateResponse'] }
      : { execute: () => undefined }),
    ...(agent ? { agent } : {}),
  };
}
