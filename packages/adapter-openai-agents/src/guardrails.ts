/**
 * An agent's own input and output guardrails, run where the SDK's `Runner` runs them: the input
 * guardrails on the run's input at the agent's first model call (those with `runInParallel: false`
 * before the call, the others beside it), the output guardrails on its final answer. A tripwire
 * throws the SDK's own `InputGuardrailTripwireTriggered` or `OutputGuardrailTripwireTriggered`, a
 * guardrail that fails `GuardrailExecutionError`, as under the `Runner`.
 */
import { isContinuationError, type Message } from '@agent-continuations/core';
import {
  type Agent,
  GuardrailExecutionError,
  type GuardrailFunctionOutput,
  InputGuardrailTripwireTriggered,
  type ModelResponse,
  OutputGuardrailTripwireTriggered,
  RunContext,
} from '@openai/agents';
import { toAgentItems } from './messages';

/** The guardrails of one agent, bound to the run's context. */
export interface AgentGuardrails {
  /** Whether the call about to be made is the agent's first on the run's input. */
  guardsInput(messages: readonly Message[]): boolean;
  /** Run the input guardrails: `blocking` ones (`runInParallel: false`) or the others. */
  checkInput(messages: readonly Message[], blocking: boolean): Promise<void>;
  /** Run the output guardrails on the agent's final answer. */
  checkOutput(answer: string, modelResponse: ModelResponse): Promise<void>;
}

/**
 * The guardrails of `agent`, run with `context` as the SDK's `RunContext`.
 *
 * @example
 * ```ts
 * const guardrails = agentGuardrails(agent, { userId: 'u1' });
 * if (guardrails.guardsInput(messages)) await guardrails.checkInput(messages, true);
 * ```
 */
export function agentGuardrails(agent: Agent<any, any>, context: unknown): AgentGuardrails {
  const runContext = () => new RunContext(context);
  return {
    guardsInput: (messages) =>
      agent.inputGuardrails.length > 0 &&
      !messages.some((message) => message.role === 'assistant' || message.role === 'tool'),
    async checkInput(messages, blocking) {
      const chosen = agent.inputGuardrails.filter(
        (guardrail) => (guardrail.runInParallel === false) === blocking,
      );
      if (chosen.length === 0) return;
      const only = messages.length === 1 ? messages[0] : undefined;
      const input = typeof only?.content === 'string' ? only.content : toAgentItems(messages);
      const args = { agent, input, context: runContext() };
      const outputs = await settled(
        chosen.map((guardrail) => guardrail.execute(args)),
        (error) =>
          new GuardrailExecutionError(`Input guardrail failed to complete: ${error}`, error as Error),
      );
      outputs.forEach((output, index) => {
        if (!output.tripwireTriggered) return;
        const result = { guardrail: { type: 'input' as const, name: chosen[index]!.name }, output };
        throw new InputGuardrailTripwireTriggered(
          `Input guardrail triggered: ${JSON.stringify(output.outputInfo)}`,
          result,
        );
      });
    },
    async checkOutput(answer, modelResponse) {
      const chosen = agent.outputGuardrails;
      if (chosen.length === 0) return;
      const args = { agent, agentOutput: answer, context: runContext(), details: { modelResponse } };
      const outputs = await settled(
        chosen.map((guardrail) => guardrail.execute(args as never)),
        (error) =>
          new GuardrailExecutionError(`Output guardrail failed to complete: ${error}`, error as Error),
      );
      outputs.forEach((output, index) => {
        if (!output.tripwireTriggered) return;
        const result = {
          guardrail: { type: 'output' as const, name: chosen[index]!.name },
          agent,
          agentOutput: answer,
          output,
        };
        throw new OutputGuardrailTripwireTriggered(
          `Output guardrail triggered: ${JSON.stringify(output.outputInfo)}`,
          result,
        );
      });
    },
  };
}

/**
 * The SDK's own guardrail error inside a failure of the run (the engine reports a model port's
 * failure as `MODEL_ERROR`, at any depth): thrown as itself, as the SDK's `Runner` throws it.
 */
export function guardrailErrorOf(error: unknown): unknown {
  if (!isContinuationError(error, 'MODEL_ERROR')) return error;
  const cause = (error as { cause?: unknown }).cause;
  const own =
    cause instanceof InputGuardrailTripwireTriggered ||
    cause instanceof OutputGuardrailTripwireTriggered ||
    cause instanceof GuardrailExecutionError;
  return own ? cause : error;
}

/** Every guardrail's output once all have ended (none outlives the call); the first failure, mapped. */
async function settled(
  running: Promise<GuardrailFunctionOutput>[],
  failed: (error: unknown) => Error,
): Promise<GuardrailFunctionOutput[]> {
  const outcomes = await Promise.allSettled(running);
  return outcomes.map((outcome) => {
    if (outcome.status === 'rejected') throw failed(outcome.reason);
    return outcome.value;
  });
}
