/** The zod schemas of JSON values, as the continuation format and the decisions use them. */
import { z } from 'zod';
import type { JsonObject, JsonValue } from '../format/json';

/** Zod schema for {@link JsonValue}: finite numbers, plain arrays and objects only. */
export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().refine(Number.isFinite, 'must be a finite number'),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
);

/** Zod schema for {@link JsonObject}. */
export const jsonObjectSchema: z.ZodType<JsonObject> = z.record(z.string(), jsonValueSchema);
