/**
 * One schema object per tool input schema, shared by the tools the model port gives the SDK and
 * the engine's tools: the SDK then turns a zod schema into JSON Schema once per agent, not once
 * per step, and the arguments it validated are known to have passed the engine's own validator.
 */
import { asSchema, type FlexibleSchema, jsonSchema, type Schema } from 'ai';

const shared = new WeakMap<object, Schema<unknown>>();

/** The schema object for a tool's `inputSchema`, the same each time for the same one. */
export function inputSchemaOf(inputSchema: FlexibleSchema<unknown> | undefined): Schema<unknown> {
  if (typeof inputSchema !== 'object' && typeof inputSchema !== 'function') return asSchema(inputSchema);
  let schema = shared.get(inputSchema);
  if (!schema) {
    schema = asSchema(inputSchema);
    shared.set(inputSchema, schema);
  }
  return schema;
}

/**
 * What the SDK validated in a model call: each value a validation gave (an object) with the
 * input it was given.
 */
export type Accepted = WeakMap<object, unknown>;

/**
 * `schema` as the model port hands it to the SDK: the same JSON Schema and validator, noting in
 * `accepted` each input the validator accepted, by the value it gave.
 */
export function notingSchema(schema: Schema<unknown>, accepted: Accepted): Schema<unknown> {
  const validate = schema.validate;
  return jsonSchema(() => schema.jsonSchema, {
    ...(validate
      ? {
          validate: async (value: unknown) => {
            const result = await validate(value);
            if (result.success && typeof result.value === 'object' && result.value !== null)
              accepted.set(result.value, value);
            return result;
          },
        }
      : {}),
  });
}
