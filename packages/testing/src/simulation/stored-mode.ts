/**
 * Stored mode: the application saves suspensions in a store and resumes them by id under a claim
 * (`resumeStored`, `streamStored`), with concurrent and duplicated resumes, stalled workers whose
 * lease lapses, and forged records.
 */
import {
  type Continuation,
  type Decisions,
  isContinuationError,
  type RunResult,
  resumeStored,
  streamStored,
} from '@agent-continuations/core';
import type { Mode, Outcome, Proc, SequenceContext } from './context';
import { checkForgedRefused, forge } from './forge';
import { consume, describe, hasStream, stateOf, streamingOf } from './run-helpers';

export class StoredMode implements Mode {
  /** Something was saved for the run: a missing record is then a stranded run. */
  private saved = false;

  constructor(private readonly sequence: SequenceContext) {}

  async start(): Promise<void> {
    const outcome = await this.sequence.runInput(this.sequence.drawStreams(), true);
    this.absorb(outcome, {});
  }

  async step(): Promise<void> {
    const sequence = this.sequence;
    const record = await sequence.pickLive();
    if (!record) {
      if ((await sequence.live()).length > 0) {
        // Claimed by a worker that died or stalled: its lease lapses.
        sequence.clockLapse();
        return;
      }
      if (this.saved) {
        // Every record is resumed and none waits: the run finished after its worker reported it
        // (a crash in between). The ledger check says whether every call ran.
        sequence.note('  the store holds no live record: the run finished');
        sequence.completed = true;
        return;
      }
      await this.start();
      return;
    }
    if (record.status === 'failed') {
      sequence.note(`  record ${record.id} failed: ${record.error}`);
      await sequence.store.retry(record.id);
    }
    const roll = sequence.random.next();
    if (sequence.sealed && roll < 0.12) return this.forge(record.id);
    if (roll < 0.22) return this.duplicate();
    if (roll < 0.35) return this.concurrent(record.id);
    if (roll < 0.45) {
      sequence.faults.count('newProcess');
      sequence.proc = await sequence.spawn();
    }
    await this.resumeOnce(sequence.proc, record.id, sequence.random.chance(0.3) ? 'stream' : 'resume');
  }

  async drainRound(): Promise<void> {
    const sequence = this.sequence;
    const record = await sequence.pickLive();
    if (!record) {
      await this.step();
      return;
    }
    if (record.status === 'failed') await sequence.store.retry(record.id);
    const outcome = await sequence.op(`resumeStored(${record.id}, all)`, (proc) =>
      resumeStored(
        proc.store,
        proc.agent,
        record.id,
        (continuation) => sequence.decide(continuation, 'all'),
        {
          owner: `p${proc.process.id}`,
        },
      ),
    );
    this.absorb(outcome, {});
  }

  /** One worker resumes stored `id`; a lease lapse in it lets another worker take over. */
  private async resumeOnce(
    proc: Proc,
    id: string,
    how: 'stream' | 'resume',
    now?: number,
  ): Promise<Outcome<unknown>> {
    const sequence = this.sequence;
    const decided: Decisions = {};
    const op = now ?? sequence.opIndex + 1;
    const decisions = (continuation: Continuation) =>
      Object.assign(decided, sequence.decide(continuation, op));
    const streams = how === 'stream' && hasStream(proc.agent);
    const { outcome, lapsed } = await sequence.resumeUnderLease(
      `${streams ? 'streamStored' : 'resumeStored'}(${id})`,
      proc,
      id,
      async (inside) => {
        const options = { owner: `p${inside.process.id}`, onEvent: sequence.betweenTools(inside) };
        return streams
          ? consume(await streamStored(inside.store, streamingOf(inside.agent), id, decisions, options))
          : resumeStored(inside.store, inside.agent, id, decisions, options);
      },
      (other) => this.resumeOnce(other, id, 'resume'),
    );
    this.absorb(outcome, decided, lapsed);
    return outcome;
  }

  private absorb(outcome: Outcome<unknown>, decisions: Decisions, lapsed = false): void {
    const sequence = this.sequence;
    if ('crashed' in outcome) return;
    if ('error' in outcome) {
      const { error } = outcome;
      if (isContinuationError(error, 'LEASE_LOST') && lapsed) return;
      if (isContinuationError(error, 'CLAIM_CONFLICT') && lapsed) return;
      const state = stateOf(error);
      if (state) {
        this.saved = true;
        sequence.checkConsumed(decisions, state, 'error state');
        return;
      }
      if (isContinuationError(error) && error.code === 'CLAIM_CONFLICT') return;
      sequence.violation(`unexpected error: ${describe(error)}`);
      return;
    }
    const result = outcome.value as RunResult<any>;
    if (result.status === 'suspended') {
      this.saved = true;
      sequence.checkConsumed(decisions, result.continuation, 'suspension');
    } else sequence.finish(result);
  }

  /** Two workers resume the same record at once: exactly one may run it. */
  private async concurrent(id: string): Promise<void> {
    const sequence = this.sequence;
    sequence.faults.count('concurrentResume');
    const other = await sequence.spawn();
    const now = sequence.opIndex + 1;
    const [first, second] = await Promise.all([
      this.resumeOnce(sequence.proc, id, 'resume', now),
      this.resumeOnce(other, id, 'resume', now),
    ]);
    const ran = [first, second].filter(
      (outcome) => !('error' in outcome && isContinuationError(outcome.error, 'CLAIM_CONFLICT')),
    );
    if (ran.length === 2 && [first, second].every((outcome) => 'value' in outcome)) {
      sequence.violation(`two concurrent resumes of ${id} both succeeded`);
    }
    if (ran.length === 0) sequence.violation(`both concurrent resumes of ${id} were refused`);
  }

  /** A job delivered again for a record already resumed: refused, nothing runs. */
  private async duplicate(): Promise<void> {
    const sequence = this.sequence;
    const { items } = await sequence.store.list({ runId: sequence.runId, status: 'completed' });
    const old = items[sequence.random.int(Math.max(1, items.length))];
    if (!old) return;
    sequence.faults.count('duplicateDelivery');
    const before = sequence.ledger.executions.length;
    const outcome = await sequence.op(`duplicate resumeStored(${old.id})`, (proc) =>
      resumeStored(proc.store, proc.agent, old.id, (continuation) => sequence.decide(continuation, 'all'), {
        owner: `p${proc.process.id}`,
      }),
    );
    if ('crashed' in outcome) return;
    if (sequence.ledger.executions.length > before)
      sequence.violation(`a duplicate delivery of ${old.id} ran tools`);
    if (!('error' in outcome) || !isContinuationError(outcome.error, 'CLAIM_CONFLICT')) {
      sequence.violation(`a duplicate delivery of ${old.id} was not refused with CLAIM_CONFLICT`);
    }
  }

  /** A forged copy of a sealed record, saved beside it and resumed: refused, nothing runs. */
  private async forge(id: string): Promise<void> {
    const sequence = this.sequence;
    const stored = await sequence.store.load(id);
    const forged = stored && forge(stored.continuation, sequence.random);
    if (!forged) return;
    sequence.faults.count('forged');
    forged.continuation.id = `${id}-forged`;
    await sequence.store.save(forged.continuation);
    const before = sequence.ledger.executions.length;
    const outcome = await sequence.op(`resumeStored(forged: ${forged.how})`, (proc) =>
      resumeStored(proc.store, proc.agent, forged.continuation.id, forged.decisions, {
        owner: `p${proc.process.id}`,
      }),
    );
    checkForgedRefused(sequence, outcome, before);
    await sequence.store.delete(forged.continuation.id);
  }
}
