/**
 * The schema of the `data-continuation` part a suspended run's UI stream ends with, for the
 * `dataSchemas` an app hands `validateUIMessages`: with schemas for some data parts, the SDK
 * refuses a data part it has none for. (Under ai@7, `createAgentUIStreamResponse` carries the
 * continuation as a `custom` part instead, which `dataSchemas` do not cover.)
 */
import { jsonSchema, type Schema } from 'ai';
import type { ContinuationData } from './ui-stream';

const ACTION_KINDS = ['approval', 'input'];

/**
 * Validates the `continuation` data part ({@link ContinuationData}): its ids, and each action's
 * id, kind and path. What a browser sent back is only read against the stored continuation, so
 * this checks its shape, not that it is true.
 *
 * @example
 * ```ts
 * const messages = await validateUIMessages({
 *   messages: body.messages,
 *   dataSchemas: { weather: weatherSchema, continuation: continuationDataSchema },
 * });
 * ```
 */
export const continuationDataSchema: Schema<ContinuationData> = jsonSchema<ContinuationData>(
  {
    type: 'object',
    properties: {
      id: { type: 'string' },
      runId: { type: 'string' },
      actions: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            kind: { type: 'string', enum: ACTION_KINDS },
            path: { type: 'array' },
          },
          required: ['id', 'kind', 'path'],
        },
      },
      continuation: { type: 'string' },
    },
    required: ['id', 'runId', 'actions'],
  },
  {
    validate: (value) => {
      const problem = problemOf(value);
      return problem === undefined
        ? { success: true, value: value as ContinuationData }
        : { success: false, error: new Error(`Not a continuation data part: ${problem}.`) };
    },
  },
);

function problemOf(value: unknown): string | undefined {
  if (!isObject(value)) return 'it is not an object';
  if (typeof value.id !== 'string') return 'id is not a string';
  if (typeof value.runId !== 'string') return 'runId is not a string';
  if (value.continuation !== undefined && typeof value.continuation !== 'string')
    return 'continuation is not a string';
  if (!Array.isArray(value.actions)) return 'actions is not an array';
  for (const [index, action] of value.actions.entries()) {
    if (
      !isObject(action) ||
      typeof action.id !== 'string' ||
      !ACTION_KINDS.includes(action.kind as string) ||
      !Array.isArray(action.path)
    ) {
      return `actions[${index}] is not an action (id, kind, path)`;
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
