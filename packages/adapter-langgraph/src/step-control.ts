/**
 * What the adapter hooks into a LangGraph run: a callback handler that counts model calls, usage
 * and unanswered tool calls, and the drain control that fires suspension predicates.
 */
import {
  addUsage,
  type PredicateContext,
  type SuspendPredicate,
  type Usage,
} from '@agent-continuations/core';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import { RunControl } from '@langchain/langgraph';
import { callIdsIn, makeCallIdsUnique } from './call-ids';

/** Counts model calls and their token usage while a segment runs. */
export class ModelCallCounter extends BaseCallbackHandler {
  name = 'agent-continuations-model-counter';
  // Counted before the next step boundary is checked, never in the background.
  override awaitHandlers = true;
  calls = 0;
  usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  /** What the last model call was sent. */
  lastInput: BaseMessage[] = [];

  /** Tool-call ids each running model call's input already uses, by its run id. */
  readonly #taken = new Map<string, Set<string>>();

  override async handleChatModelStart(
    _llm: unknown,
    messages: BaseMessage[][],
    runId: string,
  ): Promise<void> {
    this.lastInput = messages[0] ?? [];
    this.#taken.set(runId, callIdsIn(this.lastInput));
  }

  /** Tool calls of the last model turn that have no result yet: predicates wait until they do. */
  readonly outstanding = new Set<string>();

  override async handleLLMEnd(output: LLMResult, runId: string): Promise<void> {
    this.calls += 1;
    const generation = output.generations[0]?.[0] as
      | { message?: { usage_metadata?: Record<string, number>; tool_calls?: Array<{ id?: string }> } }
      | undefined;
    // Before anything reads the calls: the very message the model node returns.
    const taken = this.#taken.get(runId);
    this.#taken.delete(runId);
    if (generation?.message && taken) makeCallIdsUnique(generation.message as AIMessage, taken);
    this.outstanding.clear();
    for (const call of generation?.message?.tool_calls ?? []) if (call.id) this.outstanding.add(call.id);
    const meta = generation?.message?.usage_metadata;
    const tokenUsage = (output.llmOutput?.tokenUsage ?? {}) as Record<string, number>;
    const input = meta?.input_tokens ?? tokenUsage.promptTokens ?? 0;
    const out = meta?.output_tokens ?? tokenUsage.completionTokens ?? 0;
    this.usage = addUsage(this.usage, {
      inputTokens: input,
      outputTokens: out,
      totalTokens: meta?.total_tokens ?? input + out,
    });
  }

  /** Errors the model calls of this segment failed with: an error that ends the run is one of them, or not. */
  readonly modelErrors = new Set<unknown>();

  override async handleLLMError(error: unknown, runId: string): Promise<void> {
    this.#taken.delete(runId);
    this.modelErrors.add(error);
  }

  /** True when `error` (or an error it wraps) is one a model call failed with. */
  isModelError(error: unknown): boolean {
    for (let at = error, depth = 0; at !== undefined && at !== null && depth < 8; depth++) {
      if (this.modelErrors.has(at)) return true;
      at = (at as { cause?: unknown }).cause;
    }
    return false;
  }

  /** Called once the last turn's tool calls all have results: the next boundary precedes a model call. */
  onSettled?: () => Promise<void>;

  override async handleToolEnd(output: unknown): Promise<void> {
    const id = (output as { tool_call_id?: unknown } | undefined)?.tool_call_id;
    if (typeof id !== 'string' || !this.outstanding.delete(id)) return;
    if (this.outstanding.size === 0) await this.onSettled?.();
  }
}

/**
 * LangGraph's drain control, asked at every step boundary: it drains (and the run suspends) when
 * a predicate fires at a boundary where no tool call waits. The boundary check is synchronous, so
 * an async predicate is answered by {@link PredicateControl.prepare} beforehand (when the run
 * starts, and when a turn's tool calls have all finished) and the boundary reads that answer.
 */
export class PredicateControl extends RunControl {
  fired: string[] = [];
  #skip: boolean;
  readonly #prepared = new Map<string, boolean>();

  constructor(
    private readonly predicates: readonly SuspendPredicate[],
    skipFirst: boolean,
    private readonly beforeModelCall: () => boolean,
    private readonly context: () => PredicateContext,
  ) {
    super();
    this.#skip = skipFirst;
  }

  override get drainRequested(): boolean {
    if (super.drainRequested) return true;
    if (this.predicates.length === 0) return false;
    if (this.#skip) {
      this.#skip = false;
      return false;
    }
    // As in every adapter, predicates are checked before a model call: not while tool calls wait.
    if (!this.beforeModelCall()) return false;
    const context = this.context();
    for (const predicate of this.predicates) {
      const answer = predicate.check(context);
      if (answer instanceof Promise) {
        // Read in prepare(); this call's own answer is not waited for.
        answer.catch(() => undefined);
        if (this.#prepared.get(predicate.name)) this.fired.push(predicate.name);
      } else if (answer) this.fired.push(predicate.name);
    }
    if (this.fired.length > 0) this.requestDrain(this.fired.join(','));
    return this.fired.length > 0;
  }

  /** Answer the async predicates for the next boundary. */
  async prepare(): Promise<void> {
    if (this.predicates.length === 0) return;
    const context = this.context();
    for (const predicate of this.predicates) {
      const answer = predicate.check(context);
      if (answer instanceof Promise) this.#prepared.set(predicate.name, await answer);
    }
  }
}
