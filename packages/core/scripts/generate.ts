/**
 * Regenerate everything derived from the format's zod schemas (`src/zod`): the published JSON
 * Schema and the reader's validator. Run after any change to them:
 * `pnpm --filter @agent-continuations/core generate`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { continuationJsonSchemaText, SCHEMA_FILE } from './continuation-json-schema';
import { VALIDATOR_FILE, validatorSource } from './validator-source';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const [file, text] of [
  [SCHEMA_FILE, continuationJsonSchemaText()],
  [VALIDATOR_FILE, validatorSource()],
] as const) {
  const target = join(root, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${file}`);
}
