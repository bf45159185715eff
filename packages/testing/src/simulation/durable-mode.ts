/**
 * Durable mode: every step of the run goes into a checkpoint log (`runDurably`, `resumeStored`
 * with the log), the store keeps what waits for a human, and `recover` takes over runs whose
 * worker died; stale continuations are delivered again.
 */
import {
  type Decisions,
  isContinuationError,
  type RunRecord,
  type RunResult,
  recover,
  recoverRun,
  resumeDurably,
  resumeStored,
  runDurably,
} from '@agent-continuations/core';
import { waitingDisagreements } from '../store-log-agreement';
import type { Mode, Outcome, Proc, SequenceContext } from './context';
import { describe } from './run-helpers';

export class DurableMode implements Mode {
  /** `recover` was given a chance to reconcile the log and the store. */
  private reconciled = false;

  constructor(private readonly sequence: SequenceContext) {}

  async start(): Promise<void> {
    const sequence = this.sequence;
    // Drawn as in the other modes, so that a seed draws the same numbers after it.
    sequence.drawStreams();
    const outcome = await sequence.op('runDurably', (proc) =>
      runDurably(proc.agent, proc.log, sequence.input, {
        runId: sequence.runId,
        owner: `p${proc.process.id}`,
      }).then(async (result) => {
        if (result.status === 'suspended') {
          await proc.store.save(result.continuation);
          await proc.log.markSaved?.(sequence.runId, result.continuation.id);
        }
        return result;
      }),
    );
    this.absorb(outcome);
  }

  async step(): Promise<void> {
    const sequence = this.sequence;
    const status = await sequence.checkpoints.status(sequence.runId);
    if (await this.recoverRunning(status)) return;
    const record = await sequence.pickLive();
    if (!record) {
      if ((await sequence.live()).length > 0) {
        sequence.clockLapse();
        return;
      }
      if (!status) return this.start();
      if (status.status === 'completed' || status.status === 'rejected') {
        // Finished after the worker reported it (a crash in between): the log knows.
        sequence.note(`  the log says the run ${status.status}`);
        sequence.completed = true;
        return;
      }
      if (status.status === 'failed' && !this.reconciled) {
        // A worker may have died between the log's failure and the store's failed record:
        // recovery reconciles them; give it a chance first.
        this.reconciled = await this.recoverOnce();
        return;
      }
      if (status.status === 'failed') {
        sequence.note(`  the log says the run failed: ${status.error}`);
        sequence.stopped = true;
        sequence.violation(`the run failed in the log with no failed record to retry: ${status.error}`);
        return;
      }
      if (!this.reconciled) {
        // Recovery may reconcile the log and the store (save the log's suspension): give it a chance.
        this.reconciled = await this.recoverOnce();
        return;
      }
      sequence.violation(
        `stranded: the log says ${status.status} (suspension ${status.suspensionId}) and the store holds nothing to resume, even after recover()`,
      );
      sequence.stopped = true;
      return;
    }
    if (record.status === 'failed') await sequence.store.retry(record.id);
    if (sequence.random.chance(0.15)) return this.duplicate();
    if (sequence.random.chance(0.2)) {
      sequence.faults.count('newProcess');
      sequence.proc = await sequence.spawn();
    }
    await this.resumeOnce(record.id, 'some');
  }

  async drainRound(): Promise<void> {
    const sequence = this.sequence;
    const status = await sequence.checkpoints.status(sequence.runId);
    if (await this.recoverRunning(status)) return;
    const record = await sequence.pickLive();
    if (!record) {
      await this.step();
      return;
    }
    if (record.status === 'failed') await sequence.store.retry(record.id);
    await this.resumeOnce(record.id, 'all');
  }

  /**
   * A run the log holds as running lost its worker: its lease lapses and another process takes it
   * over, by the `recover` sweep or by `recoverRun` (with the store, or without it: a later sweep
   * settles the store then).
   */
  private async recoverRunning(status: RunRecord | undefined): Promise<boolean> {
    if (status?.status !== 'running') return false;
    this.sequence.clockLapse();
    const how = this.sequence.random.pick(['recover', 'recover', 'recoverRun', 'recoverRun'] as const);
    if (how === 'recover') await this.recoverOnce();
    else await this.recoverRunOnce(this.sequence.random.chance(0.5));
    return true;
  }

  /** `recoverRun` of the run, with the store or without it. */
  private async recoverRunOnce(withStore: boolean): Promise<void> {
    const sequence = this.sequence;
    const outcome = await sequence.op(
      `recoverRun(${withStore ? 'with the store' : 'without a store'})`,
      (proc) =>
        recoverRun(proc.agent, proc.log, sequence.runId, {
          owner: `p${proc.process.id}`,
          ...(withStore ? { store: proc.store } : {}),
        }),
    );
    if ('error' in outcome && isContinuationError(outcome.error, 'CLAIM_CONFLICT')) return;
    this.absorb(outcome);
    if (withStore && 'value' in outcome) await this.checkAgreement('recoverRun with the store');
  }

  /**
   * After recovery, the store's waiting records are exactly the suspensions the log holds: its
   * last one while it waits, none once it ended. A record of a suspension the log moved past is an
   * approval no one can act on, offered forever.
   */
  private async checkAgreement(after: string): Promise<void> {
    const sequence = this.sequence;
    const lines = await waitingDisagreements(sequence.store, sequence.checkpoints, [sequence.runId]);
    for (const line of lines) sequence.violation(`after ${after}, ${line}`);
  }

  /** Once the run completed: a last sweep, and the store agrees with the log. */
  async afterDrain(): Promise<void> {
    if (!this.sequence.completed) return;
    if (await this.recoverOnce()) await this.checkAgreement('the last recover');
  }

  private absorb(outcome: Outcome<RunResult<unknown>>, decisions: Decisions = {}): void {
    const sequence = this.sequence;
    if ('crashed' in outcome) return;
    if ('error' in outcome) {
      if (!isContinuationError(outcome.error))
        sequence.violation(`unexpected error: ${describe(outcome.error)}`);
      return; // the log holds the run: recovery picks it up once its lease lapses
    }
    const result = outcome.value;
    if (result.status === 'suspended') sequence.checkConsumed(decisions, result.continuation, 'suspension');
    else sequence.finish(result);
  }

  /** Resume the record under a claim with every step in the log (`resumeStored` with `log`). */
  private async resumeOnce(
    id: string,
    which: 'some' | 'all',
    proc: Proc = this.sequence.proc,
  ): Promise<void> {
    const sequence = this.sequence;
    const decided: Decisions = {};
    const now = which === 'all' ? 'all' : sequence.opIndex + 1;
    const { outcome, lapsed } = await sequence.resumeUnderLease(
      `resumeStored(${id}, with the log)`,
      proc,
      id,
      (inside) =>
        resumeStored(
          inside.store,
          inside.agent,
          id,
          (continuation) => Object.assign(decided, sequence.decide(continuation, now)),
          { owner: `p${inside.process.id}`, log: inside.log, onEvent: sequence.betweenTools(inside) },
        ),
      (other) => this.resumeOnce(id, 'some', other),
      `${id} with the log`,
    );
    if ('error' in outcome && isContinuationError(outcome.error, 'CLAIM_CONFLICT')) return;
    if (lapsed && 'error' in outcome && isContinuationError(outcome.error, 'LEASE_LOST')) return;
    this.absorb(outcome, decided);
  }

  /** Run `recover` with the store; false when the process crashed in it. */
  private async recoverOnce(): Promise<boolean> {
    const sequence = this.sequence;
    const outcome = await sequence.op('recover', (proc) =>
      recover(
        proc.log,
        { [sequence.plan.name]: proc.agent },
        { store: proc.store, owner: `p${proc.process.id}` },
      ),
    );
    if ('crashed' in outcome) return false;
    if (!('value' in outcome)) return true;
    await this.checkAgreement('recover');
    for (const recovered of outcome.value) {
      if (recovered.runId !== sequence.runId) continue;
      if (recovered.result) this.absorb({ value: recovered.result });
      else
        sequence.note(
          `  recovery failed: ${describe(recovered.error)}${recovered.failed ? ' (given up)' : ''}`,
        );
    }
    return true;
  }

  /** The same continuation resumed again after the log moved past it: refused, nothing runs. */
  private async duplicate(): Promise<void> {
    const sequence = this.sequence;
    const { items } = await sequence.store.list({ runId: sequence.runId, status: 'completed' });
    const old = items[sequence.random.int(Math.max(1, items.length))];
    if (!old) return;
    sequence.faults.count('duplicateDelivery');
    const stored = await sequence.store.load(old.id);
    const before = sequence.ledger.executions.length;
    const outcome = await sequence.op(`duplicate resumeDurably(${old.id})`, (proc) =>
      resumeDurably(
        proc.agent,
        proc.log,
        stored!.continuation,
        sequence.decide(stored!.continuation, 'all'),
        { owner: `p${proc.process.id}` },
      ),
    );
    if ('crashed' in outcome) return;
    if (sequence.ledger.executions.length > before) {
      sequence.violation(`resumeDurably of ${old.id}, which the log had moved past, ran tools again`);
    }
    if ('value' in outcome) {
      sequence.violation(`resumeDurably accepted ${old.id}, a continuation the log had moved past`);
      sequence.finish(outcome.value);
    }
  }
}
