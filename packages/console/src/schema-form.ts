/**
 * Forms from a tool's JSON Schema: the supported subset (an object of string, number, integer,
 * boolean and enum properties) becomes one input per property with the browser's own validation
 * attributes; anything else is edited as JSON. The same subset is re-checked on the server.
 */
import type { JsonObject, JsonSchema, JsonValue } from '@agent-continuations/core';

/** One generated input, for one top-level property of the arguments. */
export interface FieldSpec {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
  enumValues?: JsonValue[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** The property's schema, for re-validation of `json` fields. */
  schema: JsonSchema;
}

/**
 * The fields of a generated form for `schema`, or undefined when the schema is not an object of
 * properties (the arguments are then edited as one JSON text).
 */
export function formFields(schema: JsonSchema | undefined): FieldSpec[] | undefined {
  if (schema?.type !== 'object' || !isRecord(schema.properties)) return undefined;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields: FieldSpec[] = [];
  for (const [name, raw] of Object.entries(schema.properties)) {
    const property = isRecord(raw) ? raw : {};
    const field: FieldSpec = {
      name,
      label: typeof property.title === 'string' && property.title ? property.title : name,
      required: required.has(name),
      type: fieldType(property),
      schema: property,
    };
    if (typeof property.description === 'string') field.description = property.description;
    if (field.type === 'enum') field.enumValues = property.enum as JsonValue[];
    for (const key of [
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'minLength',
      'maxLength',
    ] as const) {
      if (typeof property[key] === 'number') field[key] = property[key] as number;
    }
    if (typeof property.pattern === 'string') field.pattern = property.pattern;
    fields.push(field);
  }
  return fields;
}

function fieldType(property: Record<string, unknown>): FieldSpec['type'] {
  if (Array.isArray(property.enum) && property.enum.length > 0) {
    return property.enum.every((value) => typeof value === 'string' || typeof value === 'number')
      ? 'enum'
      : 'json';
  }
  if (property.type === 'string' || property.type === 'number' || property.type === 'integer') {
    return property.type;
  }
  if (property.type === 'boolean') return 'boolean';
  return 'json';
}

/** The arguments a submitted form describes: one value per field, parsed by its type. */
export function argsFromForm(
  fields: FieldSpec[],
  read: (name: string) => string | undefined,
  original: JsonValue,
): { args: JsonObject; errors: string[] } {
  const args: JsonObject = isRecord(original) ? { ...(original as JsonObject) } : {};
  const errors: string[] = [];
  for (const field of fields) {
    const text = read(field.name);
    if (field.type === 'boolean') {
      args[field.name] = text === 'true' || text === 'on';
      continue;
    }
    if (text === undefined || text === '') {
      delete args[field.name];
      continue;
    }
    if (field.type === 'string') args[field.name] = text;
    else if (field.type === 'number' || field.type === 'integer') {
      const number = Number(text);
      if (text.trim() === '' || !Number.isFinite(number)) {
        errors.push(`${field.label}: "${text}" is not a number.`);
        continue;
      }
      args[field.name] = number;
    } else if (field.type === 'enum') {
      const match = field.enumValues!.find((value) => String(value) === text);
      if (match === undefined) errors.push(`${field.label}: "${text}" is not one of the choices.`);
      else args[field.name] = match;
    } else {
      try {
        args[field.name] = JSON.parse(text) as JsonValue;
      } catch {
        errors.push(`${field.label}: not valid JSON.`);
      }
    }
  }
  return { args, errors };
}

/**
 * Check `value` against the subset of JSON Schema the console understands (type, enum, const,
 * required, properties, additionalProperties: false, items, numeric and length bounds, pattern);
 * other keywords are left to the tool's own validation. Returns the problems found.
 *
 * @example
 * ```ts
 * checkSchema({ amount: -1 }, { type: 'object', properties: { amount: { type: 'number', minimum: 0 } } });
 * // ['arguments.amount must be at least 0.']
 * ```
 */
export function checkSchema(value: unknown, schema: unknown, where = 'arguments'): string[] {
  if (!isRecord(schema)) return [];
  const problems: string[] = [];
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) {
    problems.push(
      `${where} must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}.`,
    );
  }
  if ('const' in schema && !sameJson(schema.const, value)) {
    problems.push(`${where} must be ${JSON.stringify(schema.const)}.`);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    problems.push(`${where} must be ${types.map(String).join(' or ')}.`);
    return problems;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      problems.push(`${where} must be at least ${schema.minimum}.`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      problems.push(`${where} must be at most ${schema.maximum}.`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
      problems.push(`${where} must be more than ${schema.exclusiveMinimum}.`);
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
      problems.push(`${where} must be less than ${schema.exclusiveMaximum}.`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength)
      problems.push(`${where} must have at least ${schema.minLength} characters.`);
    if (typeof schema.maxLength === 'number' && length > schema.maxLength)
      problems.push(`${where} must have at most ${schema.maxLength} characters.`);
    if (typeof schema.pattern === 'string') {
      let pattern: RegExp | undefined;
      try {
        pattern = new RegExp(schema.pattern, 'u');
      } catch {
        pattern = undefined;
      }
      if (pattern && !pattern.test(value)) problems.push(`${where} must match ${schema.pattern}.`);
    }
  }
  if (Array.isArray(value) && isRecord(schema.items)) {
    value.forEach((item, index) => {
      problems.push(...checkSchema(item, schema.items, `${where}[${index}]`));
    });
  }
  if (isRecord(value) && !Array.isArray(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === 'string' && !Object.hasOwn(value, key))
          problems.push(`${where}.${key} is required.`);
      }
    }
    for (const [key, item] of Object.entries(value)) {
      if (Object.hasOwn(properties, key))
        problems.push(...checkSchema(item, properties[key], `${where}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${where}.${key} is not allowed.`);
    }
  }
  return problems;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value) && !Array.isArray(value);
    default:
      return true;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A non-null object (arrays included; callers exclude them where it matters). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
