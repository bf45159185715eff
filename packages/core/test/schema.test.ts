import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseContinuation } from '@agent-continuations/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  continuationJsonSchema,
  continuationJsonSchemaText,
  SCHEMA_FILE,
} from '../scripts/continuation-json-schema';
import { VALIDATOR_FILE, validatorSource } from '../scripts/validator-source';
import { badManifest, fixtureText, validFixture, validFixtureNames } from './fixtures/corpus';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function compile() {
  // The date-time `pattern` in the schema already enforces ISO times; format keywords stay annotations.
  return new Ajv2020({ strict: true, allErrors: true, validateFormats: false }).compile(
    continuationJsonSchema(),
  );
}

describe('published JSON Schema', () => {
  it('matches the zod schema (regenerate with `pnpm --filter @agent-continuations/core generate`)', () => {
    const committed = readFileSync(join(packageRoot, SCHEMA_FILE), 'utf8');
    expect(committed).toBe(continuationJsonSchemaText());
  });

  it('has a generated validator that is up to date (regenerate with `pnpm --filter @agent-continuations/core generate`)', () => {
    const committed = readFileSync(join(packageRoot, VALIDATOR_FILE), 'utf8');
    expect(committed === validatorSource()).toBe(true);
  });

  it('is what the package exports as ./schema.json', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
    expect(manifest.exports['./schema.json']).toBe(`./${SCHEMA_FILE}`);
    expect(manifest.files).toContain('schema');
  });

  it('refers nested children back to the root instead of inlining them', () => {
    const text = continuationJsonSchemaText();
    expect(text).toContain('"$ref": "#"');
    expect(Object.keys(continuationJsonSchema().$defs as object).sort()).toEqual([
      'AuditEntry',
      'JsonValue',
      'Message',
      'PendingEntry',
      'Usage',
    ]);
  });

  it.each(validFixtureNames())('accepts the valid fixture %s', (name) => {
    const validate = compile();
    const ok = validate(JSON.parse(validFixture(name)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  // Bad fixtures that are well-formed JSON but not a v1 continuation: the JSON Schema refuses them too.
  const shapeErrors = Object.entries(badManifest().parse).filter(
    ([file, code]) =>
      ['INVALID_FORMAT', 'UNSUPPORTED_VERSION', 'INVALID_CONTINUATION'].includes(code) &&
      file.endsWith('.json'),
  );
  // Parts that contradict each other are a rule across fields, which a JSON Schema cannot state.
  const ruleOf = (file: string) => {
    try {
      parseContinuation(fixtureText(`bad/parse/${file}`));
    } catch (error) {
      return (error as { details?: { rule?: string } }).details?.rule;
    }
    return undefined;
  };
  const schemaLevel = shapeErrors.filter(([file]) => ruleOf(file) === undefined);
  const consistencyLevel = shapeErrors.filter(([file]) => ruleOf(file) !== undefined);

  it('leaves only the consistency rules to parseContinuation', () => {
    expect(consistencyLevel.map(([file]) => file).sort()).toEqual([
      'child-pending-not-a-call.json',
      'done-and-pending.json',
      'pending-empty-transcript.json',
      'pending-not-a-call.json',
      'pending-twice.json',
    ]);
    const validate = compile();
    for (const [file] of consistencyLevel)
      expect(validate(JSON.parse(fixtureText(`bad/parse/${file}`)))).toBe(true);
  });

  it.each(schemaLevel)('rejects the bad fixture %s (%s)', (file) => {
    const validate = compile();
    expect(validate(JSON.parse(fixtureText(`bad/parse/${file}`)))).toBe(false);
    expect(validate.errors?.length).toBeGreaterThan(0);
  });

  it('refuses an unknown key inside a message or a part, as parseContinuation does', () => {
    const validate = compile();
    for (const edit of [
      (c: any) => {
        c.messages[0].extra = 1;
      },
      (c: any) => {
        c.messages[1].content[0].extra = 1;
      },
      (c: any) => {
        c.pending[0].child.pending[0].child.messages[1].content[0].note = 'x';
      },
    ]) {
      const value = JSON.parse(validFixture('nested-depth-3.json'));
      edit(value);
      expect(validate(value)).toBe(false);
      expect(() => parseContinuation(value)).toThrow(
        expect.objectContaining({ code: 'INVALID_CONTINUATION' }),
      );
    }
  });

  it('rejects a deep child that breaks the format three levels down', () => {
    const validate = compile();
    const nested = JSON.parse(validFixture('nested-depth-3.json'));
    nested.pending[0].child.pending[0].child.pending[0].kind = 'payment';
    expect(validate(nested)).toBe(false);
  });
});
