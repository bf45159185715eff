/**
 * Random agent trees (depth 1 to 3, parallel calls, tools with and without approval, sub-agents)
 * and their construction through an adapter's {@link ConformanceHarness}, once per simulated
 * process. Every call's arguments carry a nonce naming it (`<input>/<turn>.<index>`), so the
 * ledger can tell one call from another across processes.
 */
import type { ContinuableAgent, ModelRequest } from '@agent-continuations/core';
import { z } from 'zod';
import type { ConformanceHarness, ConformanceTool } from '../conformance-harness';
import { firstUserText, type ScriptedReply, type ScriptedToolCall, turnIndex } from '../scripted-model';
import { chanceOf, type Random } from './random';
import type { Faults, Ledger, Process } from './world';

/** One call a planned model turn makes. */
export type PlannedCall = { kind: 'lookup' } | { kind: 'pay' } | { kind: 'agent'; child: number };

/** An agent of the tree: what its model asks for, turn by turn, and its sub-agents. */
export interface PlannedAgent {
  name: string;
  turns: PlannedCall[][];
  children: PlannedAgent[];
}

/** A leaf call of the tree: a tool with a side effect. */
export interface PlannedLeaf {
  nonce: string;
  kind: 'lookup' | 'pay';
}

/**
 * Plan a random tree: each agent makes 1 to `width` turns (sub-agents at most 2) of 1 to `width`
 * calls, and has sub-agents while `depth < maxDepth`.
 */
export function planTree(
  random: Random,
  name: string,
  depth: number,
  maxDepth: number,
  width = 3,
): PlannedAgent {
  const children: PlannedAgent[] = [];
  if (depth < maxDepth) {
    const count = 1 + random.int(2);
    for (let index = 0; index < count; index++) {
      children.push(planTree(random, `${name}_${index}`, depth + 1, maxDepth, width));
    }
  }
  const turns: PlannedCall[][] = [];
  const turnCount = 1 + random.int(depth === 1 ? width : Math.min(2, width));
  for (let turn = 0; turn < turnCount; turn++) {
    const calls: PlannedCall[] = [];
    const callCount = 1 + random.int(width);
    for (let index = 0; index < callCount; index++) {
      const roll = random.next();
      if (children.length > 0 && roll < 0.35)
        calls.push({ kind: 'agent', child: random.int(children.length) });
      else calls.push({ kind: roll < 0.65 ? 'pay' : 'lookup' });
    }
    turns.push(calls);
  }
  // Every sub-agent is called at least once, so the tree has the depth planned.
  children.forEach((_, child) => {
    if (!turns.some((calls) => calls.some((call) => call.kind === 'agent' && call.child === child))) {
      turns[random.int(turns.length)]!.push({ kind: 'agent', child });
    }
  });
  return { name, turns, children };
}

/** The depth of a planned tree. */
export function depthOf(agent: PlannedAgent): number {
  return 1 + Math.max(0, ...agent.children.map(depthOf));
}

/** Every side-effecting call the tree makes when run with `input`. */
export function leavesOf(agent: PlannedAgent, input: string): PlannedLeaf[] {
  return agent.turns.flatMap((calls, turn) =>
    calls.flatMap((call, index): PlannedLeaf[] => {
      const nonce = `${input}/${turn}.${index}`;
      if (call.kind === 'agent') return leavesOf(agent.children[call.child]!, nonce);
      return [{ nonce, kind: call.kind }];
    }),
  );
}

/** The human's answer to a call's approval: fixed per call, so a decision asked again is the same. */
export function approves(seed: number, nonce: string): boolean {
  return chanceOf(seed, 'approve', nonce) < 0.75;
}

/** What a simulated process needs to build its agents. */
export interface TreeEnvironment {
  harness: ConformanceHarness;
  faults: Faults;
  ledger: Ledger;
  process: Process;
}

/** Build the planned tree's agents for one process, leaves first. */
export async function buildTree(
  plan: PlannedAgent,
  env: TreeEnvironment,
): Promise<ContinuableAgent<string, any>> {
  const children: ContinuableAgent<string, any>[] = [];
  for (const child of plan.children) children.push(await buildTree(child, env));
  const tools: ConformanceTool[] = [
    sideEffect('lookup', false, env),
    sideEffect('pay', true, env),
    ...children.map(
      (agent, index): ConformanceTool => ({
        kind: 'agent',
        name: `ask_${index}`,
        description: `Ask the sub-agent ${plan.children[index]!.name}.`,
        agent,
      }),
    ),
  ];
  return env.harness.createAgent({
    name: plan.name,
    instructions: `You are the simulated agent ${plan.name}.`,
    script: (request) => reply(plan, request, env),
    tools,
  });
}

function reply(plan: PlannedAgent, request: ModelRequest, env: TreeEnvironment): ScriptedReply {
  const input = firstUserText(request.messages);
  const turn = turnIndex(request.messages);
  const { process, faults } = env;
  if (process.dead) throw new Error('The simulated process is dead.');
  if (faults.strikes('modelError', process.op?.index ?? -1, `model ${input}#${turn}`)) {
    throw new Error(`Simulated model failure at ${input}#${turn}.`);
  }
  const calls = plan.turns[turn];
  if (!calls) return `done ${input}`;
  return {
    toolCalls: calls.map((call, index): ScriptedToolCall => {
      const nonce = `${input}/${turn}.${index}`;
      if (call.kind === 'agent') return { name: `ask_${call.child}`, args: { input: nonce } };
      return { name: call.kind, args: { n: nonce } };
    }),
  };
}

/** The arguments of the side-effecting tools: the call's nonce. One schema, so its JSON Schema is made once. */
const CALL_ARGS = z.object({ n: z.string() });

function sideEffect(name: 'lookup' | 'pay', needsApproval: boolean, env: TreeEnvironment): ConformanceTool {
  const { process, faults, ledger } = env;
  return {
    kind: 'function',
    name,
    description: needsApproval ? 'Pay someone (needs approval).' : 'Look something up.',
    parameters: CALL_ARGS,
    needsApproval,
    async execute(args: { n: string }, ctx) {
      await faults.point(process, `${name} ${args.n}:before`, { lapse: true });
      ledger.execute({
        nonce: args.n,
        key: ctx.idempotencyKey,
        process: process.id,
        op: process.op?.index ?? -1,
      });
      // A crash here is the documented at-least-once edge: it ran, its result is not recorded.
      await faults.point(process, `${name} ${args.n}:after`, { lapse: true });
      if (faults.strikes('toolError', process.op?.index ?? -1, `${name} ${args.n}`)) {
        throw new Error(`Simulated tool failure in ${args.n}.`);
      }
      return { n: args.n, key: ctx.idempotencyKey };
    },
  };
}
