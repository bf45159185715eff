/**
 * A deep tree's resume does per level a constant amount of the work that used to grow with the
 * depth: checking a decision finds its action by id without listing every action of the subtree
 * again at each level, and a sub-agent's events go up only when someone above observes them.
 * Counted, not timed.
 */
import {
  type ContinuableAgent,
  type Continuation,
  listActions,
  type RunEvent,
} from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { deepChain } from './deep-chain';

interface Counts {
  /** Events a sub-agent handed to its parent. */
  passedUp: number;
  paid: number;
}

function chain(depth: number, counts: Counts): ContinuableAgent {
  return deepChain(depth, counts, (agent) => counted(agent, counts));
}

/** The same agent, counting the events it hands to its parent. */
function counted(agent: ContinuableAgent, counts: Counts): ContinuableAgent {
  return {
    ...agent,
    resume: (continuation, decisions, options = {}) => {
      const { onEvent } = options;
      return agent.resume(
        continuation,
        decisions,
        onEvent
          ? {
              ...options,
              onEvent: (event) => {
                counts.passedUp++;
                return onEvent(event);
              },
            }
          : options,
      );
    },
  };
}

async function suspendedChain(depth: number): Promise<{ continuation: Continuation; id: string }> {
  const suspended = await chain(depth, { passedUp: 0, paid: 0 }).run('go');
  if (suspended.status !== 'suspended') throw new Error(`expected a suspension, got ${suspended.status}`);
  return { continuation: suspended.continuation, id: listActions(suspended.continuation)[0]!.id };
}

/** The continuation with every level behind a proxy that counts reads of its `agent`. */
function watched(continuation: Continuation, reads: { agent: number }): Continuation {
  const level: Continuation = {
    ...continuation,
    pending: continuation.pending.map((entry) =>
      entry.kind === 'agent' ? { ...entry, child: watched(entry.child, reads) } : entry,
    ),
  };
  return new Proxy(level, {
    get(target, key, receiver) {
      if (key === 'agent') reads.agent++;
      return Reflect.get(target, key, receiver);
    },
  });
}

describe('resuming a deep tree', () => {
  it("checks decisions without listing each level's actions again", async () => {
    const reads: number[] = [];
    for (const depth of [10, 20, 40]) {
      const { continuation, id } = await suspendedChain(depth);
      const count = { agent: 0 };
      await chain(depth, { passedUp: 0, paid: 0 }).checkDecisions!(watched(continuation, count), {
        [id]: { type: 'approve' },
      });
      reads.push(count.agent);
    }
    // Listing the actions below each level reads every level's agent again: the depth squared.
    expect(reads[1]! / reads[0]!).toBeLessThanOrEqual(2.2);
    expect(reads[2]! / reads[1]!).toBeLessThanOrEqual(2.2);
  });

  it('still refuses an unknown or wrong decision with its id from the root', async () => {
    const { continuation, id } = await suspendedChain(4);
    const agent = chain(4, { passedUp: 0, paid: 0 });
    const unknown = `${id.slice(0, id.lastIndexOf('/'))}/nope`;
    await expect(agent.resume(continuation, { [unknown]: { type: 'approve' } })).rejects.toMatchObject({
      code: 'UNKNOWN_ACTION',
      details: { id: unknown, pending: [id] },
    });
    await expect(agent.resume(continuation, { [id]: { type: 'input', value: 1 } })).rejects.toMatchObject({
      code: 'WRONG_DECISION_KIND',
    });
    // The id of a sub-agent's call names no action of its own.
    const parent = id.slice(0, id.lastIndexOf('/'));
    await expect(agent.resume(continuation, { [parent]: { type: 'approve' } })).rejects.toMatchObject({
      code: 'UNKNOWN_ACTION',
    });
  });

  it("passes a sub-agent's events up only when the run is observed", async () => {
    for (const depth of [8, 16]) {
      const { continuation, id } = await suspendedChain(depth);
      const counts: Counts = { passedUp: 0, paid: 0 };
      const result = await chain(depth, counts).resume(continuation, { [id]: { type: 'approve' } });
      expect(result.status).toBe('completed');
      expect(counts.paid).toBe(1);
      expect(counts.passedUp).toBe(0);
    }
  });

  it("an observed run still sees every level's events, with their paths and checkpoints", async () => {
    const depth = 4;
    const { continuation, id } = await suspendedChain(depth);
    const counts: Counts = { passedUp: 0, paid: 0 };
    const events: RunEvent[] = [];
    const result = await chain(depth, counts).resume(
      continuation,
      { [id]: { type: 'approve' } },
      { onEvent: (event) => void events.push(event) },
    );
    expect(result.status).toBe('completed');
    expect(counts.paid).toBe(1);
    expect(counts.passedUp).toBeGreaterThan(0);
    const paid = events.find((event) => event.type === 'tool-result' && event.toolName === 'pay');
    expect(paid?.path).toEqual(id.split('/').slice(0, -1));
    if (paid?.type !== 'tool-result') throw new Error('no tool-result for pay');
    // The checkpoint of a deep event is the whole tree's, from the root.
    expect(paid.checkpoint().agent.name).toBe('level0');
  });
});
