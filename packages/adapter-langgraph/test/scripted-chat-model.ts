/**
 * A LangChain chat model driven by a neutral Script: it converts the LangChain messages it gets to
 * neutral ones, asks the script, and answers with the script's reply as an `AIMessage`.
 */
import type { ModelRequest, ToolSpec } from '@agent-continuations/core';
import { type Script, type ScriptedTurn, toResponse, turnIndex } from '@agent-continuations/testing';
import { BaseChatModel, type BaseChatModelParams } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { fromLangChainMessages, toLangChainMessages } from '../src/messages';

export class ScriptedChatModel extends BaseChatModel {
  readonly requests: ModelRequest[];
  private readonly script: Script;
  private readonly tools: ToolSpec[];

  constructor(
    script: Script,
    tools: ToolSpec[] = [],
    requests: ModelRequest[] = [],
    params: BaseChatModelParams = {},
  ) {
    super(params);
    this.script = script;
    this.tools = tools;
    this.requests = requests;
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: unknown[]): this {
    const specs = (tools as StructuredToolInterface[]).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: toJsonSchema(tool.schema as never) as Record<string, unknown>,
    }));
    return new ScriptedChatModel(this.script, specs, this.requests) as this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const neutral = fromLangChainMessages(messages);
    const system = neutral[0]?.role === 'system' ? neutral[0] : undefined;
    const rest = system ? neutral.slice(1) : neutral;
    const request: ModelRequest = {
      ...(system ? { instructions: system.content } : {}),
      messages: rest,
      tools: this.tools,
      step: turnIndex(rest),
    };
    this.requests.push(request);
    const turn: ScriptedTurn =
      typeof this.script === 'function'
        ? this.script
        : (this.script as readonly ScriptedTurn[])[turnIndex(rest)]!;
    if (turn === undefined) throw new Error(`The script has no turn ${turnIndex(rest) + 1}.`);
    const reply = typeof turn === 'function' ? turn(request) : turn;
    const response = toResponse(reply, turnIndex(rest));
    const [message] = toLangChainMessages([response.message]);
    const usage = response.usage ?? {};
    Object.assign(message!, {
      usage_metadata: {
        input_tokens: usage.inputTokens ?? 0,
        output_tokens: usage.outputTokens ?? 0,
        total_tokens: usage.totalTokens ?? 0,
      },
    });
    return { generations: [{ text: '', message: message! }] };
  }
}
