/**
 * Direct mode: the application holds the continuation itself (as text, the way it would keep it)
 * and resumes it in the same process or a new one, as an object or as text, run or streamed.
 */
import {
  type Continuation,
  type Decisions,
  type RunResult,
  serializeContinuation,
} from '@agent-continuations/core';
import type { Mode, Outcome, SequenceContext } from './context';
import { checkForgedRefused, forge } from './forge';
import { consume, describe, stateOf, streamOf } from './run-helpers';

export class DirectMode implements Mode {
  /** The continuation the application holds, as text. */
  private held: string | undefined;

  constructor(private readonly sequence: SequenceContext) {}

  async start(): Promise<void> {
    const outcome = await this.sequence.runInput(this.sequence.drawStreams(), false);
    this.absorb(outcome, {});
  }

  async step(): Promise<void> {
    const sequence = this.sequence;
    const held = this.held;
    if (held === undefined) {
      // A crash before anything was kept: the request failed; the application starts again.
      await this.start();
      return;
    }
    const continuation = JSON.parse(held) as Continuation;
    const roll = sequence.random.next();
    if (sequence.sealed && roll < 0.15) return this.forge(continuation);
    if (roll < 0.3) {
      sequence.faults.count('newProcess');
      sequence.proc = await sequence.spawn();
    }
    const decisions = sequence.decide(continuation, sequence.opIndex + 1);
    const streams = sequence.drawStreams();
    const inProcess = sequence.random.chance(0.5);
    const outcome = await sequence.op(
      `${streams ? 'stream' : 'resume'}(${inProcess ? 'object' : 'text'}, ${JSON.stringify(decisions)})`,
      async (proc) => {
        const input = inProcess ? continuation : held;
        return streams
          ? consume(streamOf(proc.agent)({ continuation: input, decisions }))
          : proc.agent.resume(input, decisions);
      },
    );
    this.absorb(outcome, decisions);
  }

  async drainRound(): Promise<void> {
    if (this.held === undefined) {
      await this.start();
      return;
    }
    const decisions = this.sequence.decide(JSON.parse(this.held) as Continuation, 'all');
    const outcome = await this.sequence.op(`resume(${JSON.stringify(decisions)})`, (proc) =>
      proc.agent.resume(this.held!, decisions),
    );
    this.absorb(outcome, decisions);
  }

  private absorb(outcome: Outcome<RunResult<any>>, decisions: Decisions): void {
    const sequence = this.sequence;
    if ('crashed' in outcome) return; // the application still holds what it resumed
    if ('error' in outcome) {
      const state = stateOf(outcome.error);
      if (!state) {
        sequence.violation(`an error left no resumable state: ${describe(outcome.error)}`);
        return;
      }
      sequence.checkConsumed(decisions, state, 'error state');
      this.held = serializeContinuation(state);
      return;
    }
    const result = outcome.value;
    if (result.status === 'suspended') {
      sequence.checkConsumed(decisions, result.continuation, 'suspension');
      this.held = serializeContinuation(result.continuation);
    } else sequence.finish(result);
  }

  /** A sealed agent is handed an altered copy of what the application holds. */
  private async forge(continuation: Continuation): Promise<void> {
    const sequence = this.sequence;
    const forged = forge(continuation, sequence.random);
    if (!forged) return;
    sequence.faults.count('forged');
    const before = sequence.ledger.executions.length;
    const outcome = await sequence.op(`resume(forged: ${forged.how})`, (proc) =>
      proc.agent.resume(JSON.stringify(forged.continuation), forged.decisions),
    );
    checkForgedRefused(sequence, outcome, before);
  }
}
