/**
 * The HR agent of this example: three nested agents on the OpenAI SDK (`@agent-continuations/openai`).
 * `hr` hands pay questions to `payroll`, which hands salary changes to `benefits`, whose
 * `update_salary` tool waits for a person's approval. The models are a local scripted
 * OpenAI-compatible server, so every run makes the same choices.
 */
import { agentTool, createAgent, tool } from '@agent-continuations/openai';
import {
  lastToolResults,
  type Script,
  startScriptedOpenAIServer,
} from '@agent-continuations/testing/runtime';
import OpenAI from 'openai';
import { z } from 'zod';
import type { Ledger } from './ledger';

/** The model name each agent asks for; the scripted server answers each from its own script. */
const MODELS = { hr: 'hr-scripted', payroll: 'payroll-scripted', benefits: 'benefits-scripted' };

/** What the scripted models answer to "give Ada a 3000 raise", decided from the transcript alone. */
const scripts: Record<string, Script> = {
  [MODELS.hr]: [
    { toolCalls: [{ name: 'payroll', args: { input: 'Raise Ada by 3000' } }] },
    (request) => `Done. ${String(lastToolResults(request.messages)[0]?.output)}`,
  ],
  [MODELS.payroll]: [
    { toolCalls: [{ name: 'benefits', args: { input: 'Give Ada a raise of 3000' } }] },
    (request) => `Payroll updated. ${String(lastToolResults(request.messages)[0]?.output)}`,
  ],
  [MODELS.benefits]: [
    { toolCalls: [{ name: 'lookup_employee', args: { name: 'Ada' } }] },
    (request) => {
      const found = lastToolResults(request.messages)[0]?.output as { id: string; salary: number };
      return {
        toolCalls: [{ name: 'update_salary', args: { employeeId: found.id, salary: found.salary + 3_000 } }],
      };
    },
    (request) => `Salary updated: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
  ],
};

/** The HR agent and the scripted model server it talks to. */
export interface HrAgent {
  hr: ReturnType<typeof createAgent>;
  /** Stop the scripted model server. */
  close(): Promise<void>;
}

/**
 * Start the scripted model server and build the three agents; every salary change goes to `ledger`.
 *
 * @example
 * ```ts
 * const { hr, close } = await hrAgent(ledger);
 * const result = await hr.run('Please give Ada a 3000 raise.');
 * await close();
 * ```
 */
export async function hrAgent(ledger: Ledger): Promise<HrAgent> {
  const server = await startScriptedOpenAIServer({ scripts });
  const client = new OpenAI({ apiKey: 'scripted', baseURL: server.baseURL });

  const lookupEmployee = tool({
    name: 'lookup_employee',
    description: 'Find an employee by name',
    parameters: z.object({ name: z.string() }),
    execute: async ({ name }) => ({ id: 'E-42', name, salary: 52_000 }),
  });
  const updateSalary = tool({
    name: 'update_salary',
    description: 'Change an employee salary',
    parameters: z.object({
      employeeId: z.string(),
      salary: z.number().int().positive().describe('The new yearly salary'),
    }),
    needsApproval: true,
    execute: async ({ employeeId, salary }, ctx) => ledger.record(ctx.idempotencyKey, { employeeId, salary }),
  });
  const benefits = createAgent({
    client,
    model: MODELS.benefits,
    name: 'benefits',
    instructions: 'You manage salaries and benefits. Look the employee up, then update the salary.',
    tools: [lookupEmployee, updateSalary],
  });
  const payroll = createAgent({
    client,
    model: MODELS.payroll,
    name: 'payroll',
    instructions: 'You run payroll. Salary changes go to the benefits agent.',
    tools: [agentTool(benefits, { description: 'Salaries and benefits' })],
  });
  const hr = createAgent({
    client,
    model: MODELS.hr,
    name: 'hr',
    instructions: 'You are the HR assistant. Delegate pay questions to payroll.',
    tools: [agentTool(payroll, { description: 'Payroll' })],
  });
  return { hr, close: () => server.close() };
}
