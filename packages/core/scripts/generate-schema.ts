/**
 * Write the published JSON Schema of the continuation format. Run after any change to the zod
 * schema: `pnpm --filter @agent-continuations/core generate:schema`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { continuationJsonSchemaText, SCHEMA_FILE } from './continuation-json-schema';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', SCHEMA_FILE);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, continuationJsonSchemaText());
console.log(`wrote ${SCHEMA_FILE}`);
