/**
 * The user's agents module (`--agents ./agents.ts`): loaded with a dynamic import, its exports
 * indexed by agent name. A TypeScript module loads through `tsx` when the runtime cannot load it
 * by itself.
 */
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContinuableAgent } from '@agent-continuations/core';
import { UsageError } from './usage-error';

/** The agents a module exports, by agent name. */
export interface AgentsModule {
  path: string;
  agents: Map<string, ContinuableAgent<any, any>>;
  /** The agent that resumes continuations of `name`; a {@link UsageError} naming the ones there are. */
  find(name: string): ContinuableAgent<any, any>;
}

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/**
 * Import `file` and collect its agents: every export that is a continuable agent (an object with
 * `name`, `run` and `resume`), and the agents inside an exported object or array (e.g.
 * `export default { hr, payroll }`). Each is found by its own `name`, and by its export key.
 *
 * @example
 * ```ts
 * const { find } = await loadAgents('./agents.ts');
 * const agent = find(continuation.agent.name);
 * ```
 */
export async function loadAgents(file: string, cwd: string = process.cwd()): Promise<AgentsModule> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new UsageError(`The agents module ${path} does not exist.`);
  const exports = await importModule(path);
  const agents = new Map<string, ContinuableAgent<any, any>>();
  const add = (key: string, value: unknown) => {
    if (!isAgent(value)) return false;
    if (!agents.has(value.name)) agents.set(value.name, value);
    if (!agents.has(key)) agents.set(key, value);
    return true;
  };
  for (const [key, value] of Object.entries(exports)) {
    if (add(key, value) || typeof value !== 'object' || value === null) continue;
    for (const [inner, agent] of Object.entries(value)) add(inner, agent);
  }
  if (agents.size === 0) {
    throw new UsageError(
      `The agents module ${path} exports no agent (an object with name, run and resume); ` +
        'export them by name, e.g. `export const hr = createContinuableAgent(...)`.',
    );
  }
  return {
    path,
    agents,
    find(name) {
      const agent = agents.get(name);
      if (agent) return agent;
      throw new UsageError(
        `The agents module ${path} has no agent named "${name}" (it has ${[...agents.keys()].join(', ')}).`,
      );
    },
  };
}

async function importModule(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  try {
    return await import(url);
  } catch (error) {
    if (
      (error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION' ||
      !TYPESCRIPT.has(extname(path))
    ) {
      throw new UsageError(`The agents module ${path} could not be loaded: ${message(error)}`);
    }
  }
  // This Node.js cannot load TypeScript by itself: register tsx, when installed, and try again.
  try {
    const { register } = await import('tsx/esm/api');
    register();
  } catch {
    throw new UsageError(
      `Loading the TypeScript agents module ${path} needs tsx: npm install -D tsx ` +
        '(or run the command line with node --import tsx, or point --agents at JavaScript).',
    );
  }
  try {
    // Another URL: the runtime remembers the failed import of the first one.
    return await import(`${url}?tsx`);
  } catch (error) {
    throw new UsageError(`The agents module ${path} could not be loaded: ${message(error)}`);
  }
}

function isAgent(value: unknown): value is ContinuableAgent<any, any> {
  if (typeof value !== 'object' || value === null) return false;
  const agent = value as Record<string, unknown>;
  return (
    typeof agent.name === 'string' && typeof agent.run === 'function' && typeof agent.resume === 'function'
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
