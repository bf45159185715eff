/**
 * The HR example's agents, built on the OpenAI SDK with `@agent-continuations/openai`: an HR
 * orchestrator calls a payroll sub-agent, which calls a benefits sub-agent whose `update_salary`
 * tool needs a human's approval. Without an API key the models are a local scripted server, so
 * the example makes the same choices in every process.
 */
import { agentTool, createAgent, tool } from '@agent-continuations/openai';
import { z } from 'zod';
import type { HrModels } from './client';
import type { Ledger } from './ledger';

/** Build the three agents; `ledger` records every salary change (the side effect we count). */
export function buildHrAgent(ledger: Ledger, { client, models }: Pick<HrModels, 'client' | 'models'>) {
  const lookupEmployee = tool({
    name: 'lookup_employee',
    description: 'Find an employee by name',
    parameters: z.object({ name: z.string() }),
    execute: async ({ name }) => ({ id: 'E-42', name, salary: 52_000 }),
  });
  const updateSalary = tool({
    name: 'update_salary',
    description: 'Change an employee salary',
    parameters: z.object({ employeeId: z.string(), salary: z.number().int().positive() }),
    needsApproval: true,
    execute: async ({ employeeId, salary }, ctx) => ledger.record(ctx.idempotencyKey, { employeeId, salary }),
  });

  const benefits = createAgent({
    client,
    model: models.benefits,
    name: 'benefits',
    instructions: 'You manage salaries and benefits. Look the employee up, then update the salary.',
    tools: [lookupEmployee, updateSalary],
  });

  const payroll = createAgent({
    client,
    model: models.payroll,
    name: 'payroll',
    instructions: 'You run payroll. Salary changes go to the benefits agent.',
    tools: [agentTool(benefits, { description: 'Salaries and benefits' })],
  });

  return createAgent({
    client,
    model: models.hr,
    name: 'hr',
    instructions: 'You are the HR assistant. Delegate pay questions to payroll.',
    tools: [agentTool(payroll, { description: 'Payroll' })],
  });
}
