/**
 * Drop-in fidelity of the AI SDK adapter: agents written the way the AI SDK documents them, run
 * natively and wrapped with `continuable()` (only the wrap line changes), compared on what the
 * model receives, how often it is called, which tools run, the stream's chunk kinds and the final
 * structured output.
 */
import { isContinuationError } from '@agent-continuations/core';
import { suspended } from '@agent-continuations/testing';
import { continuable, continuationRefFromUIMessages } from '@agent-continuations/vercel-ai';
import {
  createAgentUIStreamResponse,
  generateText,
  type ModelMessage,
  Output,
  readUIMessageStream,
  stepCountIs,
  ToolLoopAgent,
  tool,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { promptToolResults, type Replies, recordingModel, systemPrompt } from '../src/dropin-ai-model';

/** A weather agent as the AI SDK docs write one; `ran` counts tool executions. */
function weatherAgent(replies: Replies, extra: Record<string, unknown> = {}) {
  const ran: string[] = [];
  const model = recordingModel(replies);
  const weather = tool({
    description: 'Get the weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      ran.push(city);
      return { city, celsius: 21 };
    },
  });
  const settings = {
    model,
    instructions: 'You report the weather.',
    tools: { weather },
    ...extra,
  };
  return { model, ran, settings };
}

/** The model asks for the weather on every call. */
const alwaysWeather: Replies = (index) => ({ toolCalls: [{ name: 'weather', args: { city: `c${index}` } }] });

describe('stopWhen', () => {
  it('stops where the native agent stops, as a resumable suspension named stopWhen', async () => {
    const native = weatherAgent(alwaysWeather, { stopWhen: stepCountIs(3) });
    await new ToolLoopAgent(native.settings).generate({ prompt: 'Weather tour' });

    const wrapped = weatherAgent(alwaysWeather, { stopWhen: stepCountIs(3) });
    const agent = continuable(new ToolLoopAgent(wrapped.settings), { name: 'weather' });
    const first = suspended(await agent.run('Weather tour'));

    expect(native.model.calls).toHaveLength(3);
    expect(wrapped.model.calls).toHaveLength(3);
    expect(wrapped.ran).toEqual(native.ran);
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['stopWhen'] });
    expect(first.actions).toEqual([]);

    // Resuming with no decisions goes on, for as many steps again.
    const second = suspended(await agent.resume(first.continuation, {}));
    expect(wrapped.model.calls).toHaveLength(6);
    expect(wrapped.ran).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    expect(second.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['stopWhen'] });
  });

  it("honours a ToolLoopAgent's default stepCountIs(20)", async () => {
    const native = weatherAgent(alwaysWeather);
    await new ToolLoopAgent(native.settings).generate({ prompt: 'Weather tour' });
    const wrapped = weatherAgent(alwaysWeather);
    const result = await continuable(new ToolLoopAgent(wrapped.settings), { name: 'weather' }).run(
      'Weather tour',
    );
    expect(native.model.calls).toHaveLength(20);
    expect(wrapped.model.calls).toHaveLength(20);
    expect(suspended(result).continuation.suspendedBy).toEqual({
      type: 'predicate',
      predicates: ['stopWhen'],
    });
  });

  it('evaluates conditions over the steps: tool calls, text and usage', async () => {
    const seen: unknown[] = [];
    const replies: Replies = (index) =>
      index < 2
        ? { text: `step ${index}`, toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }
        : { text: 'Done.' };
    const condition = ({ steps }: { steps: Array<Record<string, any>> }) => {
      seen.push(
        steps.map((step) => ({
          text: step.text,
          toolCalls: step.toolCalls.map((call: { toolName: string; input: unknown }) => [
            call.toolName,
            call.input,
          ]),
          toolResults: step.toolResults.map((result: { output: unknown }) => result.output),
          usage: [step.usage.inputTokens, step.usage.outputTokens],
          finishReason: step.finishReason,
        })),
      );
      return false;
    };
    const native = weatherAgent(replies, { stopWhen: condition });
    await new ToolLoopAgent(native.settings).generate({ prompt: 'Weather' });
    const nativeSeen = seen.splice(0);
    const wrapped = weatherAgent(replies, { stopWhen: condition });
    await continuable(new ToolLoopAgent(wrapped.settings), { name: 'weather' }).run('Weather');
    expect(seen).toEqual(nativeSeen);
    expect(seen).toHaveLength(2);
  });
});

describe('onFinish', () => {
  it('is called once at completion with the SDK shape', async () => {
    const replies: Replies = (index) =>
      index === 0 ? { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] } : { text: 'Sunny.' };
    const summary = (event: Record<string, any>) => ({
      text: event.text,
      finishReason: event.finishReason,
      steps: event.steps.map((step: Record<string, any>) => ({
        text: step.text,
        toolCalls: step.toolCalls.map((call: Record<string, unknown>) => [call.toolName, call.input]),
        toolResults: step.toolResults.map((result: Record<string, unknown>) => [
          result.toolName,
          result.output,
        ]),
      })),
      totalUsage: [event.totalUsage.inputTokens, event.totalUsage.outputTokens, event.totalUsage.totalTokens],
      response: event.response.messages.map((message: ModelMessage) => message.role),
    });
    const events: unknown[] = [];
    const native = weatherAgent(replies, {
      onFinish: (event: Record<string, any>) => events.push(summary(event)),
    });
    await new ToolLoopAgent(native.settings).generate({ prompt: 'Weather in Oslo?' });
    const wrapped = weatherAgent(replies, {
      onFinish: (event: Record<string, any>) => events.push(summary(event)),
    });
    const result = await continuable(new ToolLoopAgent(wrapped.settings), { name: 'weather' }).run(
      'Weather in Oslo?',
    );
    expect(result.status).toBe('completed');
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual(events[0]);
  });
});

describe('output', () => {
  const schema = z.object({ city: z.string(), celsius: z.number() });
  const replies: Replies = (index) =>
    index === 0
      ? { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }
      : { text: JSON.stringify({ city: 'Oslo', celsius: 21 }) };

  it('sends the response format and completes with the parsed object', async () => {
    const native = weatherAgent(replies, { output: Output.object({ schema }) });
    const nativeResult = await new ToolLoopAgent(native.settings).generate({ prompt: 'Weather in Oslo?' });
    const wrapped = weatherAgent(replies, { output: Output.object({ schema }) });
    const result = await continuable(new ToolLoopAgent(wrapped.settings), { name: 'weather' }).run(
      'Weather in Oslo?',
    );
    expect(wrapped.model.calls.map((call) => call.responseFormat)).toEqual(
      native.model.calls.map((call) => call.responseFormat),
    );
    expect(wrapped.model.calls[0]!.responseFormat).toMatchObject({ type: 'json' });
    expect(result).toMatchObject({ status: 'completed', output: nativeResult.output });
    expect(nativeResult.output).toEqual({ city: 'Oslo', celsius: 21 });
  });

  it('is carried across a suspension', async () => {
    const wrapped = weatherAgent(replies, { output: Output.object({ schema }) });
    const agent = continuable(
      new ToolLoopAgent({
        ...wrapped.settings,
        tools: { weather: { ...wrapped.settings.tools.weather, needsApproval: true } },
      }),
      { name: 'weather' },
    );
    const first = suspended(await agent.run('Weather in Oslo?'));
    const done = await agent.resume(JSON.parse(JSON.stringify(first.continuation)), {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    expect(done).toMatchObject({ status: 'completed', output: { city: 'Oslo', celsius: 21 } });
    expect(wrapped.model.calls[1]!.responseFormat).toMatchObject({ type: 'json' });
  });
});

describe('prepareCall and callOptionsSchema', () => {
  /** A ToolLoopAgent whose instructions name the user given as a call option. */
  const build = (needsApproval = false) => {
    const built = weatherAgent((index) =>
      index === 0 ? { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] } : { text: 'Sunny.' },
    );
    const agent = new ToolLoopAgent({
      ...built.settings,
      tools: { weather: { ...built.settings.tools.weather, needsApproval } },
      callOptionsSchema: z.object({ userName: z.string() }),
      prepareCall: ({ options, ...settings }) => ({
        ...settings,
        instructions: `You report the weather to ${options.userName}.`,
      }),
    });
    return { ...built, agent };
  };

  it('runs with call options as the native agent does', async () => {
    const native = build();
    await native.agent.generate({ prompt: 'Weather?', options: { userName: 'Ann' } });
    const wrapped = build();
    const result = await continuable(wrapped.agent, { name: 'weather' }).run('Weather?', {
      options: { userName: 'Ann' },
    });
    expect(result.status).toBe('completed');
    expect(wrapped.model.calls.map(systemPrompt)).toEqual(native.model.calls.map(systemPrompt));
    expect(systemPrompt(wrapped.model.calls[0]!)).toBe('You report the weather to Ann.');
  });

  it('keeps the call options across a suspension, and refuses invalid ones before any model call', async () => {
    const wrapped = build(true);
    const agent = continuable(wrapped.agent, { name: 'weather' });
    await expect(agent.run('Weather?', { options: { userName: 42 as never } })).rejects.toSatisfy(
      isContinuationError,
    );
    expect(wrapped.model.calls).toHaveLength(0);
    const first = suspended(await agent.run('Weather?', { options: { userName: 'Bob' } }));
    await agent.resume(JSON.parse(JSON.stringify(first.continuation)), {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    expect(wrapped.model.calls.map(systemPrompt)).toEqual([
      'You report the weather to Bob.',
      'You report the weather to Bob.',
    ]);
  });
});

/** The chunks of a UI message stream response. */
async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as UIMessageChunk);
}

describe('createAgentUIStreamResponse', () => {
  const replies: Replies = (index) =>
    index === 0
      ? { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }
      : { text: 'It is sunny in Oslo.' };
  const uiMessages: UIMessage[] = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Oslo?' }] },
  ];

  it('takes a continuable agent and streams the same chunk kinds', async () => {
    const native = weatherAgent(replies);
    const nativeChunks = await chunksOf(
      await createAgentUIStreamResponse({ agent: new ToolLoopAgent(native.settings), uiMessages }),
    );
    const wrapped = weatherAgent(replies);
    const agent = continuable(new ToolLoopAgent(wrapped.settings), { name: 'weather' });
    const chunks = await chunksOf(await createAgentUIStreamResponse({ agent, uiMessages }));
    expect(chunks.map((chunk) => chunk.type)).toEqual(nativeChunks.map((chunk) => chunk.type));
    expect(chunks.map((chunk) => chunk.type)).toContain('tool-input-start');
    expect(chunks.map((chunk) => chunk.type)).toContain('tool-input-delta');
    expect(wrapped.ran).toEqual(native.ran);
    expect(wrapped.model.calls).toHaveLength(native.model.calls.length);
  });

  it('ends a suspended run with its approvals and the continuation as an extra part', async () => {
    const wrapped = weatherAgent(replies);
    const settings = {
      ...wrapped.settings,
      tools: { weather: { ...wrapped.settings.tools.weather, needsApproval: true } },
    };
    const agent = continuable(new ToolLoopAgent(settings), { name: 'weather' });
    const chunks = await chunksOf(await createAgentUIStreamResponse({ agent, uiMessages }));
    expect(chunks.map((chunk) => chunk.type)).toContain('tool-approval-request');
    const messages: UIMessage[] = [];
    for await (const message of readUIMessageStream({
      stream: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
    }))
      messages.push(message);
    // A data part (ai@6), or a custom part where the SDK builds the UI stream itself (ai@7).
    const ref = continuationRefFromUIMessages(messages.slice(-1));
    expect(ref?.actions.map((action) => action.toolName)).toEqual(['weather']);
    expect(wrapped.ran).toEqual([]);

    // The approval useChat posts back belongs to the suspended run: handed to a new run it is
    // refused, before any model call, pointing at the resume.
    const answered = structuredClone(messages.at(-1)!);
    for (const part of answered.parts) {
      if ('approval' in part && part.approval) {
        Object.assign(part, {
          state: 'approval-responded',
          approval: { id: part.approval.id, approved: true },
        });
      }
    }
    const calls = wrapped.model.calls.length;
    await expect(
      createAgentUIStreamResponse({ agent, uiMessages: [...uiMessages, answered] }),
    ).rejects.toThrow(/approval responses for a suspended run.*chatAgent\(runtime, agent, \{ chat: id \}\)/);
    expect(wrapped.model.calls).toHaveLength(calls);
    expect(wrapped.ran).toEqual([]);
  });

  it('offers generate() and stream() in the SDK shapes, with the continuation as an extra', async () => {
    const wrapped = weatherAgent(replies);
    const agent = continuable(new ToolLoopAgent(wrapped.settings), { name: 'weather' });
    const generated = await agent.generate({ prompt: 'Weather in Oslo?' });
    expect(generated.text).toBe('It is sunny in Oslo.');
    expect(generated.steps).toHaveLength(2);
    expect(generated.result.status).toBe('completed');
    const streamed = await agent.stream({ prompt: 'Weather in Oslo?' });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe('It is sunny in Oslo.');
    expect(await streamed.text).toBe('It is sunny in Oslo.');
    expect((await streamed.result).status).toBe('completed');
    // A call's step callback runs, and a call option the agent cannot honour is refused.
    const fresh = weatherAgent(replies);
    const steps: unknown[] = [];
    await continuable(new ToolLoopAgent(fresh.settings), { name: 'weather' }).generate({
      prompt: 'Weather in Oslo?',
      onStepFinish: (step) => steps.push(step),
    });
    expect(steps).toHaveLength(2);
    await expect(agent.generate({ prompt: 'Weather?', timeout: 1000 })).rejects.toThrow(/timeout/);
  });

  it('streams structured output as the SDK-shaped output', async () => {
    const schema = z.object({ city: z.string(), celsius: z.number() });
    const wrapped = weatherAgent(
      (index) =>
        index === 0
          ? { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }
          : { text: JSON.stringify({ city: 'Oslo', celsius: 21 }) },
      { output: Output.object({ schema }) },
    );
    const agent = continuable(new ToolLoopAgent(wrapped.settings), { name: 'weather' });
    const streamed = await agent.stream({ prompt: 'Weather in Oslo?' });
    expect(await streamed.output).toEqual({ city: 'Oslo', celsius: 21 });
    expect(wrapped.model.calls.every((call) => call.responseFormat?.type === 'json')).toBe(true);
  });
});

describe('rejection', () => {
  it("reaches the model in the SDK's own denial form", async () => {
    const replies: Replies = (index) =>
      index === 0 ? { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] } : { text: 'Understood.' };
    const approvalSettings = (built: ReturnType<typeof weatherAgent>) => ({
      ...built.settings,
      tools: { weather: { ...built.settings.tools.weather, needsApproval: true } },
    });

    const native = weatherAgent(replies);
    const nativeAgent = new ToolLoopAgent(approvalSettings(native));
    const first = await nativeAgent.generate({ prompt: 'Weather in Oslo?' });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    await nativeAgent.generate({
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        ...first.response.messages,
        {
          role: 'tool',
          content: [
            {
              type: 'tool-approval-response',
              approvalId: request.approvalId,
              approved: false,
              reason: 'not today',
            },
          ],
        },
      ],
    });

    const wrapped = weatherAgent(replies);
    const agent = continuable(new ToolLoopAgent(approvalSettings(wrapped)), { name: 'weather' });
    const suspendedRun = suspended(await agent.run('Weather in Oslo?'));
    await agent.resume(suspendedRun.continuation, {
      [suspendedRun.actions[0]!.id]: { type: 'reject', reason: 'not today' },
    });

    expect(wrapped.ran).toEqual([]);
    expect(native.ran).toEqual([]);
    // The SDK's form, execution-denied; its reason holds the human's, in the words every adapter's
    // model reads (so a run handed over between frameworks reads the same).
    const [nativeResult] = promptToolResults(native.model.calls[1]!);
    const [wrappedResult] = promptToolResults(wrapped.model.calls[1]!);
    expect(nativeResult).toEqual({
      toolName: 'weather',
      output: { type: 'execution-denied', reason: 'not today' },
    });
    expect(wrappedResult).toEqual({
      toolName: 'weather',
      output: {
        type: 'execution-denied',
        reason: 'A human rejected this tool call: not today. Do not retry it unchanged.',
      },
    });
  });
});

describe('settings the adapter cannot honour', () => {
  const model = recordingModel(() => ({ text: 'hi' }));
  it.each([
    ['experimental_toolApprovalSecret', { experimental_toolApprovalSecret: 'secret' }],
    ['experimental_onToolCallStart', { experimental_onToolCallStart: () => {} }],
    ['somethingNew', { somethingNew: true }],
  ])('refuses %s at wrap time, naming it', (name, extra) => {
    let error: unknown;
    try {
      continuable(new ToolLoopAgent({ model, ...(extra as object) }), { name: 'x' });
    } catch (caught) {
      error = caught;
    }
    expect(isContinuationError(error)).toBe(true);
    expect((error as Error & { code: string }).code).toBe('INVALID_OPERATION');
    expect((error as Error).message).toContain(name);
  });

  it('refuses a generateText prompt, pointing at run()', () => {
    expect(() => continuable({ model, prompt: 'hello' }, { name: 'x' })).toThrow(/prompt.*run\(/);
  });

  it('runs generateText settings as generateText would, bounded by their stopWhen', async () => {
    const native = weatherAgent(alwaysWeather, { stopWhen: stepCountIs(2) });
    const { instructions, ...rest } = native.settings;
    await generateText({ ...rest, system: instructions, prompt: 'Weather tour' });
    const wrapped = weatherAgent(alwaysWeather, { stopWhen: stepCountIs(2) });
    const { instructions: system, ...others } = wrapped.settings;
    const result = await continuable({ ...others, system }, { name: 'weather' }).run('Weather tour');
    expect(suspended(result).continuation.suspendedBy).toEqual({
      type: 'predicate',
      predicates: ['stopWhen'],
    });
    expect(wrapped.model.calls).toHaveLength(native.model.calls.length);
  });
});
