/**
 * The resuming side of a handoff, as run in a fresh process: each job is a continuation made by
 * another framework, resumed here by an agent of `target` that has tools of the same names.
 */
import type { Action, AuditEntry, JsonObject, RunResult } from '@agent-continuations/core';
import type { Counts } from '@agent-continuations/testing';
import { buildAgent, type Framework } from './frameworks';
import { finalDecision, handoffAgent, transferDecision } from './handoff-scenario';
import { type RunError, runError } from './run-error';

/** One continuation to resume. */
export interface HandoffJob {
  label: string;
  /** The model name the resuming agent uses on the scripted server. */
  model: string;
  /** The serialized continuation, as it was saved by the source. */
  continuation: string;
}

/** What became of one job. */
export interface HandoffReport {
  label: string;
  /** The suspension after the approved transfer: what the target carried forward. */
  suspended?: {
    framework: string;
    runId: string;
    step: number;
    metadata: JsonObject;
    decisions: AuditEntry[];
    actions: Array<Pick<Action, 'id' | 'toolName' | 'args'>>;
    hasState: boolean;
  };
  final?: { status: RunResult['status']; output?: string };
  counts: Counts;
  error?: RunError;
}

/** Resume every job with a fresh `target` agent, in order. */
export async function runHandoffJobs(
  target: Framework,
  baseURL: string,
  jobs: readonly HandoffJob[],
): Promise<HandoffReport[]> {
  const reports: HandoffReport[] = [];
  for (const job of jobs) {
    const counts: Counts = {};
    const report: HandoffReport = { label: job.label, counts };
    try {
      const agent = buildAgent(target, handoffAgent(counts, job.model), baseURL);
      const transferId = JSON.parse(job.continuation).pending[0].toolCallId as string;
      const first = await agent.resume(job.continuation, transferDecision(transferId));
      if (first.status !== 'suspended') throw new Error(`expected a second suspension, got ${first.status}`);
      report.suspended = {
        framework: first.continuation.agent.framework,
        runId: first.continuation.runId,
        step: first.continuation.step,
        metadata: first.continuation.metadata,
        decisions: first.continuation.decisions,
        actions: first.actions.map(({ id, toolName, args }) => ({ id, toolName, args })),
        hasState: first.continuation.state !== undefined,
      };
      const last = await agent.resume(first.continuation, finalDecision(first.actions[0]!.id));
      report.final = { status: last.status, ...(last.status === 'completed' ? { output: last.output } : {}) };
    } catch (error) {
      report.error = runError(error);
    }
    reports.push(report);
  }
  return reports;
}
