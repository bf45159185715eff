/**
 * The HR example's agents: an HR orchestrator calls a payroll sub-agent, which calls a benefits
 * sub-agent whose `update_salary` tool needs a human's approval. The models are scripted, so the
 * example runs without an API key and makes the same choices in every process.
 */
import { agentTool, createContinuableAgent, defineTool, type EngineAgent } from '@agent-continuations/core';
import { lastToolResults, scriptedModel } from '@agent-continuations/testing';
import { z } from 'zod';
import type { Ledger } from './ledger';

/** Build the three agents; `ledger` records every salary change (the side effect we count). */
export function buildHrAgent(ledger: Ledger): EngineAgent {
  const lookupEmployee = defineTool({
    name: 'lookup_employee',
    description: 'Find an employee by name',
    parameters: z.object({ name: z.string() }),
    execute: async ({ name }) => ({ id: 'E-42', name, salary: 52_000 }),
  });
  const updateSalary = defineTool({
    name: 'update_salary',
    description: 'Change an employee salary',
    parameters: z.object({ employeeId: z.string(), salary: z.number().int().positive() }),
    needsApproval: true,
    execute: async ({ employeeId, salary }, ctx) => ledger.record(ctx.idempotencyKey, { employeeId, salary }),
  });

  const benefits = createContinuableAgent({
    name: 'benefits',
    instructions: 'You manage salaries and benefits. Look the employee up, then update the salary.',
    model: scriptedModel([
      { toolCalls: [{ name: 'lookup_employee', args: { name: 'Ada' } }] },
      (request) => {
        const employee = lastToolResults(request.messages)[0]?.output as { id: string; salary: number };
        return {
          toolCalls: [
            { name: 'update_salary', args: { employeeId: employee.id, salary: employee.salary + 3_000 } },
          ],
        };
      },
      (request) => `Salary updated: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
    ]),
    tools: [lookupEmployee, updateSalary],
  });

  const payroll = createContinuableAgent({
    name: 'payroll',
    instructions: 'You run payroll. Salary changes go to the benefits agent.',
    model: scriptedModel([
      { toolCalls: [{ name: 'benefits', args: { input: 'Give Ada a raise of 3000' } }] },
      (request) => `Payroll updated. ${String(lastToolResults(request.messages)[0]?.output)}`,
    ]),
    tools: [agentTool(benefits, { description: 'Salaries and benefits' })],
  });

  return createContinuableAgent({
    name: 'hr',
    instructions: 'You are the HR assistant. Delegate pay questions to payroll.',
    model: scriptedModel([
      { toolCalls: [{ name: 'payroll', args: { input: 'Raise Ada by 3000' } }] },
      (request) => `Done. ${String(lastToolResults(request.messages)[0]?.output)}`,
    ]),
    tools: [agentTool(payroll, { description: 'Payroll' })],
  });
}
