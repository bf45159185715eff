/**
 * `continuable(agent)`: an existing `@openai/agents` `Agent` as a continuable agent. The core's
 * engine drives the loop; the agent's own model (through the SDK's model provider) makes each
 * step, its function tools run through their own `invoke`, and `needsApproval` decides approvals.
 * Handoffs run their target agents continuable, on the conversation so far. What the agent is set
 * to do that a continuable run cannot honour is refused here.
 */
import {
  type ContinuableAgentConfig,
  ContinuationError,
  createContinuableAgent,
  type EngineAgent,
  type PredicateContext,
  type SealConfig,
  type SuspendWhen,
} from '@agent-continuations/core';
import { toPredicates } from '@agent-continuations/core/adapter-kit';
import type { Agent, FunctionTool, ModelProvider } from '@openai/agents';
import { agentGuardrails, guardrailErrorOf } from './guardrails';
import { handoffTools } from './handoffs';
import { agentModelPort } from './model-port';
import { registerSubAgent, toEngineTools } from './tools';

/** Options of {@link continuable}. */
export interface ContinuableOptions {
  /** The name recorded in continuations; the agent's own `name` by default. */
  name?: string;
  description?: string;
  /**
   * The `maxTurns` of `run(agent, input, { maxTurns })`: after this many model calls in one `run`
   * or `resume`, the run suspends (predicate `maxTurns`) where the SDK would throw;
   * `resume(continuation, {})` grants as many again.
   */
  maxTurns?: number;
  /** The `context` of `run(agent, input, { context })`: tools and `needsApproval` get it in their `RunContext`. */
  context?: unknown;
  /** Makes the model from the agent's model name; the SDK's default provider (`OpenAIProvider`) otherwise. */
  modelProvider?: ModelProvider;
  /** Predicates checked before every model call; when one fires the run suspends. */
  suspendWhen?: SuspendWhen | readonly SuspendWhen[];
  /** The engine's step limit per `run` / `resume` (predicate `maxSteps`); the core's default otherwise. */
  maxSteps?: number;
  /** On a rejected call: tell the model and go on (default), or end the run as rejected. */
  onReject?: ContinuableAgentConfig['onReject'];
  /** Seal every continuation the agent emits and refuse unsealed or altered ones. */
  seal?: SealConfig;
}

/** What `asTool` of a continuable agent takes: the SDK's options it can honour. */
export interface ContinuableToolOptions {
  toolName?: string;
  toolDescription?: string;
  needsApproval?:
    | boolean
    | ((runContext: any, input: { input: string }, callId?: string) => Promise<boolean>);
}

/** A continuable `@openai/agents` agent. */
export interface OpenAIAgentsContinuable extends EngineAgent {
  /** The wrapped SDK agent. */
  readonly agent: Agent<any, any>;
  /**
   * The SDK's `agent.asTool()`, marked so that a continuable parent nests this agent's
   * suspensions in its own; an SDK parent runs it as the SDK would.
   */
  asTool(options?: ContinuableToolOptions): FunctionTool<any, any, string>;
}

const OPTIONS = new Set([
  'name',
  'description',
  'maxTurns',
  'context',
  'modelProvider',
  'suspendWhen',
  'maxSteps',
  'onReject',
  'seal',
]);
const TOOL_OPTIONS = new Set(['toolName', 'toolDescription', 'needsApproval']);

/**
 * Make an `@openai/agents` agent continuable: it suspends for `needsApproval` tools, human input,
 * suspended sub-agents and predicates, and resumes from the JSON continuation in any process.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'bank', instructions: 'You move money.', tools: [transfer] });
 * const bank = continuable(agent);
 * const result = await bank.run('Send 50 EUR to Bob');
 * if (result.status === 'suspended') {
 *   // save result.continuation; later, in any process:
 *   await bank.resume(saved, { [result.actions[0]!.id]: { type: 'approve', by: 'ann' } });
 * }
 * ```
 */
export function continuable(
  agent: Agent<any, any>,
  options: ContinuableOptions = {},
): OpenAIAgentsContinuable {
  const wrapped = wrapAgent(agent, options, new Map());
  // Inside, a guardrail's tripwire is a model call's failure, which ends the run at any depth;
  // the caller gets the SDK's own error, as from its Runner.
  const thrown = (error: unknown) => {
    throw guardrailErrorOf(error);
  };
  return {
    ...wrapped,
    run: (input, runOptions) => wrapped.run(input, runOptions).catch(thrown),
    resume: (continuation, decisions, runOptions) =>
      wrapped.resume(continuation, decisions, runOptions).catch(thrown),
    stream: (input, runOptions) => {
      const run = wrapped.stream(input, runOptions);
      const result = run.result.catch(thrown);
      result.catch(() => {});
      return {
        result,
        async *[Symbol.asyncIterator]() {
          try {
            yield* run;
          } catch (error) {
            thrown(error);
          }
        },
      };
    },
  };
}

/** Wrap `agent`, and (through `graph`, once each) the agents it hands off to. */
function wrapAgent(
  agent: Agent<any, any>,
  options: ContinuableOptions,
  graph: Map<Agent<any, any>, OpenAIAgentsContinuable>,
): OpenAIAgentsContinuable {
  const known = graph.get(agent);
  if (known) return known;
  checkAgent(agent);
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && !OPTIONS.has(key)) {
      refuse(
        `continuable() does not know the option "${key}", so it would be dropped: remove it (the options are ${[...OPTIONS].join(', ')}).`,
      );
    }
  }
  const limit = options.maxTurns;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    refuse(`maxTurns must be a whole number >= 1, not ${limit}.`);
  const name = options.name ?? agent.name;
  const { tools, strict } = toEngineTools(agent, { context: options.context });
  // A target runs with the same settings, under its own name.
  const { name: _name, description: _description, ...inherited } = options;
  const handedOff = handoffTools(agent, (target) => wrapAgent(target, inherited, graph), options.context);
  const engine = createContinuableAgent({
    name,
    framework: 'openai-agents',
    model: agentModelPort(agent, {
      strictTools: strict,
      handoffs: handedOff.handoffs,
      guardrails: agentGuardrails(agent, options.context),
      context: options.context,
      ...(options.modelProvider ? { modelProvider: options.modelProvider } : {}),
    }),
    tools: [...tools, ...handedOff.tools],
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(agent.instructions ? { instructions: agent.instructions as string } : {}),
    suspendWhen: [
      ...toPredicates(options.suspendWhen),
      ...(limit === undefined
        ? []
        : [
            {
              name: 'maxTurns',
              check: ({ step, segment }: PredicateContext) => step - segment.step >= limit,
            },
          ]),
    ],
    ...(options.onReject === undefined ? {} : { onReject: options.onReject }),
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    ...(options.seal === undefined ? {} : { seal: options.seal }),
  });
  const wrapped: OpenAIAgentsContinuable = {
    ...engine,
    agent,
    asTool(toolOptions: ContinuableToolOptions = {}) {
      for (const [key, value] of Object.entries(toolOptions)) {
        if (value !== undefined && !TOOL_OPTIONS.has(key)) {
          refuse(
            `asTool() of a continuable agent cannot honour "${key}": the options it takes are ${[...TOOL_OPTIONS].join(', ')}.`,
          );
        }
      }
      return registerSubAgent(agent.asTool(toolOptions as never) as FunctionTool<any, any, string>, wrapped);
    },
  };
  graph.set(agent, wrapped);
  // Every agent a handoff reaches is checked now, not when the run first hands off to it.
  for (const tool of handedOff.tools) void tool.agent;
  return wrapped;
}

/** Refuse, before anything runs, an agent setting a continuable run would drop. */
function checkAgent(agent: Agent<any, any>): void {
  if (
    typeof agent !== 'object' ||
    agent === null ||
    !Array.isArray(agent.tools) ||
    typeof agent.name !== 'string'
  ) {
    refuse('continuable() takes an @openai/agents Agent.');
  }
  const said = (setting: string, instead: string) =>
    refuse(`Agent "${agent.name}" cannot honour ${setting}: ${instead}.`);
  if (typeof agent.instructions === 'function')
    said(
      'instructions given as a function',
      'a resumed run must send the same instructions; give them as a string',
    );
  if (agent.prompt !== undefined) said('a prompt', 'give the instructions as a string');
  if (agent.mcpServers.length > 0) said('MCP servers', 'wrap what the agent needs in function tools');
  if (agent.outputType !== 'text')
    said('an outputType', 'a continuable run completes with the text answer; parse it after the run');
  if (agent.toolUseBehavior !== 'run_llm_again')
    said(
      `toolUseBehavior ${JSON.stringify(agent.toolUseBehavior)}`,
      "the model always sees the tools' results; remove it",
    );
  const choice = agent.modelSettings.toolChoice;
  if (choice !== undefined && choice !== 'auto' && choice !== 'none')
    said(
      `modelSettings.toolChoice ${JSON.stringify(choice)}`,
      'it forces a tool call on every model call, so the run could never complete; use "auto"',
    );
}

function refuse(message: string): never {
  throw new ContinuationError('INVALID_OPERATION', message);
}
