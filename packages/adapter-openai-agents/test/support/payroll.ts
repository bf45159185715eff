/**
 * Three `@openai/agents` levels, `hr > payroll > benefits`, each the SDK's own Agent over its own
 * OpenAI model on the scripted server; the benefits agent's `update_salary` needs approval. Built
 * with the sub-agents' `asTool` made natively or through `continuable(sub)`; `models` prefixes the
 * model names so runs can be told apart on the server.
 */
import { lastToolResults, type Script, type ScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
import { continuable } from '../../src/index';
import { sdkModel } from '../harness';

export const delegate = (name: string, input: string): Script => [
  { text: `Asking ${name}.`, toolCalls: [{ name, args: { input } }] },
  (request) => `${name} said: ${String(lastToolResults(request.messages)[0]?.output)}`,
];
export const salaryScript: Script = [
  { toolCalls: [{ name: 'update_salary', args: { employeeId: 'ada', salary: 3000 } }] },
  (request) => `updated ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
];
export const salaryParameters = z.object({ employeeId: z.string(), salary: z.number() });

export type Counts = { update_salary?: number };

/** The SDK's three levels; the root agent is returned unwrapped. */
export function payrollChain(options: {
  api: 'chat' | 'responses';
  server: ScriptedOpenAIServer;
  counts: Counts;
  models?: string;
  wrapSubAgents?: boolean;
}) {
  const { api, server, counts, models = '', wrapSubAgents = true } = options;
  const model = (name: string) => {
    server.setScript(`${models}${name}`, name === 'benefits' ? salaryScript : scripts[name]!);
    return sdkModel(api, server, `${models}${name}`);
  };
  const scripts: Record<string, Script> = {
    hr: delegate('payroll', 'raise ada to 3000'),
    payroll: delegate('benefits', 'set ada to 3000'),
  };
  const updateSalary = tool({
    name: 'update_salary',
    description: 'Change a salary',
    parameters: salaryParameters,
    needsApproval: true,
    execute: async (args) => {
      counts.update_salary = (counts.update_salary ?? 0) + 1;
      return { ...args, applied: true };
    },
  });
  const asTool = (agent: Agent, toolName: string, toolDescription: string) =>
    wrapSubAgents
      ? continuable(agent).asTool({ toolName, toolDescription })
      : agent.asTool({ toolName, toolDescription });
  const benefits = new Agent({ name: 'benefits', model: model('benefits'), tools: [updateSalary] });
  const payroll = new Agent({
    name: 'payroll',
    model: model('payroll'),
    tools: [asTool(benefits, 'benefits', 'Salaries')],
  });
  return new Agent({ name: 'hr', model: model('hr'), tools: [asTool(payroll, 'payroll', 'Payroll')] });
}
