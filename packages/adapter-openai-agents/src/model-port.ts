/**
 * The core's model port over the SDK's own `Model`: the agent's configured model, or the one its
 * model provider (the SDK's default `OpenAIProvider` unless given) makes from the model name. The
 * request goes out as the SDK's `Runner` would send it: the SDK model turns it into Chat
 * Completions or Responses calls on the wire. Handoffs go out as the SDK's handoffs; the call after
 * a handoff is answered with the target agent's answer, as the SDK's run ends with it.
 */
import type {
  ModelPort,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolCallPart,
  Usage,
} from '@agent-continuations/core';
import { queuedRun } from '@agent-continuations/core/adapter-kit';
import {
  type Agent,
  getOrCreateTrace,
  type Handoff,
  type Model,
  type ModelProvider,
  RunContext,
  Runner,
  type ModelRequest as SdkModelRequest,
  type ModelResponse as SdkModelResponse,
} from '@openai/agents';
import type { AgentGuardrails } from './guardrails';
import { handedOffAnswer } from './handoffs';
import { fromAgentOutput, toAgentItems } from './messages';

/** How the port reaches the model. */
export interface PortOptions {
  /** Makes the model from the agent's model name; the SDK's default provider otherwise. */
  modelProvider?: ModelProvider;
  /** Names of the tools to send with `strict: true` (the SDK's own default for its tools). */
  strictTools: ReadonlySet<string>;
  /** The agent's handoffs by tool name: sent as the SDK sends handoffs, and answered by their target. */
  handoffs?: ReadonlyMap<string, Handoff<any, any>>;
  /** The agent's input and output guardrails, run around its model calls as the SDK's `Runner` runs them. */
  guardrails?: AgentGuardrails;
  /** The run's `context`, as the SDK's `RunContext` of a handoff's `isEnabled`. */
  context?: unknown;
}

/**
 * A model port over an `@openai/agents` agent's model and model settings.
 *
 * @example
 * ```ts
 * const port = agentModelPort(new Agent({ name: 'a', model: 'gpt-4.1' }), { strictTools: new Set() });
 * ```
 */
export function agentModelPort(agent: Agent<any, any>, options: PortOptions): ModelPort {
  const handoffs = options.handoffs ?? new Map<string, Handoff<any, any>>();
  const names = new Set(handoffs.keys());
  let resolved: Promise<Model> | undefined;
  const model = () => {
    resolved ??= Promise.resolve(
      typeof agent.model === 'object'
        ? agent.model
        : (options.modelProvider ?? new Runner().config.modelProvider).getModel(agent.model || undefined),
    );
    return resolved;
  };
  /** The handoffs offered this call: each whose `isEnabled` says so now, as the SDK asks it every turn. */
  const offered = async (req: ModelRequest) => {
    if (handoffs.size === 0) return [];
    const runContext = new RunContext(options.context);
    const made = req.tools.flatMap((tool) => handoffs.get(tool.name) ?? []);
    const enabled = await Promise.all(made.map((one) => one.isEnabled({ runContext, agent })));
    return made
      .filter((_, index) => enabled[index])
      .map((one) => ({
        toolName: one.toolName,
        toolDescription: one.toolDescription,
        inputJsonSchema: one.inputJsonSchema,
        strictJsonSchema: one.strictJsonSchema,
      }));
  };
  const request = async (req: ModelRequest): Promise<SdkModelRequest> => ({
    ...(req.instructions === undefined ? {} : { systemInstructions: req.instructions }),
    input: toAgentItems(req.messages),
    modelSettings: { ...agent.modelSettings },
    tools: req.tools
      .filter((tool) => !handoffs.has(tool.name))
      .map((tool) => ({
        type: 'function' as const,
        name: tool.name,
        description: tool.description ?? '',
        parameters: tool.inputSchema as never,
        strict: options.strictTools.has(tool.name),
      })),
    outputType: 'text',
    handoffs: await offered(req),
    tracing: false,
    ...(req.signal ? { signal: req.signal } : {}),
  });

  const guardrails = options.guardrails;
  /** The final answer's output guardrails (a handoff's answer was the target's, and guarded there). */
  const guardOutput = async (response: ModelResponse, sdk: SdkModelResponse) => {
    if (!guardrails || response.finishReason === 'tool-calls') return;
    await guardrails.checkOutput(textOf(response), sdk);
  };

  return {
    async generate(req) {
      const answer = handedOffAnswer(req.messages, names);
      if (answer !== undefined) return answered(answer);
      const guarded = guardrails?.guardsInput(req.messages) ?? false;
      if (guarded) await guardrails!.checkInput(req.messages, true);
      // Input guardrails that run beside the call: a tripwire discards its answer, and one that
      // tripped while the call was being prepared stops it from going out.
      let tripped: { error: unknown } | undefined;
      const beside = guarded
        ? guardrails!.checkInput(req.messages, false).catch((error: unknown) => {
            tripped = { error };
            throw error;
          })
        : undefined;
      beside?.catch(() => {});
      const sdkModel = await model();
      if (tripped) throw tripped.error;
      // The SDK's models record their calls in the current trace, as under its Runner.
      const call = getOrCreateTrace(async () => sdkModel.getResponse(await request(req)), {
        name: agent.name,
      });
      const [made, checked] = await Promise.allSettled([call, beside]);
      if (checked.status === 'rejected') throw checked.reason;
      if (made.status === 'rejected') throw made.reason;
      const sdk = made.value;
      const response = toModelResponse(sdk);
      await guardOutput(response, sdk);
      return response;
    },
    stream(req): AsyncIterable<ModelStreamEvent> {
      // The whole stream is read inside the trace, as the SDK's Runner reads it.
      const answer = handedOffAnswer(req.messages, names);
      return queuedRun<ModelStreamEvent, void>(async (push) => {
        if (answer !== undefined) {
          push({ type: 'text-delta', delta: answer });
          push({ type: 'finish', response: answered(answer) });
          return;
        }
        // A streamed call checks the whole input first: nothing streams past a tripwire.
        if (guardrails?.guardsInput(req.messages)) {
          await guardrails.checkInput(req.messages, true);
          await guardrails.checkInput(req.messages, false);
        }
        await getOrCreateTrace(
          async () => {
            const sdkModel = await model();
            for await (const event of sdkModel.getStreamedResponse(await request(req))) {
              if (event.type === 'output_text_delta') push({ type: 'text-delta', delta: event.delta });
              else if (event.type === 'response_done') {
                const sdk = event.response as unknown as SdkModelResponse;
                const response = toModelResponse(sdk);
                for (const part of response.message.content as ToolCallPart[])
                  if (part.type === 'tool-call') push({ type: 'tool-call', toolCall: part });
                await guardOutput(response, sdk);
                push({ type: 'finish', response });
                return;
              }
            }
            throw new Error('The model stream ended before the response was done.');
          },
          { name: agent.name },
        );
      });
    },
  };
}

/** The text of an answer. */
function textOf(response: ModelResponse): string {
  const { content } = response.message;
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The run's answer after a handoff: the target's, with no model call. */
function answered(text: string) {
  return {
    message: { role: 'assistant' as const, content: [{ type: 'text' as const, text }] },
    finishReason: 'stop' as const,
  };
}

function toModelResponse(response: SdkModelResponse) {
  const message = fromAgentOutput(response.output);
  const usage: Partial<Usage> | undefined = response.usage
    ? {
        inputTokens: response.usage.inputTokens,
        outputTokens: response.usage.outputTokens,
        totalTokens: response.usage.totalTokens,
      }
    : undefined;
  const calls = (message.content as { type: string }[]).some((part) => part.type === 'tool-call');
  return { message, ...(usage ? { usage } : {}), finishReason: calls ? 'tool-calls' : 'stop' };
}
