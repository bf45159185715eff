#!/usr/bin/env node
/**
 * The `agent-continuations` executable: run the command line on this process's arguments.
 */
import { runCli } from './run-cli';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
