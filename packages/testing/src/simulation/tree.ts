/**
 * Random agent trees (depth 1 to 3, parallel calls, tools with and without approval, sub-agents)
 * and their construction through an adapter's {@link ConformanceHarness}, once per simulated
 * process. Every call's arguments carry a nonce naming it (`<input>/<turn>.<index>`), so the
 * ledger can tell one call from another across processes.
 */
import { type ContinuableAgent, everyTurns, type ModelRequest } from '@agent-continuations/core';
import { z } from 'zod';
import type { ConformanceHarness, ConformanceTool } from '../conformance-harness';
import { firstUserText, type ScriptedReply, type ScriptedToolCall, turnIndex } from '../scripted-model';
import { chanceOf, type Random } from './random';
import type { Faults, Ledger, Process } from './world';

/**
 * One call a planned model turn makes: `lookup` runs at once, `pay` needs approval, `confirm` asks
 * a human (`requestInput`) before its side effect, `ask` is a human tool (the answer is the
 * result), `agent` calls a sub-agent.
 */
export type PlannedCall = { kind: 'lookup' | 'pay' | 'confirm' | 'ask' } | { kind: 'agent'; child: number };

/** An agent of the tree: what its model asks for, turn by turn, and its sub-agents. */
export interface PlannedAgent {
  name: string;
  turns: PlannedCall[][];
  children: PlannedAgent[];
  /** Suspend by the predicate `everyTurns(n)`: resumed without decisions. */
  everyTurns?: number;
}

/** A leaf call of the tree: a tool with a side effect. */
export interface PlannedLeaf {
  nonce: string;
  kind: 'lookup' | 'pay' | 'confirm';
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
      else if (roll < 0.6) calls.push({ kind: 'pay' });
      else if (roll < 0.68) calls.push({ kind: 'confirm' });
      else if (roll < 0.74) calls.push({ kind: 'ask' });
      else calls.push({ kind: 'lookup' });
    }
    turns.push(calls);
  }
  // Every sub-agent is called at least once, so the tree has the depth planned.
  children.forEach((_, child) => {
    if (!turns.some((calls) => calls.some((call) => call.kind === 'agent' && call.child === child))) {
      turns[random.int(turns.length)]!.push({ kind: 'agent', child });
    }
  });
  const agent: PlannedAgent = { name, turns, children };
  if (random.chance(0.15)) agent.everyTurns = 1 + random.int(2);
  return agent;
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
      if (call.kind === 'ask') return [];
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
  /** `pay` declares `idempotent: false`: it must never run twice. */
  payOnce?: boolean;
}

/** Build the planned tree's agents for one process, leaves first. */
export async function buildTree(
  plan: PlannedAgent,
  env: TreeEnvironment,
): Promise<ContinuableAgent<string, any>> {
  const children: ContinuableAgent<string, any>[] = [];
  for (const child of plan.children) children.push(await buildTree(child, env));
  const tools: ConformanceTool[] = [
    sideEffect('lookup', env),
    sideEffect('pay', env),
    sideEffect('confirm', env),
    {
      kind: 'human',
      name: 'ask',
      description: 'Ask a human; the answer is the result.',
      parameters: CALL_ARGS,
      response: ANSWER,
    },
    ...children.map(
      (agent, index): ConformanceTool => ({
        kind: 'agent',
        name: `agent_${index}`,
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
    ...(plan.everyTurns ? { suspendWhen: [everyTurns(plan.everyTurns)] } : {}),
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
      if (call.kind === 'agent') return { name: `agent_${call.child}`, args: { input: nonce } };
      return { name: call.kind, args: { n: nonce } };
    }),
  };
}

/** The arguments of the tools: the call's nonce. One schema, so its JSON Schema is made once. */
const CALL_ARGS = z.object({ n: z.string() });
/** A human's answer to `ask` and `confirm`. */
export const ANSWER = z.object({ answer: z.string() });

const DESCRIPTIONS = {
  lookup: 'Look something up.',
  pay: 'Pay someone (needs approval).',
  confirm: 'Ask a human to confirm, then act.',
};

function sideEffect(name: 'lookup' | 'pay' | 'confirm', env: TreeEnvironment): ConformanceTool {
  const { process, faults, ledger } = env;
  return {
    kind: 'function',
    name,
    description: DESCRIPTIONS[name],
    parameters: CALL_ARGS,
    needsApproval: name === 'pay',
    ...(name === 'pay' && env.payOnce ? { idempotent: false } : {}),
    async execute(args: { n: string }, ctx) {
      // A dead process starts nothing (its body hangs at its first point): only a live one counts.
      if (process.op?.takenOver && !process.dead) {
        faults.note(`  . ${name} ${args.n} started in process ${process.id} after its lease was taken over`);
        ledger.lapsedStarts.push({
          nonce: args.n,
          key: ctx.idempotencyKey,
          process: process.id,
          op: process.op.index,
        });
      }
      // The tool runs again from its start once answered: the side effect comes after the question.
      if (name === 'confirm') ANSWER.parse(await ctx.requestInput({ n: args.n }));
      await faults.point(process, `${name} ${args.n}:before`, { lapse: true });
      faults.note(`  . ${name} ${args.n} ran in process ${process.id} (key ${ctx.idempotencyKey})`);
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
