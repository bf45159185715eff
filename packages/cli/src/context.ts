/**
 * What a command gets: its parsed options and operands, the store (opened on first use), the
 * agents module, and input files. What it gives back: JSON for `--json` and text for people.
 */
import type { ContinuationStore, Runtime } from '@agent-continuations/core';

/** Option values as `util.parseArgs` returns them. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** The inputs of one command run. */
export interface CommandContext {
  values: OptionValues;
  operands: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether a store URL was given (`--store` or `AGENT_CONTINUATIONS_STORE`). */
  hasStore: boolean;
  /** The store; a usage error when no URL was given. */
  store(): Promise<ContinuationStore>;
  /**
   * The one runtime of this command line over the store, with the agents of module `agentsFile`:
   * the decisions, `resume` and the console all go through it. Without a module, a runtime with no
   * agents, for what runs nothing (`cancel`).
   */
  runtime(agentsFile?: string): Promise<Runtime>;
  /** The text of a file, or of standard input for `-`; a usage error when unreadable. */
  read(file: string): Promise<string>;
  /** Write `text` to `file` (relative to the working folder). */
  write(file: string, text: string): Promise<void>;
  /** Print a line for people while the command runs (a long-running command's progress). */
  say(text: string): void;
  /** Print a warning line on standard error. */
  warn(text: string): void;
  /** Aborted when a long-running command should stop (besides SIGINT and SIGTERM). */
  signal?: AbortSignal;
}

/** What a command reports: `json` for `--json`, `text` for people. */
export interface CommandOutput {
  json: unknown;
  text: string;
  /** Print `text` as it is, with or without `--json` (it is JSON already, e.g. an export). */
  raw?: boolean;
}

/** A command: its operands and options for `util.parseArgs`, and what it does. */
export interface Command {
  usage: string;
  summary: string;
  operands: { min: number; max: number };
  options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;
  run(context: CommandContext): Promise<CommandOutput>;
}

/** An option's string value (the last one, when given more than once). */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (Array.isArray(value)) return value[value.length - 1];
  return typeof value === 'string' ? value : undefined;
}
