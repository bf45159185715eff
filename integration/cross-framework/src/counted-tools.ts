/**
 * Tools described once for every framework, each counting its executions by name, so a test can
 * assert that every call ran exactly once over a run that crossed processes and frameworks.
 */
import type { JsonValue } from '@agent-continuations/core';
import type { ConformanceTool, Counts } from '@agent-continuations/testing';
import { z } from 'zod';

/** A function tool that adds one to `counts[name]` each time it runs. */
export function countedTool<S extends z.ZodObject>(
  counts: Counts,
  options: { name: string; description: string; parameters: S; needsApproval?: boolean },
  run: (args: z.output<S>) => JsonValue,
): ConformanceTool {
  return {
    kind: 'function',
    ...options,
    async execute(args) {
      counts[options.name] = (counts[options.name] ?? 0) + 1;
      return run(args);
    },
  };
}

/** `lookup_account`: no approval; A-1 holds 120, any other account 10. */
export const lookupAccount = (counts: Counts) =>
  countedTool(
    counts,
    {
      name: 'lookup_account',
      description: 'Look up an account balance',
      parameters: z.object({ account: z.string() }),
    },
    ({ account }) => ({ account, balance: account === 'A-1' ? 120 : 10 }),
  );

/** `transfer`: needs approval. */
export const transfer = (counts: Counts) =>
  countedTool(
    counts,
    {
      name: 'transfer',
      description: 'Transfer money to someone',
      parameters: z.object({ to: z.string(), amount: z.number().positive() }),
      needsApproval: true,
    },
    ({ to, amount }) => ({ ok: true, to, amount }),
  );
