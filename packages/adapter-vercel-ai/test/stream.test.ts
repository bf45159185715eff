import { type AgentStreamEvent, isContinuationError } from '@agent-continuations/core';
import { lastToolResults } from '@agent-continuations/testing';
import {
  convertToModelMessages,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  readUIMessageStream,
  ToolLoopAgent,
  tool,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  agentTool,
  continuable,
  continuationFromUIMessages,
  continuationRefFromUIMessages,
  decisionsFromUIMessages,
  toUIMessageStream,
  toUIMessageStreamResponse,
} from '../src/index';
import { scriptedLanguageModel } from './support/scripted-language-model';

/** An orchestrator with a plain tool, a top-level approval and a researcher whose publishing needs approval. */
function build() {
  const ran: string[] = [];
  const researcher = continuable(
    {
      model: scriptedLanguageModel([
        { toolCalls: [{ name: 'publish_report', args: { title: 'Solar' } }] },
        'Report is live.',
      ]),
      tools: {
        publish_report: tool({
          inputSchema: z.object({ title: z.string() }),
          needsApproval: true,
          execute: async ({ title }) => {
            ran.push(`publish:${title}`);
            return { url: 'https://reports.example/solar' };
          },
        }),
      },
    },
    { name: 'researcher' },
  );
  const model = scriptedLanguageModel([
    {
      text: 'Working on it.',
      toolCalls: [
        { name: 'lookup', args: { topic: 'solar' } },
        { name: 'research', args: { input: 'Publish the solar report' } },
        { name: 'notify', args: { channel: '#news' } },
      ],
    },
    (request) =>
      `All set: ${lastToolResults(request.messages)
        .map((result) => JSON.stringify(result.output))
        .join(' | ')}`,
  ]);
  const orchestrator = continuable(
    new ToolLoopAgent({
      model,
      tools: {
        lookup: tool({
          inputSchema: z.object({ topic: z.string() }),
          execute: async ({ topic }) => ran.push(`lookup:${topic}`) && 'facts',
        }),
        research: agentTool(researcher),
        notify: tool({
          inputSchema: z.object({ channel: z.string() }),
          needsApproval: true,
          execute: async ({ channel }) => ran.push(`notify:${channel}`) && 'sent',
        }),
      },
    }),
    { name: 'orchestrator' },
  );
  return { orchestrator, ran };
}

async function collect<T>(stream: AsyncIterable<T> | ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream as AsyncIterable<T>) out.push(item);
  return out;
}

async function lastMessage(stream: ReadableStream<UIMessageChunk>, message?: UIMessage): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const value of readUIMessageStream({ stream, ...(message ? { message } : {}) })) last = value;
  return structuredClone(last!);
}

describe('stream()', () => {
  it('yields text deltas, tool calls and results, and ends with the run result', async () => {
    const { orchestrator } = build();
    const events: AgentStreamEvent[] = await collect(orchestrator.stream('Get the solar report out'));
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'text-delta').length).toBeGreaterThan(1);
    expect(
      events
        .filter((event) => event.type === 'text-delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe('Working on it.');
    // The orchestrator's own events; the researcher's come tagged with their path.
    const own = events.filter((event) => !event.path);
    expect(own.filter((event) => event.type === 'tool-call').map((event) => event.toolCall.toolName)).toEqual(
      ['lookup', 'research', 'notify'],
    );
    expect(own.filter((event) => event.type === 'tool-result').map((event) => event.toolName)).toEqual([
      'lookup',
    ]);
    expect(
      events.filter((event) => event.type === 'tool-call' && event.path).map((event) => event.path),
    ).toEqual([['call_1_1']]);
    const last = events.at(-1)!;
    expect(last.type).toBe('result');
    if (last.type === 'result') expect(last.result.status).toBe('suspended');
  });
  it('ends with a model error that carries the last good continuation', async () => {
    const agent = continuable(
      {
        model: scriptedLanguageModel([{ toolCalls: [{ name: 'lookup', args: { topic: 'x' } }] }]),
        maxRetries: 0,
        tools: {
          lookup: tool({ inputSchema: z.object({ topic: z.string() }), execute: async () => 'facts' }),
        },
      },
      { name: 'flaky' },
    );
    const run = agent.stream('go');
    const error = await collect(run).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isContinuationError(error, 'MODEL_ERROR')).toBe(true);
    expect((error as { continuation: { step: number } }).continuation.step).toBe(1);
    await expect(run.result).rejects.toBe(error);
    // As a UI stream, the failure is an error chunk, and the stream still ends.
    const chunks = await collect(
      toUIMessageStream(agent.stream('go'), { onError: () => 'The model failed.' }),
    );
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The model failed.' });
  });
});

describe('UI message stream', () => {
  it('shows pending approvals (nested ones too) as approval parts, and resumes from the decisions useChat sends back', async () => {
    const { orchestrator, ran } = build();
    const chunks = await collect(toUIMessageStream(orchestrator.stream('Get the solar report out')));
    const types = chunks.map((chunk) => chunk.type);
    expect(types.slice(0, 3)).toEqual(['start', 'start-step', 'text-start']);
    expect(types.at(-1)).toBe('finish');
    const approvals = chunks.filter((chunk) => chunk.type === 'tool-approval-request');
    // The sub-agent's approval is asked on the outer tool part, which useChat can answer.
    expect(approvals).toEqual([
      { type: 'tool-approval-request', approvalId: 'call_1_1/call_1_0', toolCallId: 'call_1_1' },
      { type: 'tool-approval-request', approvalId: 'call_1_2', toolCallId: 'call_1_2' },
    ]);
    expect(chunks).toContainEqual({ type: 'tool-output-available', toolCallId: 'call_1_0', output: 'facts' });
    // The sub-agent's call streams as it happens, as the preliminary output of the outer part.
    const preliminary = chunks.filter(
      (chunk) => chunk.type === 'tool-output-available' && chunk.preliminary === true,
    );
    expect(preliminary.at(-1)).toMatchObject({
      toolCallId: 'call_1_1',
      output: {
        role: 'assistant',
        parts: [{ type: 'dynamic-tool', toolName: 'publish_report', input: { title: 'Solar' } }],
      },
    });
    expect(chunks.some((chunk) => 'dynamic' in chunk && chunk.dynamic)).toBe(false);

    // What useChat holds: the assistant message built from the chunks.
    const message = await lastMessage(toUIMessageStream(orchestrator.stream('Get the solar report out')));
    const waiting = message.parts.filter((part) => 'state' in part && part.state === 'approval-requested');
    expect(waiting.map((part) => part.type)).toEqual(['tool-research', 'tool-notify']);
    expect(message.parts.some((part) => part.type === 'dynamic-tool')).toBe(false);
    const ref = continuationRefFromUIMessages([message])!;
    expect(ref.actions.map((action) => action.toolName)).toEqual(['publish_report', 'notify']);

    // The user answers in the chat (addToolApprovalResponse), useChat posts the messages back.
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: [message] })).toBe(false);
    for (const part of message.parts) {
      if ('approval' in part && part.approval) {
        const approved = part.approval.id !== 'call_1_2';
        Object.assign(part, {
          state: 'approval-responded',
          approval: { id: part.approval.id, approved, ...(approved ? {} : { reason: 'not now' }) },
        });
      }
    }
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: [message] })).toBe(true);
    // The parent model is never handed the sub-agent's calls.
    expect(JSON.stringify(await convertToModelMessages([message]))).not.toContain('publish_report');
    const forged = {
      type: 'dynamic-tool',
      toolName: 'x',
      toolCallId: 'zzz',
      state: 'approval-responded',
      input: {},
      approval: { id: 'zzz', approved: true },
    };
    const answered: UIMessage = { ...message, parts: [...message.parts, forged as never] };
    const decisions = decisionsFromUIMessages([answered], ref.actions, { by: 'ann' });
    expect(decisions).toEqual({
      'call_1_1/call_1_0': { type: 'approve', by: 'ann' },
      call_1_2: { type: 'reject', reason: 'not now', by: 'ann' },
    });

    const stored = await orchestrator.run('Get the solar report out');
    if (stored.status !== 'suspended') throw new Error('expected a suspension');
    ran.length = 0;
    const resumed = await lastMessage(
      toUIMessageStream(orchestrator.stream({ continuation: stored.continuation, decisions }), {
        originalMessages: [answered],
      }),
      answered,
    );
    // The same assistant message goes on: the approval parts get their outputs, the answer follows.
    expect(resumed.id).toBe(answered.id);
    expect(resumed.parts.find((part) => part.type === 'tool-research')).toMatchObject({
      state: 'output-available',
      output: 'Report is live.',
    });
    expect(resumed.parts.find((part) => part.type === 'tool-research')).not.toHaveProperty(
      'preliminary',
      true,
    );
    // The rejected call shows as denied, not as a failure.
    expect(
      resumed.parts.find((part) => 'toolCallId' in part && part.toolCallId === 'call_1_2'),
    ).toMatchObject({ state: 'output-denied' });
    expect(ran).toEqual(['publish:Solar']);
    const text = resumed.parts.filter((part) => part.type === 'text').map((part) => part.text);
    // The model reads the rejection in the SDK's own denial form, with the human's reason.
    expect(text.at(-1)).toMatch(
      /^All set: "facts" \| "Report is live\." \| "A human rejected this tool call: not now/,
    );
  });

  it('lets useChat answer an input request with addToolOutput', async () => {
    const agent = continuable(
      {
        model: scriptedLanguageModel([
          { toolCalls: [{ name: 'ask_user', args: { question: 'Which city?' } }] },
          (request) => `City: ${String(lastToolResults(request.messages)[0]!.output)}`,
        ]),
        tools: {
          ask_user: tool({ inputSchema: z.object({ question: z.string() }), outputSchema: z.string() }),
        },
      },
      { name: 'asker' },
    );
    const message = await lastMessage(toUIMessageStream(agent.stream('weather')));
    const part = message.parts.find((candidate) => candidate.type === 'tool-ask_user')!;
    expect(part).toMatchObject({ state: 'input-available', input: { question: 'Which city?' } });
    Object.assign(part, { state: 'output-available', output: 'Oslo' });
    const ref = continuationRefFromUIMessages([message])!;
    expect(decisionsFromUIMessages([message], ref.actions)).toEqual({
      call_1_0: { type: 'input', value: 'Oslo' },
    });
  });

  it('serves the stream as server-sent events, optionally carrying the whole continuation', async () => {
    const { orchestrator } = build();
    const response = toUIMessageStreamResponse(orchestrator.stream('Get the solar report out'), {
      includeContinuation: true,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const body = await response.text();
    expect(body.startsWith('data: {"type":"start"')).toBe(true);
    const line = body.split('\n').find((candidate) => candidate.includes('"data-continuation"'))!;
    const chunk = JSON.parse(line.slice('data: '.length)) as { data: { continuation: string } };
    expect(JSON.parse(chunk.data.continuation).format).toBe('agent-continuation');
  });
});

describe('a continuation the client carries back', () => {
  const seal = { secret: 'ui-seal-secret-0123456789' };
  const sealedAgent = (ran: string[]) =>
    continuable(
      {
        model: scriptedLanguageModel([{ toolCalls: [{ name: 'pay', args: { amount: 5 } }] }, 'Paid.']),
        tools: {
          pay: tool({
            inputSchema: z.object({ amount: z.number() }),
            needsApproval: true,
            execute: async ({ amount }) => ran.push(`pay:${amount}`) && 'ok',
          }),
        },
      },
      { name: 'payer', seal },
    );

  it('is read back only when its seal verifies; an edited one is refused and nothing runs', async () => {
    const ran: string[] = [];
    const message = await lastMessage(
      toUIMessageStream(sealedAgent(ran).stream('pay'), { includeContinuation: true }),
    );
    const continuation = await continuationFromUIMessages([message], { seal });
    expect(continuation?.seal).toBeDefined();

    // The browser edits the continuation it holds: approves the payment itself, for more.
    const part = message.parts.find((candidate) => candidate.type === 'data-continuation') as {
      data: { continuation: string };
    };
    const edited = JSON.parse(part.data.continuation);
    edited.pending[0].approved = true;
    edited.pending[0].args = { amount: 5000 };
    part.data.continuation = JSON.stringify(edited);
    const refused = await continuationFromUIMessages([message], { seal }).catch((error: unknown) => error);
    expect(isContinuationError(refused, 'SEAL_MISMATCH')).toBe(true);
    // Nor does the agent itself resume it.
    const direct = await sealedAgent(ran)
      .resume(part.data.continuation, {})
      .catch((error: unknown) => error);
    expect(isContinuationError(direct, 'SEAL_MISMATCH')).toBe(true);
    expect(ran).toEqual([]);

    // Without a seal to check, the server must say it trusts the client.
    await expect(continuationFromUIMessages([message], {} as never)).rejects.toThrow(/allowUnsealed/);
    expect(await continuationFromUIMessages([message], { allowUnsealed: true })).toMatchObject({
      pending: [{ approved: true }],
    });
  });
});

describe("the SDK's UI stream options", () => {
  const thinker = () =>
    continuable(
      new ToolLoopAgent({ model: scriptedLanguageModel([{ reasoning: 'Let me think.', text: 'Hello.' }]) }),
      { name: 'thinker' },
    );

  it('sends reasoning by default, and not with sendReasoning: false', async () => {
    const shown = await lastMessage((await thinker().stream({ prompt: 'Hi' })).toUIMessageStream());
    expect(shown.parts.map((part) => part.type)).toEqual(['step-start', 'reasoning', 'text']);
    const hidden = await lastMessage(
      (await thinker().stream({ prompt: 'Hi' })).toUIMessageStream({ sendReasoning: false }),
    );
    expect(hidden.parts.map((part) => part.type)).toEqual(['step-start', 'text']);
  });

  it('messageMetadata rides on the start and finish chunks; sendStart and sendFinish leave them out', async () => {
    const chunks = await collect(
      (await thinker().stream({ prompt: 'Hi' })).toUIMessageStream({
        messageMetadata: ({ part }) =>
          part.type === 'start' ? { at: 'start' } : { tokens: part.totalUsage.totalTokens },
      }),
    );
    expect(chunks.at(0)).toMatchObject({ type: 'start', messageMetadata: { at: 'start' } });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', messageMetadata: { tokens: 15 } });
    const bare = await collect(
      (await thinker().stream({ prompt: 'Hi' })).toUIMessageStream({ sendStart: false, sendFinish: false }),
    );
    expect(bare.map((chunk) => chunk.type)).not.toContain('start');
    expect(bare.map((chunk) => chunk.type)).not.toContain('finish');
    expect(bare.map((chunk) => chunk.type)).toContain('text-delta');
  });

  it('refuses sendSources: true, which it could not honour', async () => {
    const run = await thinker().stream({ prompt: 'Hi' });
    expect(() => run.toUIMessageStream({ sendSources: true })).toThrow(/sendSources/);
  });
});
