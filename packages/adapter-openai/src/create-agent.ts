/**
 * `createAgent`: an agent over the user's own OpenAI client that can suspend and resume as a JSON
 * continuation. The loop is the core's engine; this adapter supplies the model port and tools.
 */
import {
  type AgentStream,
  type ContinuableAgentConfig,
  type Continuation,
  ContinuationError,
  createContinuableAgent,
  type Decisions,
  type EngineAgent,
  type Message,
  type PredicateContext,
  type RunOptions,
  type RunResult,
  type SealConfig,
  type StreamInput,
  type SuspendWhen,
} from '@agent-continuations/core';
import { toPredicates } from '@agent-continuations/core/adapter-kit';
import type OpenAI from 'openai';
import { chatModel, type ModelSettings } from './chat-model';
import { checkConfig } from './config-check';
import { responsesModel } from './responses-model';
import { outputParser, withParsedOutput } from './structured-output';
import { type OpenAIAgentTool, toEngineTool } from './tool';

/** Configuration of {@link createAgent}. */
export interface OpenAIAgentConfig<Settings extends ModelSettings = ModelSettings> {
  /** The user's own client: its base URL, key, retries and timeouts apply to every call. */
  client: OpenAI;
  /** The model name sent with every request. */
  model: string;
  /** The agent's name, recorded in continuations; a resuming agent must have the same. */
  name: string;
  description?: string;
  /** The system prompt (chat) or `instructions` (responses), sent on every call. */
  instructions?: string;
  /** Tools made with `tool`, `humanTool`, `agentTool`, or plain OpenAI function tools with an `execute`. */
  tools?: readonly OpenAIAgentTool[];
  /** Which API the agent calls: Chat Completions (default) or Responses. */
  api?: 'chat' | 'responses';
  /** Predicates checked before every model call; when one fires the run suspends. */
  suspendWhen?: SuspendWhen | readonly SuspendWhen[];
  /**
   * Passed through with every request: `temperature`, `max_tokens`, `reasoning`, `store`, ...
   * A `json_schema` response format (`response_format` for chat, `text.format` for responses,
   * e.g. `zodResponseFormat(schema, 'name')`) makes a completed run's `output` the parsed value.
   */
  modelSettings?: Settings;
  /**
   * `runTools`' `maxChatCompletions`: after this many model calls in one `run` or `resume`, the run
   * suspends (predicate `maxChatCompletions`); `resume(continuation, {})` grants as many again.
   */
  maxChatCompletions?: number;
  /** The engine's step limit per `run` / `resume` (predicate `maxSteps`); the core's default otherwise. */
  maxSteps?: number;
  /**
   * Seal every continuation the agent emits and refuse, before anything runs, one that is
   * unsealed or altered (`SEAL_MISSING`, `SEAL_MISMATCH`); `previous` secrets still verify.
   */
  seal?: SealConfig;
  /** The third argument of every `runTools`-shaped tool's handler, as `runTools({ toolContext })` passes it. */
  toolContext?: unknown;
  /** On a rejected call: tell the model and go on (default), or end the run as rejected. */
  onReject?: ContinuableAgentConfig['onReject'];
  /** A tool that throws: its message goes to the model as an error result (default), or the run throws. */
  toolErrors?: ContinuableAgentConfig['toolErrors'];
}

/**
 * Wrap an OpenAI client and tools into a continuable agent: `run`, `resume` and `stream`, with
 * approvals, human input, nested agents and suspension predicates.
 *
 * @example
 * ```ts
 * const agent = createAgent({
 *   client: new OpenAI(),
 *   model: 'gpt-4.1-mini',
 *   name: 'accounts',
 *   instructions: 'You help with bank accounts.',
 *   tools: [lookupAccount, transfer],
 * });
 * const result = await agent.run('Send 50 EUR from A1 to B2');
 * if (result.status === 'suspended') {
 *   // save result.continuation; later, in any process:
 *   await agent.resume(saved, { [result.actions[0].id]: { type: 'approve', by: 'ann' } });
 * }
 * ```
 */
export function createAgent<const Settings extends ModelSettings = ModelSettings>(
  config: OpenAIAgentConfig<Settings>,
): OpenAIAgent<OutputOf<Settings>> {
  type Output = OutputOf<Settings>;
  const api = config.api ?? 'chat';
  check(config !== null && typeof config === 'object', 'createAgent needs a configuration object.');
  check(typeof config.name === 'string' && config.name.length > 0, 'createAgent needs a non-empty `name`.');
  check(
    typeof config.model === 'string' && config.model.length > 0,
    `Agent "${config.name}" needs a non-empty \`model\` name.`,
  );
  check(
    api === 'chat' || api === 'responses',
    `Agent "${config.name}": \`api\` must be 'chat' or 'responses', not ${JSON.stringify(api)}.`,
  );
  const client = config.client as Partial<OpenAI> | undefined;
  const endpoint = api === 'chat' ? client?.chat?.completions?.create : client?.responses?.create;
  check(
    typeof endpoint === 'function',
    `Agent "${config.name}" needs an OpenAI client (\`new OpenAI()\`) with the ${api === 'chat' ? 'chat.completions' : 'responses'} API.`,
  );
  check(
    config.tools === undefined || Array.isArray(config.tools),
    `Agent "${config.name}": \`tools\` must be an array.`,
  );
  checkConfig(config as OpenAIAgentConfig, api);

  const tools = (config.tools ?? []).map((tool) => toEngineTool(tool, { toolContext: config.toolContext }));
  const ports = { strictTools: new Set(tools.filter((tool) => tool.strict).map((tool) => tool.name)) };
  const model =
    api === 'chat'
      ? chatModel(config.client, config.model, config.modelSettings, ports)
      : responsesModel(config.client, config.model, config.modelSettings, ports);
  const limit = config.maxChatCompletions;
  const engine = createContinuableAgent({
    name: config.name,
    framework: 'openai',
    model,
    tools,
    ...(config.description === undefined ? {} : { description: config.description }),
    ...(config.instructions === undefined ? {} : { instructions: config.instructions }),
    suspendWhen: [
      ...toPredicates(config.suspendWhen),
      ...(limit === undefined
        ? []
        : [
            {
              name: 'maxChatCompletions',
              check: ({ step, segment }: PredicateContext) => step - segment.step >= limit,
            },
          ]),
    ],
    ...(config.onReject === undefined ? {} : { onReject: config.onReject }),
    ...(config.toolErrors === undefined ? {} : { toolErrors: config.toolErrors }),
    ...(config.maxSteps === undefined ? {} : { maxSteps: config.maxSteps }),
    ...(config.seal === undefined ? {} : { seal: config.seal }),
  });
  const parse = outputParser(api, config.modelSettings);
  if (!parse) return engine as unknown as OpenAIAgent<Output>;
  const parsed = (result: RunResult<string>) => withParsedOutput<Output>(result, parse);
  return {
    ...engine,
    run: async (input, options) => parsed(await engine.run(input, options)),
    resume: async (continuation, decisions, options) =>
      parsed(await engine.resume(continuation, decisions, options)),
    stream(input, options) {
      const inner = engine.stream(input, options);
      const result = inner.result.then(parsed);
      result.catch(() => {});
      return {
        result,
        async *[Symbol.asyncIterator]() {
          for await (const event of inner) {
            if (event.type === 'result' && !event.path) yield { type: 'result', result: await result };
            else yield event as never;
          }
        },
      };
    },
  };
}

/** A continuable OpenAI agent: the engine's agent, whose completed `output` is typed by the response format. */
export interface OpenAIAgent<Output = string> extends Omit<EngineAgent, 'run' | 'resume' | 'stream'> {
  run(input: string | Message[], options?: RunOptions): Promise<RunResult<Output>>;
  resume(
    continuation: Continuation | string,
    decisions?: Decisions,
    options?: RunOptions,
  ): Promise<RunResult<Output>>;
  /** Run or resume while yielding text deltas and tool events; the last event carries the result. */
  stream(input: StreamInput, options?: RunOptions): AgentStream<Output>;
}

/** The completed output of an agent's model settings: the response format's parsed type, or the text. */
export type OutputOf<Settings> = Settings extends { response_format: infer Format }
  ? FormatOutput<Format>
  : Settings extends { text: { format: infer Format } }
    ? FormatOutput<Format>
    : string;

type FormatOutput<Format> = Format extends { __output: infer Parsed }
  ? Parsed
  : Format extends { type: 'json_schema' }
    ? unknown
    : string;

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ContinuationError('INVALID_OPERATION', message);
}
