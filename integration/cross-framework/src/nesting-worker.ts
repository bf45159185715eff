/**
 * The resuming side of mixed nesting, as run in a fresh process: rebuild each chain from its
 * definition and approve every action the continuation lists.
 */
import { type Decisions, listActions, parseContinuation } from '@agent-continuations/core';
import type { Counts } from '@agent-continuations/testing';
import { buildChain, type Chain } from './nesting-scenario';
import { type RunError, runError } from './run-error';

/** One suspended chain to resume. */
export interface NestingJob {
  /** Names the report. */
  key: string;
  /** How to build the chain here: the frameworks may differ from the ones that suspended. */
  chain: Chain;
  continuation: string;
}

/** What became of one chain. */
export interface NestingReport {
  key: string;
  approved: string[];
  status?: string;
  output?: string;
  counts: Counts;
  error?: RunError;
}

/** Resume every chain with all its actions approved. */
export async function runNestingJobs(baseURL: string, jobs: readonly NestingJob[]): Promise<NestingReport[]> {
  const reports: NestingReport[] = [];
  for (const job of jobs) {
    const counts: Counts = {};
    const report: NestingReport = { key: job.key, approved: [], counts };
    try {
      const actions = listActions(parseContinuation(job.continuation));
      const decisions: Decisions = {};
      for (const action of actions) decisions[action.id] = { type: 'approve', by: 'ops@acme' };
      report.approved = Object.keys(decisions);
      const result = await buildChain(job.chain, counts, baseURL).resume(job.continuation, decisions);
      report.status = result.status;
      if (result.status === 'completed') report.output = result.output;
    } catch (error) {
      report.error = runError(error);
    }
    reports.push(report);
  }
  return reports;
}
