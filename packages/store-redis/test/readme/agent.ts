// The agent of the README example: a scripted payroll agent that asks approval once.
import { payrollAgent, toolRuns } from '@agent-continuations/testing';

export const runs = toolRuns();
export const agent = payrollAgent(runs, { letter: false });
