/**
 * Building blocks of the conformance scenarios: counted tools and scripts that echo what the
 * model received, so assertions can check the transcript end to end.
 */
import type { JsonValue, ModelRequest } from '@agent-continuations/core';
import { z } from 'zod';
import type { ConformanceAgentSpec, ConformanceHarness, ConformanceTool } from './conformance-harness';
import { lastToolResults, type ScriptedReply, turnIndex } from './scripted-model';

/** Execution counts by tool name, shared by the tools of one scenario. */
export type Counts = Record<string, number>;

const bump = (counts: Counts, name: string) => {
  counts[name] = (counts[name] ?? 0) + 1;
};

/** A tool with no approval that returns a balance. */
export function lookupTool(counts: Counts, name = 'lookup_account'): ConformanceTool {
  return {
    kind: 'function',
    name,
    description: 'Look up an account balance',
    parameters: z.object({ account: z.string() }),
    async execute({ account }) {
      bump(counts, name);
      return { account, balance: 120 };
    },
  };
}

/** A tool that needs approval; it records the arguments it ran with. */
export function transferTool(counts: Counts, ran: JsonValue[] = [], name = 'transfer'): ConformanceTool {
  return {
    kind: 'function',
    name,
    description: 'Transfer money to someone',
    parameters: z.object({ to: z.string(), amount: z.number().positive() }),
    needsApproval: true,
    async execute(args) {
      bump(counts, name);
      ran.push(args);
      return { ok: true, to: args.to, amount: args.amount };
    },
  };
}

/** The final turn: report every tool result the model received in the last tool message. */
export function reportResults(request: ModelRequest): ScriptedReply {
  const results = lastToolResults(request.messages).map(
    (part) => `${part.toolName}=${JSON.stringify(part.output)}`,
  );
  return `done: ${results.join(' | ')}`;
}

/** A script from a list of turns that also counts model calls. */
export function countedScript(
  counter: { calls: number },
  turns: Array<ScriptedReply | ((request: ModelRequest) => ScriptedReply)>,
): (request: ModelRequest) => ScriptedReply {
  return (request) => {
    counter.calls += 1;
    const turn = turns[turnIndex(request.messages)];
    if (turn === undefined) throw new Error(`Script has no turn ${turnIndex(request.messages) + 1}`);
    return typeof turn === 'function' ? turn(request) : turn;
  };
}

/**
 * A chain of agents `depth` levels deep: level 1 calls level 2 as a tool, ..., the deepest calls
 * `transfer` (which needs approval). Returns the root's spec; children are built through the harness.
 */
export async function nestedChain(
  harness: ConformanceHarness,
  depth: number,
  counts: Counts,
  ran: JsonValue[],
): Promise<ConformanceAgentSpec> {
  return chainTo(harness, depth, {
    name: `level${depth}`,
    instructions: 'You move money.',
    script: [{ toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] }, reportResults],
    tools: [transferTool(counts, ran)],
  });
}

/** A chain `depth` levels deep whose deepest agent is `leaf` (named `level<depth>`); the root's spec. */
export async function chainTo(
  harness: ConformanceHarness,
  depth: number,
  leaf: ConformanceAgentSpec,
): Promise<ConformanceAgentSpec> {
  let spec = leaf;
  for (let level = depth - 1; level >= 1; level--) {
    const child = await harness.createAgent(spec);
    const toolName = `ask_level${level + 1}`;
    spec = {
      name: `level${level}`,
      instructions: `You delegate to level ${level + 1}.`,
      script: [{ toolCalls: [{ name: toolName, args: { input: 'pay bob 50' } }] }, reportResults],
      tools: [{ kind: 'agent', name: toolName, description: `Delegate to level ${level + 1}`, agent: child }],
    };
  }
  return spec;
}
