/**
 * What the scripted models say when no API key is set: the choices real models would make for
 * "give Ada a 3000 raise", decided from the transcript alone, one script per agent (each agent
 * asks for its own model name, so the scripted server routes each to its script).
 */
import { lastToolResults, type Script } from '@agent-continuations/testing/runtime';

export const SCRIPTED_MODELS = {
  hr: 'hr-scripted',
  payroll: 'payroll-scripted',
  benefits: 'benefits-scripted',
};

export const hrScripts: Record<string, Script> = {
  [SCRIPTED_MODELS.hr]: [
    { toolCalls: [{ name: 'payroll', args: { input: 'Raise Ada by 3000' } }] },
    (request) => `Done. ${String(lastToolResults(request.messages)[0]?.output)}`,
  ],
  [SCRIPTED_MODELS.payroll]: [
    { toolCalls: [{ name: 'benefits', args: { input: 'Give Ada a raise of 3000' } }] },
    (request) => `Payroll updated. ${String(lastToolResults(request.messages)[0]?.output)}`,
  ],
  [SCRIPTED_MODELS.benefits]: [
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
  ],
};
