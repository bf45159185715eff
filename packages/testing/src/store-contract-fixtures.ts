/**
 * Data for the store contract suite: continuations made by real runs of engine agents, and an agent
 * whose approved tool counts its executions.
 */
import {
  agentTool,
  type Continuation,
  createContinuableAgent,
  type EngineAgent,
  isContinuationError,
  type JsonObject,
  type SuspendedResult,
  type ToolContext,
  type ToolDefinition,
} from '@agent-continuations/core';
import { expect } from 'vitest';
import { suspended } from './results';
import { scriptedModel } from './scripted-model';

/** Text of the conversation that must never show in an encrypted store's raw records. */
export const SECRET_TEXT = 'Ann Example';

/** How often each tool of {@link payrollAgent} ran. */
export interface ToolRuns {
  update_salary: number;
  send_letter: number;
}

const salaryArgs = {
  type: 'object',
  properties: { employee: { type: 'string' }, salary: { type: 'number' } },
  required: ['employee', 'salary'],
};

/**
 * A scripted payroll agent that asks approval to update a salary, then (unless `letter` is false)
 * approval to send a letter, then answers. Its tools count their runs in `runs`.
 *
 * @example
 * ```ts
 * const runs = toolRuns();
 * const agent = payrollAgent(runs, { letter: false });
 * const result = await agent.run('Raise the salary of Ann Example to 120k'); // suspended
 * ```
 */
export function payrollAgent(
  runs: ToolRuns,
  options: {
    name?: string;
    letter?: boolean;
    /** Awaited inside `update_salary` after it counted its run: a slow tool, or one that watches `ctx.signal`. */
    during?: (ctx: ToolContext) => Promise<void>;
  } = {},
): EngineAgent {
  const approved = (toolName: keyof ToolRuns): ToolDefinition => ({
    name: toolName,
    inputSchema: salaryArgs,
    needsApproval: true,
    execute: async (args: { employee: string; salary: number }, ctx: ToolContext) => {
      runs[toolName]++;
      if (toolName === 'update_salary') await options.during?.(ctx);
      return { ok: true, employee: args.employee };
    },
  });
  const args = { employee: SECRET_TEXT, salary: 120_000 };
  return createContinuableAgent({
    name: options.name ?? 'payroll',
    instructions: 'You run payroll changes.',
    model: scriptedModel(
      options.letter === false
        ? [{ text: 'Updating the salary.', toolCalls: [{ name: 'update_salary', args }] }, 'Salary updated.']
        : [
            { text: 'Updating the salary.', toolCalls: [{ name: 'update_salary', args }] },
            { toolCalls: [{ name: 'send_letter', args }] },
            'Salary updated and letter sent.',
          ],
    ),
    tools: [approved('update_salary'), approved('send_letter')],
  });
}

/** A fresh pair of counters for {@link payrollAgent}. */
export function toolRuns(): ToolRuns {
  return { update_salary: 0, send_letter: 0 };
}

/** Start {@link payrollAgent}'s run: it suspends for the salary approval. */
export async function startPayroll(agent: EngineAgent, metadata: JsonObject = {}): Promise<SuspendedResult> {
  return suspended(
    await agent.run(`Raise the salary of ${SECRET_TEXT} to 120k, then send her a letter.`, { metadata }),
  );
}

/** A continuation nested two levels deep (hr -> payroll, waiting for approval), made by a real run. */
export async function nestedContinuation(metadata: JsonObject = {}): Promise<Continuation> {
  const hr = createContinuableAgent({
    name: 'hr',
    model: scriptedModel([
      { toolCalls: [{ name: 'payroll', args: { input: `raise ${SECRET_TEXT}` } }] },
      'done',
    ]),
    tools: [agentTool(payrollAgent(toolRuns()))],
  });
  return suspended(await hr.run(`Give ${SECRET_TEXT} a raise — ünïcödé ✓`, { metadata })).continuation;
}

/** A deep copy of `base` under another id, with the given run id, agent name and metadata. */
export function variant(
  base: Continuation,
  fields: { id: string; runId?: string; agentName?: string; metadata?: JsonObject },
): Continuation {
  // A deep copy: a test that changes what it saved must not change every later test's base.
  return {
    ...structuredClone(base),
    id: fields.id,
    runId: fields.runId ?? `run_${fields.id}`,
    agent: { ...base.agent, name: fields.agentName ?? base.agent.name },
    metadata: fields.metadata ?? {},
  };
}

/** Await `promise` and expect it to fail with a `ContinuationError` of `code`. */
export async function expectCode(promise: Promise<unknown>, code: Parameters<typeof isContinuationError>[1]) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(
    isContinuationError(error, code),
    `expected ${code}, got ${error === undefined ? 'success' : String(error)}`,
  ).toBe(true);
}

/** Poll `check` until it returns true; fails after `timeoutMs`. Waits for an event, never asserts a duration. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Settle `promise` to its value or its error code, for tallying racers. */
export async function outcome<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, code: isContinuationError(error) ? error.code : `untyped: ${String(error)}` };
  }
}
