/**
 * Leases that hold while work runs: a heartbeat that renews a store's claim or a checkpoint log's
 * lease every third of its length, and aborts the work once it is lost.
 */
import { ContinuationError, isContinuationError } from '../errors';
import { type Claim, type ContinuationStore, DEFAULT_LEASE_MS } from '../stores/store';

/** A claim kept alive by a heartbeat; see {@link holdClaim}. */
export interface HeldClaim {
  /** The claim as last renewed. */
  readonly claim: Claim;
  /** Aborts when the claim is lost (the reason is the `LEASE_LOST` error) or the caller's signal aborts. */
  readonly signal: AbortSignal;
  /** The `LEASE_LOST` error once the claim is lost. */
  readonly lost: ContinuationError | undefined;
  /** Stop renewing. Throws the `LEASE_LOST` error when the claim was lost meanwhile. */
  stop(): Promise<void>;
}

/**
 * Keep a claim alive while work runs under it: renew it every third of `leaseMs`. When a renewal
 * fails with `LEASE_LOST` (or renewals keep failing until the lease would have lapsed), `signal`
 * aborts with that error and `stop()` throws it; a renewal failure is never swallowed. Pass
 * `signal` to the run, and write nothing under the claim once it is lost.
 *
 * @example
 * ```ts
 * const claim = await store.claim(id, { owner: 'worker-1', leaseMs: 10_000 });
 * const held = holdClaim(store, claim, { leaseMs: 10_000 });
 * const result = await agent.resume(continuation, decisions, { signal: held.signal });
 * await held.stop(); // throws LEASE_LOST if another worker took it meanwhile
 * await store.complete(held.claim);
 * ```
 */
export function holdClaim(
  store: ContinuationStore,
  claim: Claim,
  options: { leaseMs?: number; signal?: AbortSignal } = {},
): HeldClaim {
  let current = claim;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const beat = heartbeat(
    async () => {
      current = await store.renew(current, { leaseMs });
    },
    leaseMs,
    (cause) =>
      new ContinuationError(
        'LEASE_LOST',
        `The claim of ${claim.owner} on "${claim.id}" could not be renewed, and its lease lapsed.`,
        { cause },
      ),
    options.signal,
  );
  return {
    get claim() {
      return current;
    },
    signal: beat.signal,
    get lost() {
      return beat.lost;
    },
    stop: beat.stop,
  };
}

/**
 * Call `renew` every third of `leaseMs` until stopped. A `LEASE_LOST` failure, or failures until
 * the lease would have lapsed, abort `signal` with the lost error. For the stores' claims and the
 * checkpoint logs' leases.
 */
export function heartbeat(
  renew: () => Promise<void>,
  leaseMs: number,
  lostError: (cause: unknown) => ContinuationError,
  outer?: AbortSignal,
): { signal: AbortSignal; readonly lost: ContinuationError | undefined; stop(): Promise<void> } {
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  let lost: ContinuationError | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let beating: Promise<void> | undefined;
  // When the lease ends if no renewal succeeds again (measured from before the last successful call).
  let deadline = Date.now() + leaseMs;
  const tick = async () => {
    const started = Date.now();
    try {
      await renew();
      deadline = started + leaseMs;
    } catch (error) {
      // A transient failure (network) is retried at the next beat while the lease may still hold.
      if (!isContinuationError(error, 'LEASE_LOST') && Date.now() < deadline) return;
      lost = isContinuationError(error, 'LEASE_LOST') ? error : lostError(error);
      controller.abort(lost);
    }
  };
  const schedule = () => {
    timer = setTimeout(
      () => {
        beating = tick().finally(() => {
          beating = undefined;
          if (!stopped && !lost) schedule();
        });
      },
      Math.max(10, leaseMs / 3),
    );
  };
  schedule();
  return {
    signal: controller.signal,
    get lost() {
      return lost;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await beating;
      outer?.removeEventListener('abort', onOuter);
      if (lost) throw lost;
    },
  };
}
