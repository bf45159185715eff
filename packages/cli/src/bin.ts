#!/usr/bin/env node
/**
 * The `agent-continuations` executable: run the command line on this process's arguments, then
 * exit once the output is flushed, even if the user's agents module left a timer or a socket open.
 */
import { runCli } from './run-cli';

const exit = (code: number) => {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
};

runCli(process.argv.slice(2)).then(exit, (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exit(1);
});
