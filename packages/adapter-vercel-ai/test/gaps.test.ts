/**
 * The four things the AI SDK alone does not do, each shown with a ToolLoopAgent made continuable:
 * a sub-agent's approval surfaces at the top and resumes; some of several approvals can be
 * decided; arguments can be edited on approval; a repeated resume through a store claim never
 * runs a tool twice.
 */
import { createMemoryStore, isContinuationError, resumeStored } from '@agent-continuations/core';
import { lastToolResults, suspended } from '@agent-continuations/testing';
import { ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, continuable } from '../src/index';
import { scriptedLanguageModel } from './support/scripted-language-model';

/** A payments agent whose `transfer` needs approval; `ran` records every execution. */
function payments(script: Parameters<typeof scriptedLanguageModel>[0]) {
  const ran: Array<{ to: string; amount: number }> = [];
  const model = scriptedLanguageModel(script);
  const transfer = tool({
    description: 'Send money',
    inputSchema: z.object({ to: z.string(), amount: z.number().positive() }),
    needsApproval: true,
    execute: async (args) => {
      ran.push(args);
      return { sent: args.amount, to: args.to };
    },
  });
  const agent = continuable(
    new ToolLoopAgent({ model, instructions: 'You move money.', tools: { transfer } }),
    {
      name: 'payments',
    },
  );
  return { agent, model, ran };
}

describe('nested approval', () => {
  const build = () => {
    const published: string[] = [];
    const researcher = continuable(
      new ToolLoopAgent({
        model: scriptedLanguageModel([
          { toolCalls: [{ name: 'publish_report', args: { title: 'Solar in 2026' } }] },
          (request) => `Published: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
        ]),
        tools: {
          publish_report: tool({
            inputSchema: z.object({ title: z.string() }),
            needsApproval: true,
            execute: async ({ title }) => {
              published.push(title);
              return { url: `https://reports.example/${published.length}` };
            },
          }),
        },
      }),
      { name: 'researcher', description: 'Researches and publishes reports' },
    );
    const orchestratorModel = scriptedLanguageModel([
      { toolCalls: [{ name: 'research', args: { input: 'Write the solar report' } }] },
      (request) => `Researcher said: ${String(lastToolResults(request.messages)[0]?.output)}`,
    ]);
    const orchestrator = continuable(
      new ToolLoopAgent({ model: orchestratorModel, tools: { research: agentTool(researcher) } }),
      { name: 'orchestrator' },
    );
    return { orchestrator, orchestratorModel, published };
  };

  it("surfaces the sub-agent's approval at the top with its real tool name and arguments, and resumes it", async () => {
    const first = build();
    const paused = suspended(await first.orchestrator.run('Get the solar report out'));
    expect(paused.actions).toHaveLength(1);
    const action = paused.actions[0]!;
    expect(action).toMatchObject({
      kind: 'approval',
      agent: 'researcher',
      toolName: 'publish_report',
      args: { title: 'Solar in 2026' },
    });
    expect(action.path.map((segment) => `${segment.agent}.${segment.toolName}`)).toEqual([
      'orchestrator.research',
      'researcher.publish_report',
    ]);
    expect(first.published).toEqual([]);

    const second = build();
    const done = await second.orchestrator.resume(JSON.stringify(paused.continuation), {
      [action.id]: { type: 'approve', by: 'ann' },
    });
    expect(done).toMatchObject({
      status: 'completed',
      output: 'Researcher said: Published: {"url":"https://reports.example/1"}',
    });
    expect(second.published).toEqual(['Solar in 2026']);
    // The orchestrator's model was called once after the resume, with the child's answer as the tool result.
    expect(second.orchestratorModel.requests).toHaveLength(1);
  });
});

describe('partial decisions', () => {
  it('runs the decided call, keeps the other pending without calling the model, then finishes', async () => {
    const script = [
      {
        toolCalls: [
          { name: 'transfer', args: { to: 'bob', amount: 10 } },
          { name: 'transfer', args: { to: 'eve', amount: 20 } },
        ],
      },
      (request: { messages: readonly import('@agent-continuations/core').Message[] }) =>
        `Results: ${JSON.stringify(lastToolResults(request.messages).map((result) => result.output))}`,
    ];
    const { agent, model, ran } = payments(script);
    const paused = suspended(await agent.run('Pay bob and eve'));
    expect(paused.actions.map((action) => action.args)).toEqual([
      { to: 'bob', amount: 10 },
      { to: 'eve', amount: 20 },
    ]);
    const [bob, eve] = paused.actions;

    const half = suspended(await agent.resume(paused.continuation, { [bob!.id]: { type: 'approve' } }));
    expect(ran).toEqual([{ to: 'bob', amount: 10 }]);
    expect(half.actions.map((action) => action.id)).toEqual([eve!.id]);
    expect(half.continuation.done.map((entry) => entry.toolCallId)).toEqual([bob!.toolCallId]);
    expect(model.requests).toHaveLength(1);

    const done = await agent.resume(half.continuation, {
      [eve!.id]: { type: 'reject', reason: 'unknown payee' },
    });
    expect(done.status).toBe('completed');
    expect(ran).toEqual([{ to: 'bob', amount: 10 }]);
    const outputs = lastToolResults(model.requests[1]!.messages);
    expect(outputs.map((result) => result.isError ?? false)).toEqual([false, true]);
    expect(String(outputs[1]!.output)).toContain('unknown payee');
  });
});

describe('edited arguments', () => {
  it('runs the tool with the edited arguments and records both in the audit trail', async () => {
    const { agent, model, ran } = payments([
      { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 500 } }] },
      'Sent.',
    ]);
    const paused = suspended(await agent.run('Pay bob 500'));
    const id = paused.actions[0]!.id;

    const refused = await agent
      .resume(paused.continuation, { [id]: { type: 'approve', args: { to: 'bob', amount: -1 } } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isContinuationError(refused, 'INVALID_ARGS')).toBe(true);
    expect(ran).toEqual([]);

    const done = await agent.resume(paused.continuation, {
      [id]: { type: 'approve', args: { to: 'bob', amount: 50 }, by: 'ann', reason: 'limit' },
    });
    expect(done.status).toBe('completed');
    expect(ran).toEqual([{ to: 'bob', amount: 50 }]);
    // The model is told what really ran.
    expect(lastToolResults(model.requests[1]!.messages)[0]!.output).toEqual({ sent: 50, to: 'bob' });
  });

  it('keeps the edit in the audit trail of the next suspension', async () => {
    const { agent } = payments([
      { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 500 } }] },
      { toolCalls: [{ name: 'transfer', args: { to: 'eve', amount: 1 } }] },
      'Sent.',
    ]);
    const paused = suspended(await agent.run('Pay'));
    const next = suspended(
      await agent.resume(paused.continuation, {
        [paused.actions[0]!.id]: { type: 'approve', args: { to: 'bob', amount: 50 }, by: 'ann' },
      }),
    );
    expect(next.continuation.decisions).toMatchObject([
      {
        type: 'approve',
        by: 'ann',
        toolName: 'transfer',
        args: { to: 'bob', amount: 500 },
        editedArgs: { to: 'bob', amount: 50 },
      },
    ]);
  });
});

describe('repeated resume through a store claim', () => {
  it('runs the approved tool once, however often the same continuation is resumed', async () => {
    const { agent, ran } = payments([
      { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 10 } }] },
      'Sent.',
    ]);
    const store = createMemoryStore();
    const paused = suspended(await agent.run('Pay bob'));
    await store.save(paused.continuation);
    const decisions = { [paused.actions[0]!.id]: { type: 'approve' as const } };

    // A double click: two resumes of the same continuation at once, then one more later.
    const racing = await Promise.allSettled([
      resumeStored(store, agent, paused.continuation.id, decisions),
      resumeStored(store, agent, paused.continuation.id, decisions),
    ]);
    const late = await resumeStored(store, agent, paused.continuation.id, decisions).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(racing.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const rejected = racing.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(isContinuationError(rejected.reason, 'CLAIM_CONFLICT')).toBe(true);
    expect(isContinuationError(late, 'CLAIM_CONFLICT')).toBe(true);
    expect(ran).toEqual([{ to: 'bob', amount: 10 }]);
    expect((await store.load(paused.continuation.id))?.status).toBe('completed');
  });
});
