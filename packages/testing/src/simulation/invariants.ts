/**
 * The invariants checked once a sequence is drained: every call the model made ran exactly as its
 * human decided (at most once without a crash or a lost lease in between, always with one
 * idempotency key), a tool that cannot run twice never did, no tool started under a lease that
 * lapsed and was taken by another worker, and a completed run leaves nothing waiting in the store.
 */
import type { SequenceContext } from './context';
import { approves, leavesOf } from './tree';

/** A completed run leaves no record waiting (stored and durable modes). */
export async function checkLeftovers(sequence: SequenceContext): Promise<void> {
  if (sequence.mode === 'direct' || !sequence.completed) return;
  const live = await sequence.live();
  if (live.length > 0) {
    sequence.violation(
      `the run completed but the store still lists ${live.map((item) => `${item.id} (${item.status})`).join(', ')} as waiting`,
    );
  }
}

/** The ledger against the plan: what ran, how often, and with which keys. */
export function checkLedger(sequence: SequenceContext): void {
  const compromised = new Set(
    sequence.processes.filter((process) => process.compromised).map((process) => process.id),
  );
  const leaves = leavesOf(sequence.plan, sequence.input);
  const known = new Set(leaves.map((leaf) => leaf.nonce));
  for (const execution of sequence.ledger.executions) {
    if (!known.has(execution.nonce))
      sequence.violation(`a call the model never made ran: ${execution.nonce}`);
  }
  for (const start of sequence.ledger.lapsedStarts) {
    sequence.violation(
      `${start.nonce} started in process ${start.process} (op ${start.op}) after its lease lapsed and another worker took the run over`,
    );
  }
  if (!sequence.completed) return;
  for (const leaf of leaves) {
    sequence.sideEffects += 1;
    const runs = sequence.ledger.of(leaf.nonce);
    const keys = new Set(runs.map((run) => run.key));
    if (keys.size > 1)
      sequence.violation(`${leaf.nonce} ran with ${keys.size} idempotency keys: ${[...keys].join(', ')}`);
    const wanted = leaf.kind === 'lookup' || approves(sequence.seed, leaf.nonce);
    if (!wanted && runs.length > 0)
      sequence.violation(`${leaf.nonce} was rejected and ran ${runs.length} time(s)`);
    if (wanted && runs.length === 0)
      sequence.violation(`${leaf.nonce} (${leaf.kind}) never ran in a completed run`);
    if (sequence.payOnce && leaf.kind === 'pay' && runs.length > 1) {
      sequence.violation(
        `${leaf.nonce} cannot run twice (idempotent: false) and ran ${runs.length} times (ops ${runs.map((run) => run.op).join(', ')})`,
      );
    }
    const healthy = runs.filter((run) => !compromised.has(run.process));
    if (healthy.length > 1) {
      sequence.violation(
        `${leaf.nonce} ran ${healthy.length} times with no crash or lost lease in between (ops ${healthy.map((run) => run.op).join(', ')})`,
      );
    }
  }
}
