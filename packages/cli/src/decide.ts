/**
 * `approve`, `reject`, `answer` and `resume`: each resumes the run through `resumeStored`, under a
 * claim, with the agent from `--agents`. Without the agent nothing is applied: a decision is only
 * real once the run resumes with it (the approved tool runs, the model reads the rejection), and
 * recording it without running it would leave a decided action that nothing executes.
 */
import {
  type Action,
  type ContinuableAgent,
  ContinuationError,
  type Decision,
  type JsonValue,
  listActions,
  type RunResult,
  resumesWithoutDecisions,
} from '@agent-continuations/core';
import { claimRefused } from '@agent-continuations/core/store-kit';
import { loadAgents } from './agents-module';
import { type Command, type CommandContext, type CommandOutput, stringOption } from './context';
import { actionLine, notFound } from './inspect';
import { json } from './tree';
import { UsageError } from './usage-error';

const agentsOption = { agents: { type: 'string' as const } };
const byOption = { by: { type: 'string' as const } };

/** `approve <id> <actionId>`: run the tool call, with edited `--args` if given. */
export const approve: Command = {
  usage: 'approve <id> <actionId> --agents FILE [--args JSON] [--by NAME] [--reason TEXT]',
  summary: 'approve an action (optionally with edited arguments) and resume the run',
  operands: { min: 2, max: 2 },
  options: { ...agentsOption, ...byOption, args: { type: 'string' }, reason: { type: 'string' } },
  run: (context) =>
    decide(context, 'approve', () => {
      const decision: Decision = { type: 'approve' };
      const args = stringOption(context.values, 'args');
      if (args !== undefined) decision.args = jsonOption('--args', args);
      return withBy(context, withReason(context, decision));
    }),
};

/** `reject <id> <actionId>`: skip the call; the model is told, with the reason. */
export const reject: Command = {
  usage: 'reject <id> <actionId> --agents FILE [--reason TEXT] [--by NAME]',
  summary: 'reject an action (the model is told why) and resume the run',
  operands: { min: 2, max: 2 },
  options: { ...agentsOption, ...byOption, reason: { type: 'string' } },
  run: (context) => decide(context, 'reject', () => withBy(context, withReason(context, { type: 'reject' }))),
};

/** `answer <id> <actionId> --value JSON`: answer an input request. */
export const answer: Command = {
  usage: 'answer <id> <actionId> --agents FILE --value JSON [--by NAME]',
  summary: 'answer an input request (JSON), or give a call in doubt the result it had, and resume the run',
  operands: { min: 2, max: 2 },
  options: { ...agentsOption, ...byOption, value: { type: 'string' } },
  run: (context) =>
    decide(context, 'answer', () => {
      const value = stringOption(context.values, 'value');
      if (value === undefined) throw new UsageError('answer needs --value JSON (e.g. --value \'"yes"\').');
      return withBy(context, { type: 'input', value: jsonOption('--value', value) });
    }),
};

/** `resume <id>`: go on with a run that waits for no decision (a predicate stopped it, or a failure). */
export const resume: Command = {
  usage: 'resume <id> --agents FILE',
  summary: 'resume a run that needs no decision (suspended by a predicate, or after a failure)',
  operands: { min: 1, max: 1 },
  options: { ...agentsOption },
  async run(context) {
    const [id] = context.operands as [string];
    const agentsFile = requireAgents(context, 'resume');
    const { continuation, status, expiresAt, error } = await loadPending(context, id);
    if (!resumesWithoutDecisions(continuation)) {
      const ids = listActions(continuation).map((action) => action.id);
      throw new ContinuationError(
        'INVALID_OPERATION',
        `Continuation "${id}" waits for decisions on ${ids.join(', ')}: use approve, reject or answer.`,
      );
    }
    assertResumable(id, status, expiresAt, error);
    await agentFor(context, agentsFile, continuation.agent.name);
    const runtime = await context.runtime(agentsFile);
    return report(id, await runtime.resume(id, {}));
  },
};

/** `cancel <id>`: end the whole run where it waits; every pending action is rejected, nothing runs. */
export const cancel: Command = {
  usage: 'cancel <id> [--reason TEXT] [--by NAME]',
  summary: 'end a whole run: reject every pending action with the reason (nothing runs)',
  operands: { min: 1, max: 1 },
  options: { ...byOption, reason: { type: 'string' } },
  async run(context) {
    const [id] = context.operands as [string];
    const { status, expiresAt, error } = await loadPending(context, id);
    assertResumable(id, status, expiresAt, error);
    const by = stringOption(context.values, 'by');
    const reason = stringOption(context.values, 'reason');
    const runtime = await context.runtime();
    const cancelled = await runtime.cancel(id, {
      ...(by === undefined ? {} : { by }),
      ...(reason === undefined ? {} : { reason }),
    });
    const rejected = cancelled.rejected.map((entry) => `  rejected ${entry.actionId} (${entry.toolName})`);
    return {
      json: cancelled,
      text: [`cancelled ${id}: the run ended; nothing ran.`, ...rejected].join('\n'),
    };
  },
};

type Verb = 'approve' | 'reject' | 'answer';

async function decide(context: CommandContext, verb: Verb, make: () => Decision): Promise<CommandOutput> {
  const [id, actionId] = context.operands as [string, string];
  const agentsFile = requireAgents(context, verb);
  // Options first: a malformed --args or --value is a usage error before anything is read.
  const decision = make();
  const { continuation, status, expiresAt, error } = await loadPending(context, id);
  const actions = listActions(continuation);
  const action = actions.find((each) => each.id === actionId);
  if (!action) throw unknownAction(id, actionId, actions);
  // A call in doubt takes an answer too: the result it had, when it ran.
  if (verb === 'answer' && action.kind !== 'input' && !action.inDoubt) {
    throw new ContinuationError(
      'WRONG_DECISION_KIND',
      `Action "${actionId}" asks for an approval, not an answer: use approve or reject.`,
    );
  }
  if (verb === 'approve' && action.kind !== 'approval') {
    throw new ContinuationError(
      'WRONG_DECISION_KIND',
      `Action "${actionId}" asks for an answer, not an approval: use answer (or reject).`,
    );
  }
  assertResumable(id, status, expiresAt, error);
  await agentFor(context, agentsFile, continuation.agent.name);
  const runtime = await context.runtime(agentsFile);
  // The claim decides: a second approve of the same continuation fails with CLAIM_CONFLICT. The
  // person who decided is the claim's owner, so the store can say who resumed the run.
  const result = await runtime.resume(
    id,
    { [actionId]: decision },
    decision.by === undefined ? {} : { owner: decision.by },
  );
  return report(id, result, { actionId, decision });
}

function requireAgents(context: CommandContext, verb: string): string {
  const file = stringOption(context.values, 'agents') ?? context.env.AGENT_CONTINUATIONS_AGENTS;
  if (file) return file;
  throw new UsageError(
    `${verb} needs --agents FILE, a module that exports your agents by name. A decision takes ` +
      'effect by resuming the run (the approved tool runs, the model reads a rejection or an ' +
      'answer), which needs the agent; nothing was changed.',
  );
}

async function loadPending(context: CommandContext, id: string) {
  const stored = await (await context.store()).load(id);
  if (!stored) throw notFound(id);
  return stored;
}

/** Refuse early, with the store's own reasons, what a claim would refuse. */
function assertResumable(id: string, status: string, expiresAt?: string, error?: string): void {
  if (status === 'suspended') return;
  if (status === 'completed') {
    throw new ContinuationError(
      'CLAIM_CONFLICT',
      `Continuation "${id}" is already resumed: its actions are not pending any more (see show ${id}).`,
    );
  }
  throw claimRefused(id, status as 'claimed' | 'expired' | 'failed', expiresAt, error);
}

async function agentFor(
  context: CommandContext,
  file: string,
  name: string,
): Promise<ContinuableAgent<any, unknown>> {
  return (await loadAgents(file, context.cwd)).find(name);
}

function unknownAction(id: string, actionId: string, actions: Action[]): ContinuationError {
  const pending = actions.length === 0 ? 'none' : actions.map((action) => action.id).join(', ');
  return new ContinuationError(
    'UNKNOWN_ACTION',
    `Continuation "${id}" has no pending action "${actionId}" (pending: ${pending}).`,
  );
}

function report(
  id: string,
  result: RunResult<unknown>,
  applied?: { actionId: string; decision: Decision },
): CommandOutput {
  const head = applied ? `${applied.decision.type} ${applied.actionId} of ${id}: ` : `resumed ${id}: `;
  switch (result.status) {
    case 'completed':
      return {
        json: {
          status: 'completed',
          id,
          runId: result.runId,
          output: result.output,
          step: result.step,
          usage: result.usage,
          decisions: result.decisions,
        },
        text: `${head}the run completed.\noutput: ${typeof result.output === 'string' ? result.output : json(result.output, 2000)}`,
      };
    case 'rejected':
      return {
        json: { status: 'rejected', id, runId: result.runId, rejection: result.rejection, step: result.step },
        text: `${head}the run ended as rejected (${result.rejection.toolName}${result.rejection.reason ? `: ${result.rejection.reason}` : ''}).`,
      };
    case 'suspended': {
      const next = result.continuation;
      return {
        json: {
          status: 'suspended',
          id,
          next: next.id,
          runId: next.runId,
          actions: result.actions,
          decisions: next.decisions,
        },
        text: [
          `${head}the run suspended again as ${next.id}, waiting for:`,
          ...result.actions.map((action) => `  ${actionLine(action)}`),
          ...(result.actions.length === 0 ? ['  no decision (resume it)'] : []),
        ].join('\n'),
      };
    }
  }
}

function withBy(context: CommandContext, decision: Decision): Decision {
  const by = stringOption(context.values, 'by');
  return by === undefined ? decision : { ...decision, by };
}

function withReason(context: CommandContext, decision: Decision): Decision {
  const reason = stringOption(context.values, 'reason');
  return reason === undefined || decision.type === 'input' ? decision : { ...decision, reason };
}

function jsonOption(name: string, text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new UsageError(`${name} is not JSON (${(error as Error).message}); quote strings: '"text"'.`);
  }
}
