/**
 * `verify`, `validate`, `export` and `import`: continuations as files, checked with the core's own
 * reader (`parseContinuation`, `openContinuation`) and written with `serializeContinuation`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type Continuation,
  ContinuationError,
  listActions,
  openContinuation,
  parseContinuation,
  type SealConfig,
  serializeContinuation,
} from '@agent-continuations/core';
import { type Command, type CommandContext, stringOption } from './context';
import { notFound } from './inspect';
import { UsageError } from './usage-error';

const secretOptions = {
  'secret-env': { type: 'string' as const },
  'previous-secret-env': { type: 'string' as const, multiple: true },
};

/** `verify <id|file> --secret-env NAME`: the seal holds, with the secret in that variable. */
export const verify: Command = {
  usage: 'verify <id|file|-> --secret-env NAME [--previous-secret-env NAME]...',
  summary: 'check the seal of a stored continuation or a file (HMAC with the secret in $NAME)',
  operands: { min: 1, max: 1 },
  options: secretOptions,
  async run(context) {
    const seal = sealConfig(context);
    if (!seal)
      throw new UsageError('verify needs --secret-env NAME, the environment variable holding the secret.');
    const [source] = context.operands as [string];
    const input = await continuationInput(context, source);
    const continuation = await openContinuation(input, seal);
    const keyId = continuation.seal?.keyId;
    return {
      json: { ok: true, id: continuation.id, sealed: true, ...(keyId ? { keyId } : {}) },
      text: `${continuation.id}: the seal is valid${keyId ? ` (key ${keyId})` : ''}; nothing was changed since sealing.`,
    };
  },
};

/** `validate <file|->`: the text is a continuation this build reads; else its typed error. */
export const validate: Command = {
  usage: 'validate <file|->',
  summary: 'check a continuation file against the schema (format, version, consistency)',
  operands: { min: 1, max: 1 },
  options: {},
  async run(context) {
    const continuation = parseContinuation(await context.read(context.operands[0]!));
    const actions = listActions(continuation).length;
    return {
      json: {
        ok: true,
        id: continuation.id,
        runId: continuation.runId,
        agent: continuation.agent.name,
        version: continuation.version,
        actions,
        sealed: continuation.seal !== undefined,
      },
      text: `valid: continuation ${continuation.id} of agent ${continuation.agent.name} (format version ${continuation.version}), ${actions} pending action(s)${continuation.seal ? ', sealed (check it with verify)' : ''}.`,
    };
  },
};

/** `export <id> [--out file]`: the stored continuation as canonical JSON. */
export const exportCommand: Command = {
  usage: 'export <id> [--out FILE]',
  summary: 'write a stored continuation as canonical JSON (to standard output, or --out FILE)',
  operands: { min: 1, max: 1 },
  options: { out: { type: 'string' } },
  async run(context) {
    const [id] = context.operands as [string];
    const stored = await (await context.store()).load(id);
    if (!stored) throw notFound(id);
    const text = serializeContinuation(stored.continuation);
    const out = stringOption(context.values, 'out');
    // Printed as written: canonical JSON, which a re-stringified parse would not always be.
    if (out === undefined) return { json: undefined, text, raw: true };
    await context.write(out, `${text}\n`);
    return {
      json: { ok: true, id, out: resolve(context.cwd, out), status: stored.status },
      text: `exported ${id} (${stored.status}) to ${out}`,
    };
  },
};

/**
 * `import <file|->`: save a continuation file into the store, as `suspended`. A stored record is
 * trusted by the agents that resume it (a sealed agent does not check a store's own records), so a
 * sealed file is only imported after its seal verifies (`--secret-env`), and an id already in the
 * store is never replaced (a resumed one would become resumable again).
 */
export const importCommand: Command = {
  usage: 'import <file|-> [--secret-env NAME] [--previous-secret-env NAME]...',
  summary: 'parse a continuation file and save it into the store (verifying its seal with --secret-env)',
  operands: { min: 1, max: 1 },
  options: secretOptions,
  async run(context) {
    const text = await context.read(context.operands[0]!);
    const seal = sealConfig(context);
    const continuation: Continuation = seal ? await openContinuation(text, seal) : parseContinuation(text);
    if (!seal && continuation.seal) {
      throw new UsageError(
        `Continuation ${continuation.id} is sealed: pass --secret-env NAME so that its seal is checked ` +
          'before it becomes a store record, which agents resume without checking it again.',
      );
    }
    const store = await context.store();
    const existing = await store.load(continuation.id);
    if (existing) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `Continuation "${continuation.id}" is already in the store (${existing.status}); import never ` +
          'replaces a record (delete it first, if that is really meant).',
      );
    }
    await store.save(continuation);
    const actions = listActions(continuation).length;
    return {
      json: {
        ok: true,
        id: continuation.id,
        runId: continuation.runId,
        actions,
        verified: seal !== undefined,
      },
      text: `imported ${continuation.id} (agent ${continuation.agent.name}, ${actions} pending action(s))${seal ? ', seal verified' : ''}.`,
    };
  },
};

/** The seal configuration from `--secret-env` and `--previous-secret-env`, if given. */
function sealConfig(context: CommandContext): SealConfig | undefined {
  const name = stringOption(context.values, 'secret-env');
  const previousNames = context.values['previous-secret-env'];
  const previous = (Array.isArray(previousNames) ? previousNames : []).map((each) => secretIn(context, each));
  if (name === undefined) {
    if (previous.length > 0) throw new UsageError('--previous-secret-env needs --secret-env too.');
    return undefined;
  }
  return { secret: secretIn(context, name), ...(previous.length > 0 ? { previous } : {}) };
}

function secretIn(context: CommandContext, name: string): string {
  const value = context.env[name];
  if (!value) throw new UsageError(`The environment variable ${name} (the seal secret) is not set or empty.`);
  return value;
}

/** A file's text, standard input, or a stored continuation: a path that exists is a file. */
async function continuationInput(context: CommandContext, source: string): Promise<unknown> {
  if (source === '-' || existsSync(resolve(context.cwd, source))) return context.read(source);
  if (!context.hasStore) {
    throw new UsageError(`No file "${source}", and no --store to look it up as a continuation id.`);
  }
  const stored = await (await context.store()).load(source);
  if (!stored) throw notFound(source);
  // The stored object, not its serialization: openContinuation checks it alike.
  return stored.continuation;
}
