/**
 * zod, loaded at first use rather than with the adapter: loading it and building schemas costs a
 * cold start about 10 ms, and few paths need it (reading a continuation's LangGraph state, a human
 * tool without a `response`, an agent tool without a schema). Those paths are synchronous, hence
 * `require`, of the build of zod the app has loaded: its CommonJS build if the app required zod,
 * else its ES module (the app's own copy), or the CommonJS build on a Node that cannot `require`
 * ES modules (before 20.19).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

type Zod = typeof import('zod');

let loaded: Zod | undefined;

/**
 * The zod module, loaded on the first call.
 *
 * @example
 * ```ts
 * const schema = zod().object({ input: zod().string() });
 * ```
 */
export function zod(): Zod {
  loaded ??= loadZod();
  return loaded;
}

function loadZod(): Zod {
  const load = createRequire(import.meta.url);
  if (load.cache[load.resolve('zod')] || typeof import.meta.resolve !== 'function') {
    return load('zod') as Zod;
  }
  try {
    return load(fileURLToPath(import.meta.resolve('zod'))) as Zod;
  } catch {
    return load('zod') as Zod;
  }
}
