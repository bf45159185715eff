/**
 * A small agent for durability tests and benchmarks: its scripted model reads the plan from the
 * user's input, so any process given the same definition continues any run the same way.
 */
import {
  agentTool,
  type ContinuableAgentConfig,
  createContinuableAgent,
  type EngineAgent,
  type ToolContext,
  type ToolDefinition,
} from '@agent-continuations/core';
import { firstUserText, lastToolResults, scriptedModel, turnIndex } from './scripted-model';

/** What one run of the durable test agent does, given as its input (see {@link durablePlanInput}). */
export interface DurablePlan {
  /** How many tool-calling turns before the final answer. */
  steps: number;
  /** Turns (from 0) whose `charge` call needs a human's approval. */
  approvals?: number[];
  /** Bytes of filler text in each tool result, to size the transcript. */
  payload?: number;
}

/** Arguments of both tools of the durable test agent. */
export interface DurableToolArgs {
  n: number;
  approval: boolean;
  payload: number;
}

/** Options of {@link durableTestAgent}. */
export interface DurableTestAgentOptions {
  name?: string;
  /** The side effect of `charge` (even turns): make it idempotent with `ctx.idempotencyKey`. */
  charge: (args: DurableToolArgs, ctx: ToolContext) => unknown | Promise<unknown>;
  /** The side effect of `notify` (odd turns): a plain tool, at-least-once on a crash. */
  notify: (args: DurableToolArgs, ctx: ToolContext) => unknown | Promise<unknown>;
  suspendWhen?: ContinuableAgentConfig['suspendWhen'];
}

/** The input that makes the durable test agent follow `plan`. */
export function durablePlanInput(plan: DurablePlan): string {
  return JSON.stringify(plan);
}

/**
 * Build the durable test agent: on turn `i < steps` it calls `charge` (even `i`) or `notify`
 * (odd `i`) with `{ n: i }`, then answers `completed <steps> steps`.
 *
 * @example
 * ```ts
 * const agent = durableTestAgent({ charge: (args, ctx) => pay(ctx.idempotencyKey), notify: () => 'sent' });
 * await agent.run(durablePlanInput({ steps: 4, approvals: [0] }));
 * ```
 */
export function durableTestAgent(options: DurableTestAgentOptions): EngineAgent {
  const tool = (name: 'charge' | 'notify'): ToolDefinition<DurableToolArgs> => ({
    name,
    description: `The ${name} step of a durability test.`,
    inputSchema: {
      type: 'object',
      properties: { n: { type: 'integer' }, approval: { type: 'boolean' }, payload: { type: 'integer' } },
      required: ['n', 'approval', 'payload'],
    },
    needsApproval: (args) => args.approval,
    execute: async (args, ctx) => {
      const effect = await options[name](args, ctx);
      return { n: args.n, effect: effect ?? null, filler: 'x'.repeat(args.payload) };
    },
  });
  return createContinuableAgent({
    name: options.name ?? 'durable',
    instructions: 'Run the plan in the user message, one tool call per turn.',
    model: scriptedModel((request) => {
      const plan = JSON.parse(firstUserText(request.messages)) as DurablePlan;
      const turn = turnIndex(request.messages);
      if (turn >= plan.steps) return `completed ${plan.steps} steps`;
      const args = { n: turn, approval: plan.approvals?.includes(turn) ?? false, payload: plan.payload ?? 0 };
      return { toolCalls: [{ name: turn % 2 === 0 ? 'charge' : 'notify', args }] };
    }),
    tools: [tool('charge'), tool('notify')],
    ...(options.suspendWhen === undefined ? {} : { suspendWhen: options.suspendWhen }),
  });
}

/**
 * A parent for nested durability tests: on its first turn it hands the plan in its input to
 * `child` (the durable test agent) as a sub-agent through `agentTool`, then answers with the
 * child's output. A crash inside the child is recovered inside the child.
 *
 * @example
 * ```ts
 * const parent = durableParentAgent(durableTestAgent({ charge, notify }));
 * await runDurably(parent, log, durablePlanInput({ steps: 4, approvals: [0] }));
 * ```
 */
export function durableParentAgent(child: EngineAgent, name = 'durable-parent'): EngineAgent {
  return createContinuableAgent({
    name,
    instructions: 'Hand the plan in the user message to the worker sub-agent, then report its answer.',
    model: scriptedModel((request) => {
      if (turnIndex(request.messages) === 0)
        return { toolCalls: [{ name: 'worker', args: { input: firstUserText(request.messages) } }] };
      const output = lastToolResults(request.messages)[0]?.output;
      return typeof output === 'string' ? output : JSON.stringify(output);
    }),
    tools: [agentTool(child, { name: 'worker', description: 'Runs the plan of a durability test.' })],
  });
}
