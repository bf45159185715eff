/**
 * `continuable()`: an existing `ToolLoopAgent`, or the settings of a `generateText` call, as a
 * continuable agent. The core's engine drives the loop; the AI SDK makes each model step.
 */
import {
  type AgentStream,
  type ContinuableAgent,
  type Continuation,
  ContinuationError,
  createContinuableAgent,
  type Decisions,
  type EngineAgent,
  type RunOptions,
  type RunResult,
  type SuspendWhen,
} from '@agent-continuations/core';
import type { ModelMessage, Tool } from 'ai';
import { type AnySettings, agentSettings, instructionsOf, isSdkAgent } from './compat';
import { toNeutralMessages } from './messages';
import { createModelPort } from './model-port';
import { toEngineTools } from './tools';

/** Options of {@link continuable}. */
export interface ContinuableOptions {
  /** The agent's name: continuations record it, and only an agent of this name resumes them. */
  name: string;
  /** Shown to a parent model when this agent is a tool (see `agentTool`). */
  description?: string;
  /** Predicates checked before every model call (`everyTurns`, `maxTokens`, `onAbort`, ...). */
  suspendWhen?: SuspendWhen | readonly SuspendWhen[];
  /** On a rejected call: tell the model and go on (default), or end the run as rejected. */
  onReject?: 'continue' | 'end';
  /** A tool that throws: its message goes to the model (default), or the run throws. */
  toolErrors?: 'model' | 'throw';
}

/** A run's input: a prompt, or an AI SDK conversation. */
export type VercelAgentInput = string | ModelMessage[];

/** What `stream()` accepts: a new input, or a continuation with decisions. */
export type VercelStreamInput =
  | VercelAgentInput
  | { continuation: Continuation | string; decisions?: Decisions };

/** A continuable AI SDK agent. */
export interface VercelContinuableAgent extends ContinuableAgent<VercelAgentInput, string> {
  readonly framework: 'vercel-ai';
  /** Run or resume while yielding text deltas and tool events; the last event carries the result. */
  stream(input: VercelStreamInput, options?: RunOptions): AgentStream<string>;
  checkDecisions(continuation: Continuation, decisions: Decisions): Promise<void>;
}

/** The settings `continuable()` reads: those of `generateText`, or of a `ToolLoopAgent`. */
export type ContinuableSettings = { model: unknown; tools?: Record<string, Tool> } & Record<string, unknown>;

/**
 * Make an AI SDK agent continuable: it suspends for approvals, human input, suspended sub-agents
 * and predicates, and resumes from the JSON continuation in any process.
 *
 * @example
 * ```ts
 * const agent = continuable(
 *   new ToolLoopAgent({ model: openai('gpt-4.1'), instructions: 'You run payments.', tools: { transfer } }),
 *   { name: 'payments' },
 * );
 * const result = await agent.run('Send 50 EUR to Bob');
 * if (result.status === 'suspended') {
 *   await fs.writeFile('run.json', serializeContinuation(result.continuation));
 *   // later, anywhere:
 *   await agent.resume(await fs.readFile('run.json', 'utf8'), { [result.actions[0]!.id]: { type: 'approve' } });
 * }
 * ```
 */
export function continuable(
  agentOrSettings: { version: 'agent-v1' } | ContinuableSettings,
  options: ContinuableOptions,
): VercelContinuableAgent {
  if (typeof options?.name !== 'string' || options.name.length === 0) {
    throw new ContinuationError('INVALID_OPERATION', 'continuable() needs options.name, a non-empty string.');
  }
  if (typeof agentOrSettings !== 'object' || agentOrSettings === null) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'continuable() takes a ToolLoopAgent or generateText settings.',
    );
  }
  const settings: AnySettings = isSdkAgent(agentOrSettings)
    ? agentSettings(agentOrSettings)
    : agentOrSettings;
  if (!settings.model) throw new ContinuationError('INVALID_OPERATION', 'The agent settings have no model.');
  for (const [name, tool] of Object.entries(settings.tools ?? {})) {
    if (typeof tool !== 'object' || tool === null || !('inputSchema' in tool)) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `Tool "${name}" is not an AI SDK tool (it has no inputSchema).`,
      );
    }
  }

  let engine: Promise<EngineAgent> | undefined;
  const getEngine = () => {
    engine ??= toEngineTools(settings).then((tools) =>
      createContinuableAgent({
        name: options.name,
        framework: 'vercel-ai',
        ...(options.description === undefined ? {} : { description: options.description }),
        ...fingerprintInstructions(instructionsOf(settings)),
        model: createModelPort(settings),
        tools,
        ...(options.suspendWhen === undefined ? {} : { suspendWhen: options.suspendWhen }),
        ...(options.onReject === undefined ? {} : { onReject: options.onReject }),
        ...(options.toolErrors === undefined ? {} : { toolErrors: options.toolErrors }),
      }),
    );
    return engine;
  };

  return {
    name: options.name,
    framework: 'vercel-ai',
    ...(options.description === undefined ? {} : { description: options.description }),
    run: async (input, runOptions) => (await getEngine()).run(toNeutralInput(input), runOptions),
    resume: async (continuation, decisions, runOptions): Promise<RunResult<string>> =>
      (await getEngine()).resume(continuation, decisions, runOptions),
    checkDecisions: async (continuation, decisions) =>
      (await getEngine()).checkDecisions(continuation, decisions),
    stream(input, runOptions) {
      const inner = getEngine().then((agent) =>
        agent.stream(
          typeof input === 'string' || Array.isArray(input) ? toNeutralInput(input) : input,
          runOptions,
        ),
      );
      const result = inner.then((stream) => stream.result);
      // The iterator reports failures; an unobserved `result` must not crash the process.
      result.catch(() => {});
      return {
        result,
        async *[Symbol.asyncIterator]() {
          yield* await inner;
        },
      };
    },
  };
}

function toNeutralInput(input: VercelAgentInput) {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'A run takes a prompt string or an array of AI SDK messages.',
    );
  }
  return toNeutralMessages(input);
}

/**
 * The instructions as text, for the agent's fingerprint. The SDK receives them in their own form
 * (string, or system messages with provider options) from the model port.
 */
function fingerprintInstructions(instructions: unknown): { instructions?: string } {
  if (instructions === undefined) return {};
  if (typeof instructions === 'string') return { instructions };
  const list = Array.isArray(instructions) ? instructions : [instructions];
  return {
    instructions: list.map((message: { content?: unknown }) => String(message.content ?? '')).join('\n'),
  };
}
