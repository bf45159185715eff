/**
 * `continuable()`: an existing `ToolLoopAgent`, or the settings of a `generateText` call, as a
 * continuable agent. The core's engine drives the loop; the AI SDK makes each model step. Every
 * setting is honoured, mapped (`stopWhen` becomes a suspension, `output` the parsed result,
 * `prepareCall` runs per run and per resume) or refused when the agent is wrapped.
 */
import {
  type AgentStream,
  type AgentStreamEvent,
  type Continuation,
  ContinuationError,
  createContinuableAgent,
  type Decisions,
  type EngineAgent,
  parseContinuation,
  type RunOptions,
  type RunResult,
  textOf,
} from '@agent-continuations/core';
import { STREAMS_RUNS, toPredicates } from '@agent-continuations/core/adapter-kit';
import type { ModelMessage, Tool } from 'ai';
import { callOptionsOf, keepingCallOptions, prepareCall, preparesCalls } from './call-options';
import {
  type AnySettings,
  agentSettings,
  instructionsOf,
  isSdkAgent,
  onFinishOf,
  outputOf,
  STEP_CALLBACK,
  stopConditionsOf,
} from './compat';
import {
  checkNotApprovals,
  checkTools,
  fingerprintInstructions,
  isSdkParameters,
  toNeutralInput,
  withoutUndefined,
} from './inputs';
import { toModelMessages } from './messages';
import { createModelPort } from './model-port';
import {
  type ContinuableStream,
  continuableStream,
  generateResult,
  type ResultContext,
  SDK_STREAM,
} from './sdk-results';
import { checkCallParameters, checkSettings } from './settings';
import { finishEvent, stepsOf, stopWhenPredicate } from './steps';
import { checkPolicies, toEngineTools } from './tools';
import type {
  CallOptionsOf,
  ContinuableOptions,
  ContinuableSettings,
  OutputOf,
  SdkCallParameters,
  VercelAgentInput,
  VercelContinuableAgent,
  VercelRunOptions,
  VercelStreamInput,
} from './types';

/**
 * Make an AI SDK agent continuable: it suspends for approvals, human input, suspended sub-agents
 * and predicates (its `stopWhen` among them), and resumes from the JSON continuation in any
 * process. A setting it cannot honour is refused here, with a `ContinuationError`.
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
export function continuable<A extends { version: 'agent-v1' } | ContinuableSettings>(
  agentOrSettings: A,
  options: ContinuableOptions,
): VercelContinuableAgent<OutputOf<A>, CallOptionsOf<A>> {
  type Output = OutputOf<A>;
  type CallOptions = CallOptionsOf<A>;
  if (typeof options?.name !== 'string' || options.name.length === 0) {
    throw new ContinuationError('INVALID_OPERATION', 'continuable() needs options.name, a non-empty string.');
  }
  if (typeof agentOrSettings !== 'object' || agentOrSettings === null) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'continuable() takes a ToolLoopAgent or generateText settings.',
    );
  }
  const isAgent = isSdkAgent(agentOrSettings);
  const settings: AnySettings = isAgent ? agentSettings(agentOrSettings) : agentOrSettings;
  checkSettings(settings, isAgent ? 'ToolLoopAgent' : 'generateText');
  checkTools(settings);
  checkPolicies(settings, options.policies ?? {});
  if (!settings.model) throw new ContinuationError('INVALID_OPERATION', 'The agent settings have no model.');

  const engineFor = async (effective: AnySettings): Promise<EngineAgent> => {
    const stopWhen = stopWhenPredicate(effective, isAgent);
    return createContinuableAgent({
      name: options.name,
      framework: 'vercel-ai',
      ...(options.description === undefined ? {} : { description: options.description }),
      ...fingerprintInstructions(instructionsOf(effective)),
      model: createModelPort(effective),
      tools: await toEngineTools(effective, options.policies),
      suspendWhen: [...toPredicates(options.suspendWhen), ...(stopWhen ? [stopWhen] : [])],
      ...(options.onReject === undefined ? {} : { onReject: options.onReject }),
      ...(options.toolErrors === undefined ? {} : { toolErrors: options.toolErrors }),
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.seal === undefined ? {} : { seal: options.seal }),
    });
  };
  let shared: Promise<EngineAgent> | undefined;
  const sharedEngine = () => {
    shared ??= engineFor(settings);
    return shared;
  };

  /** The settings and engine of one run or resume, with the call options it keeps. */
  interface Prepared {
    effective: AnySettings;
    engine: EngineAgent;
    input?: VercelAgentInput;
    callOptions: unknown;
    context: ResultContext;
  }

  const prepare = async (
    callOptions: unknown,
    prompt: { prompt: VercelAgentInput } | { messages: ModelMessage[] },
    segmentStart: number,
    extra: AnySettings = {},
  ): Promise<Prepared> => {
    const perCall = Object.values(extra).some((value) => value !== undefined);
    if (!preparesCalls(settings)) {
      const effective = perCall ? { ...settings, ...extra } : settings;
      return {
        effective,
        engine: await (perCall ? engineFor(effective) : sharedEngine()),
        callOptions: undefined,
        context: { settings: effective, segmentStart },
      };
    }
    const prepared = await prepareCall(
      settings,
      callOptions,
      prompt,
      isAgent ? stopConditionsOf(settings, true) : undefined,
    );
    checkSettings(prepared.settings, isAgent ? 'ToolLoopAgent' : 'generateText');
    checkTools(prepared.settings);
    const effective = { ...prepared.settings, ...withoutUndefined(extra) };
    return {
      effective,
      engine: await engineFor(effective),
      ...(prepared.prompt === undefined ? {} : { input: prepared.prompt }),
      callOptions,
      context: { settings: effective, segmentStart },
    };
  };

  /** What a completed run becomes: the parsed `output`, after `onFinish` saw the SDK's event. */
  const finish = async (result: RunResult<string>, prepared: Prepared): Promise<RunResult<Output>> => {
    if (result.status !== 'completed') return result as RunResult<Output>;
    const { effective, context } = prepared;
    const spec = outputOf(effective);
    const onFinish = onFinishOf(effective);
    // The SDK-shaped steps are for `output` and `onFinish` alone.
    if (!spec && !onFinish) return result as RunResult<Output>;
    const steps = stepsOf(result.messages, result.step - context.segmentStart, effective);
    const last = steps.at(-1);
    const output = spec
      ? await spec.parseCompleteOutput(
          { text: textOf(result.messages[result.messages.length - 1]) },
          {
            response: (last?.response ?? {}) as Record<string, unknown>,
            usage: last?.usage ?? {},
            finishReason: last?.finishReason ?? 'stop',
          },
        )
      : result.output;
    await onFinish?.(finishEvent(steps, effective));
    return { ...result, output: output as Output };
  };

  const start = async (
    input: VercelAgentInput,
    runOptions: VercelRunOptions<CallOptions> = {},
    extra?: AnySettings,
  ) => {
    const { options: callOptions, ...rest } = runOptions;
    const prepared = await prepare(callOptions, { prompt: input }, 0, extra);
    return { prepared, input: prepared.input ?? input, runOptions: keepingCallOptions(rest, callOptions) };
  };

  const resumeWith = async (
    continuation: Continuation | string,
    runOptions: RunOptions = {},
    extra?: AnySettings,
  ) => {
    const parsed = parseContinuation(continuation);
    const callOptions = callOptionsOf(parsed);
    const prepared = await prepare(
      callOptions,
      { messages: toModelMessages(parsed.messages) },
      parsed.step,
      extra,
    );
    return { prepared, parsed, runOptions: keepingCallOptions(runOptions, callOptions, parsed) };
  };

  const run = async (
    input: VercelAgentInput,
    runOptions?: VercelRunOptions<CallOptions>,
    extra?: AnySettings,
  ) => {
    const started = await start(input, runOptions, extra);
    const result = await started.prepared.engine.run(toNeutralInput(started.input), started.runOptions);
    return { result: await finish(result, started.prepared), context: started.prepared.context };
  };

  const stream = (
    input: VercelStreamInput,
    runOptions: VercelRunOptions<CallOptions> = {},
    extra?: AnySettings,
  ): ContinuableStream<Output> => {
    const begun = (async () => {
      if (typeof input === 'string' || Array.isArray(input)) {
        const started = await start(input, runOptions, extra);
        return {
          prepared: started.prepared,
          inner: started.prepared.engine.stream(toNeutralInput(started.input), started.runOptions),
        };
      }
      const { options: _callOptions, ...rest } = runOptions;
      const resumed = await resumeWith(input.continuation, rest, extra);
      return {
        prepared: resumed.prepared,
        inner: resumed.prepared.engine.stream(
          { continuation: resumed.parsed, ...(input.decisions ? { decisions: input.decisions } : {}) },
          resumed.runOptions,
        ),
      };
    })();
    const result = begun.then(({ inner, prepared }) => inner.result.then((done) => finish(done, prepared)));
    result.catch(() => {});
    const events: AgentStream<Output> = {
      result,
      [Symbol.asyncIterator]: () => withFinishedResult(begun, result),
    };
    const context = begun.then(({ prepared }) => prepared.context);
    // The stream's iteration and `result` report a failure to begin; this one must not crash the process.
    context.catch(() => {});
    return continuableStream(events, context);
  };

  /** The SDK's call parameters as this adapter's input, run options and per-call settings. */
  const fromSdk = (parameters: SdkCallParameters<CallOptions>) => {
    checkCallParameters(parameters as Record<string, unknown>);
    const input =
      'prompt' in parameters && parameters.prompt !== undefined
        ? parameters.prompt
        : (parameters as { messages: ModelMessage[] }).messages;
    checkNotApprovals(input);
    const runOptions: VercelRunOptions<CallOptions> = {
      ...(parameters.options === undefined ? {} : { options: parameters.options }),
      ...(parameters.abortSignal ? { signal: parameters.abortSignal } : {}),
    };
    // The call's step callback runs after the agent's own, as on a ToolLoopAgent.
    const call = (parameters.onStepEnd ?? parameters.onStepFinish) as
      | ((step: unknown) => unknown)
      | undefined;
    const own = (settings.onStepEnd ?? settings.onStepFinish) as ((step: unknown) => unknown) | undefined;
    const extra: AnySettings = call
      ? {
          [STEP_CALLBACK]: async (step: unknown) => {
            await own?.(step);
            await call(step);
          },
        }
      : {};
    return { input, runOptions, extra };
  };

  const agent = {
    name: options.name,
    framework: 'vercel-ai' as const,
    version: 'agent-v1' as const,
    id: settings.id as string | undefined,
    tools: (settings.tools ?? {}) as Record<string, Tool>,
    ...(options.description === undefined ? {} : { description: options.description }),
    [STREAMS_RUNS]: true as const,
    [SDK_STREAM]: (run: AgentStream<Output>, segmentStart: number) =>
      continuableStream(run, Promise.resolve({ settings, segmentStart })),
    run: async (input: VercelAgentInput, runOptions?: VercelRunOptions<CallOptions>) =>
      (await run(input, runOptions)).result,
    resume: async (continuation: Continuation | string, decisions?: Decisions, runOptions?: RunOptions) => {
      const resumed = await resumeWith(continuation, runOptions);
      const result = await resumed.prepared.engine.resume(resumed.parsed, decisions, resumed.runOptions);
      return finish(result, resumed.prepared);
    },
    checkDecisions: async (
      continuation: Continuation,
      decisions: Decisions,
      checkOptions?: Pick<RunOptions, 'allowChangedAgent'>,
    ) => {
      const resumed = await resumeWith(continuation);
      await resumed.prepared.engine.checkDecisions(continuation, decisions, checkOptions);
    },
    generate: async (parameters: SdkCallParameters<CallOptions>) => {
      const { input, runOptions, extra } = fromSdk(parameters);
      const { result, context } = await run(input, runOptions, extra);
      return generateResult(result, context);
    },
    stream(
      input: VercelStreamInput | SdkCallParameters<CallOptions>,
      runOptions?: VercelRunOptions<CallOptions>,
    ) {
      if (isSdkParameters(input)) {
        try {
          const sdk = fromSdk(input);
          return Promise.resolve(stream(sdk.input, sdk.runOptions, sdk.extra));
        } catch (error) {
          return Promise.reject(error);
        }
      }
      return stream(input, runOptions);
    },
  };
  return agent as unknown as VercelContinuableAgent<Output, CallOptions>;
}

/**
 * The events of a run's core stream, its own `result` event carrying the finished result (the
 * parsed `output`). An iterator over the core's, not a generator: a generator would add its own
 * turns to every event of every step.
 */
function withFinishedResult<Output>(
  begun: Promise<{ inner: AgentStream<string> }>,
  result: Promise<RunResult<Output>>,
): AsyncIterator<AgentStreamEvent<Output>> {
  let inner: AsyncIterator<AgentStreamEvent<string>> | undefined;
  let ended = false;
  return {
    async next() {
      if (ended) return { done: true, value: undefined };
      try {
        inner ??= (await begun).inner[Symbol.asyncIterator]();
        const next = await inner.next();
        if (next.done) {
          ended = true;
          return { done: true, value: undefined };
        }
        const event = next.value;
        if (event.type === 'result' && !event.path) {
          return { done: false, value: { type: 'result', result: await result } };
        }
        return { done: false, value: event as AgentStreamEvent<Output> };
      } catch (error) {
        // As a generator does: a failure ends the iteration.
        ended = true;
        throw error;
      }
    },
    async return() {
      if (!ended) {
        ended = true;
        await inner?.return?.();
      }
      return { done: true, value: undefined };
    },
  };
}
