/**
 * Run the command line as a subprocess: node on the source bin, with the workspace's source
 * condition and tsx, so no build is needed. Tool runs of the fixture agents are counted through a
 * file that the test process and every subprocess append to.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const BIN = join(import.meta.dirname, '../src/bin.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** The fixture agents module, as the tests pass it with --agents. */
export const AGENTS = join(import.meta.dirname, 'fixtures/agents.ts');

/** What one command line run gave. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, when it is JSON. */
  json: any;
}

/** A temporary folder, the runs file in it, and the command line run from it. */
export interface CliWorkspace {
  dir: string;
  /** Run `agent-continuations ...args`; `env` adds variables, `input` goes to standard input. */
  cli(args: string[], options?: { env?: Record<string, string>; input?: string }): Promise<CliRun>;
  /** How often each tool ran, over the test process and every subprocess. */
  runs(): Record<string, number>;
  /** The arguments each run of `tool` got, in order. */
  argsOf(tool: string): unknown[];
  dispose(): void;
}

/**
 * A fresh workspace; set `process.env.CLI_TEST_RUNS` so that tool runs made by the test process
 * itself (a seeded run) count too.
 *
 * @example
 * ```ts
 * const ws = cliWorkspace();
 * const { code, json } = await ws.cli(['list', '--store', url, '--json']);
 * ```
 */
export function cliWorkspace(): CliWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'ac-cli-'));
  const runsFile = join(dir, 'runs.jsonl');
  process.env.CLI_TEST_RUNS = runsFile;
  const lines = (): Array<{ tool: string; args: unknown }> =>
    existsSync(runsFile)
      ? readFileSync(runsFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
  return {
    dir,
    cli: (args, options = {}) => run(args, dir, { CLI_TEST_RUNS: runsFile, ...options.env }, options.input),
    runs() {
      const counts: Record<string, number> = {};
      for (const { tool } of lines()) counts[tool] = (counts[tool] ?? 0) + 1;
      return counts;
    },
    argsOf: (tool) =>
      lines()
        .filter((line) => line.tool === tool)
        .map((line) => line.args),
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function run(args: string[], cwd: string, env: Record<string, string>, input?: string): Promise<CliRun> {
  const {
    AGENT_CONTINUATIONS_STORE: _store,
    AGENT_CONTINUATIONS_AGENTS: _agents,
    ...inherited
  } = process.env;
  const child = spawn(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', TSX, BIN, ...args],
    { cwd, env: { ...inherited, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}
