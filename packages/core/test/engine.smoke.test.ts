import {
  agentTool,
  createContinuableAgent,
  defineTool,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { scriptedModel } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('engine smoke', () => {
  it('suspends three levels deep and resumes', async () => {
    let updates = 0;
    const updateSalary = defineTool({
      name: 'update_salary',
      parameters: z.object({ employee: z.string(), salary: z.number() }),
      needsApproval: true,
      execute: async ({ salary }) => {
        updates++;
        return { ok: true, salary };
      },
    });
    const benefits = createContinuableAgent({
      name: 'benefits',
      model: scriptedModel([
        { toolCalls: [{ name: 'update_salary', args: { employee: 'ann', salary: 100 } }] },
        'salary updated',
      ]),
      tools: [updateSalary],
    });
    const payroll = createContinuableAgent({
      name: 'payroll',
      model: scriptedModel([
        { toolCalls: [{ name: 'benefits', args: { input: 'raise ann' } }] },
        'payroll done',
      ]),
      tools: [agentTool(benefits)],
    });
    const hr = createContinuableAgent({
      name: 'hr',
      model: scriptedModel([{ toolCalls: [{ name: 'payroll', args: { input: 'raise ann' } }] }, 'hr done']),
      tools: [agentTool(payroll)],
    });
    const first = await hr.run('give ann a raise');
    expect(first.status).toBe('suspended');
    if (first.status !== 'suspended') return;
    expect(first.actions).toHaveLength(1);
    expect(first.actions[0]!.id).toBe('call_1_0/call_1_0/call_1_0');
    expect(first.actions[0]!.path.map((p) => p.agent)).toEqual(['hr', 'payroll', 'benefits']);
    const text = serializeContinuation(first.continuation);
    const second = await hr.resume(parseContinuation(text), {
      [first.actions[0]!.id]: { type: 'approve', args: { employee: 'ann', salary: 120 }, by: 'boss' },
    });
    expect(second.status).toBe('completed');
    expect(updates).toBe(1);
    if (second.status === 'completed') expect(second.output).toBe('hr done');
  });
});
