/**
 * The command line as a function: parse the arguments with `util.parseArgs`, run one command,
 * print its result, and return the exit code (0 done, 1 refused or failed, 2 usage error).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type ContinuationStore,
  createEncryption,
  createRuntime,
  type Encryption,
  type EncryptionOptions,
  isContinuationError,
  type Runtime,
} from '@agent-continuations/core';
import { loadAgents } from './agents-module';
import { consoleCommand } from './console-command';
import type { Command, CommandContext, CommandOutput } from './context';
import { answer, approve, cancel, reject, resume } from './decide';
import { exportCommand, importCommand, validate, verify } from './files';
import { list, show } from './inspect';
import { type OpenStore, openStore } from './store-url';
import { isUsageError, UsageError } from './usage-error';

/** Where the command line reads and writes; the process's own by default. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** The whole of standard input, for `-` operands. */
  stdin(): Promise<string>;
  /** Stops a long-running command (`console`), as SIGINT does. */
  signal?: AbortSignal;
}

/**
 * Exit codes scripts can test: 0 done, 1 refused or failed (a `ContinuationError` code is
 * printed), 2 usage error.
 *
 * @example
 * ```ts
 * if ((await runCli(['show', id, '--store', url])) === EXIT.refused) console.error('not found or refused');
 * ```
 */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

const COMMANDS: Record<string, Command> = {
  list,
  show,
  approve,
  reject,
  answer,
  resume,
  cancel,
  verify,
  validate,
  export: exportCommand,
  import: importCommand,
  console: consoleCommand,
};

const GLOBAL = {
  store: { type: 'string', short: 's' },
  'encryption-env': { type: 'string' },
  log: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Run the command line with `argv` (without the node and script paths); resolves to the exit code.
 *
 * @example
 * ```ts
 * const code = await runCli(['list', '--store', 'sqlite:./agents.db', '--json']);
 * process.exitCode = code;
 * ```
 */
export async function runCli(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const out: CliIo = { ...defaultIo(), ...io };
  const json = argv.includes('--json');
  let opened: OpenStore | undefined;
  let runtime: { file: string | undefined; runtime: Promise<Runtime> } | undefined;
  try {
    const [name, ...rest] = argv;
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      out.stdout(`${help()}\n`);
      return name === undefined ? EXIT.usage : EXIT.ok;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`Unknown command "${name}".\n\n${help()}`);
    const { values, positionals } = parse(command, rest);
    if (values.help) {
      out.stdout(`usage: agent-continuations ${command.usage}\n${command.summary}\n`);
      return EXIT.ok;
    }
    if (positionals.length < command.operands.min || positionals.length > command.operands.max) {
      throw new UsageError(`usage: agent-continuations ${command.usage}`);
    }
    const url =
      (typeof values.store === 'string' ? values.store : undefined) ?? out.env.AGENT_CONTINUATIONS_STORE;
    const context: CommandContext = {
      values,
      operands: positionals,
      cwd: out.cwd,
      env: out.env,
      hasStore: Boolean(url),
      async store(): Promise<ContinuationStore> {
        if (!url) {
          throw new UsageError(
            `${name} needs a store: --store sqlite:./agents.db (or postgres://..., redis://...), ` +
              'or AGENT_CONTINUATIONS_STORE.',
          );
        }
        const encryption = encryptionFrom(out.env, values['encryption-env']);
        opened ??= await openStore(url, out.cwd, {
          ...(encryption ? { encryption } : {}),
          ...(values.log === true ? { log: true } : {}),
        });
        return opened.store;
      },
      runtime(agentsFile) {
        if (!runtime || runtime.file !== agentsFile) {
          const made = (async () => {
            const store = await context.store();
            const agents =
              agentsFile === undefined ? new Map() : (await loadAgents(agentsFile, out.cwd)).agents;
            const log = opened?.log;
            return createRuntime({
              agents: Object.fromEntries(agents),
              store,
              owner: cliOwner(),
              ...(log ? { log } : {}),
            });
          })();
          runtime = { file: agentsFile, runtime: made };
        }
        return runtime.runtime;
      },
      read: (file) => readInput(out, file),
      write: (file, text) => writeFile(resolve(out.cwd, file), text, 'utf8'),
      say: (text) => out.stdout(`${safe(text)}\n`),
      warn: (text) => out.stderr(`${safe(text)}\n`),
      ...(out.signal ? { signal: out.signal } : {}),
    };
    print(out, await command.run(context), json);
    return EXIT.ok;
  } catch (error) {
    return fail(out, error, json);
  } finally {
    await opened?.close().catch(() => undefined);
  }
}

/** Who claims when no person is named: this command line on this machine, for the store's diagnostics. */
export function cliOwner(): string {
  return `agent-continuations-cli@${hostname()}:${process.pid}`;
}

function parse(command: Command, args: string[]) {
  try {
    return parseArgs({
      args,
      options: { ...GLOBAL, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nusage: agent-continuations ${command.usage}`, {
      cause: error,
    });
  }
}

function print(io: CliIo, output: CommandOutput, json: boolean): void {
  if (output.raw) io.stdout(`${output.text}\n`);
  else if (json) io.stdout(`${JSON.stringify(output.json, null, 2)}\n`);
  else io.stdout(`${safe(output.text)}\n`);
}

function fail(io: CliIo, error: unknown, json: boolean): number {
  const usage = isUsageError(error);
  const typed = isContinuationError(error);
  const code = usage ? 'USAGE' : typed ? error.code : 'FAILED';
  let message = error instanceof Error ? error.message : String(error);
  // resumeStored saved the run's last good state under its own id: say how to go on from it.
  const saved = typed && !usage ? error.continuation?.id : undefined;
  if (saved !== undefined) {
    message += ` The run's last good state is saved as ${saved}: once the cause is fixed, go on with \`resume ${saved}\`.`;
  }
  if (json) {
    const path = typed && error.path !== undefined ? { path: error.path } : {};
    const next = saved === undefined ? {} : { saved };
    io.stdout(`${JSON.stringify({ error: { code, message, ...path, ...next } }, null, 2)}\n`);
  }
  const where = typed && error.path !== undefined ? ` (at ${error.path})` : '';
  io.stderr(`${safe(usage ? `error: ${message}` : `error ${code}: ${message}${where}`)}\n`);
  return usage ? EXIT.usage : EXIT.refused;
}

/**
 * The store's encryption at rest, from the variable `--encryption-env` names: the JSON of
 * `createEncryption`'s options, `{ "currentKeyId": "2025-06", "keys": { "2025-06": "<base64>" } }`.
 */
function encryptionFrom(
  env: Record<string, string | undefined>,
  name: string | boolean | string[] | undefined,
): Encryption | undefined {
  if (typeof name !== 'string') return undefined;
  const text = env[name];
  if (!text)
    throw new UsageError(
      `The environment variable ${name} (the store's encryption keys) is not set or empty.`,
    );
  let options: EncryptionOptions;
  try {
    options = JSON.parse(text) as EncryptionOptions;
  } catch {
    throw new UsageError(
      `${name} is not JSON: give { "currentKeyId": "<id>", "keys": { "<id>": "<base64 of 32 bytes>" } }.`,
    );
  }
  if (typeof options !== 'object' || options === null || typeof options.keys !== 'object') {
    throw new UsageError(
      `${name} must be { "currentKeyId": "<id>", "keys": { "<id>": "<base64 of 32 bytes>" } }.`,
    );
  }
  try {
    return createEncryption(options);
  } catch (error) {
    throw new UsageError(`${name} holds unusable keys: ${(error as Error).message}`);
  }
}

async function readInput(io: CliIo, file: string): Promise<string> {
  if (file === '-') return io.stdin();
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * Text for a terminal: control characters (escape sequences) and bidirectional overrides that a
 * continuation's untrusted strings may carry are shown escaped, never interpreted.
 */
function safe(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function help(): string {
  return [
    'usage: agent-continuations <command> [options] --store URL [--json]',
    '',
    ...Object.values(COMMANDS).flatMap((command) => [`  ${command.usage}`, `      ${command.summary}`]),
    '',
    'The store: --store sqlite:./agents.db | postgres://host/db[?schema=&table=] | redis://host:6379[?prefix=]',
    '(or the AGENT_CONTINUATIONS_STORE environment variable); --encryption-env NAME when it is encrypted at rest',
    '(NAME holds {"currentKeyId": ..., "keys": {...}}). --agents FILE: a module exporting your agents',
    "(or AGENT_CONTINUATIONS_AGENTS). --log: the store's database also holds the runs' checkpoint log",
    '(SQLite, Postgres): resume through it as the app does, and show what runs ended with. --json prints JSON for scripts.',
    'Exit codes: 0 done, 1 refused or failed (the error code is printed), 2 usage error.',
  ].join('\n');
}

function defaultIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    async stdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
