/**
 * Leases that hold while work runs: a heartbeat that renews a store's claim or a checkpoint log's
 * lease every third of its length, and aborts the work once it is lost or lapses; `check()` tells,
 * before a model call or a tool starts, whether the lease still holds.
 */
import type { RunOptions } from '../engine/protocol';
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
  /**
   * Throws the `LEASE_LOST` error (and aborts `signal`) when the claim is lost. A lease that
   * lapsed (no renewal succeeded within it, or the store's clock is past `leaseUntil`) is renewed
   * first, which fails when another worker took the claim. Awaited before each model call and tool
   * (`beforeStart`), so a claimant that lost its claim starts nothing. The store's clock
   * (`store.now()`, a round trip) is asked only within 2 s (`CLOCK_MARGIN_MS`) of the lease's end
   * by the local clock, which counts from before the last renewal and so ends first.
   */
  check(): Promise<void>;
  /** Stop renewing. Throws the `LEASE_LOST` error when the claim was lost meanwhile. */
  stop(): Promise<void>;
}

/**
 * Renew `claim`, taken earlier (a hand-off's), for at least `leaseMs` without shortening what it
 * still holds: until its run begins, the record keeps reading as claimed for as long as its taker
 * meant. `LEASE_LOST` when it is no longer held (it lapsed and another took it, or it was settled
 * or given back).
 *
 * @example
 * ```ts
 * const held = await keepClaim(store, job.reservation, 30_000);
 * ```
 */
export function keepClaim(store: ContinuationStore, claim: Claim, leaseMs: number): Promise<Claim> {
  const left = Date.parse(claim.leaseUntil) - Date.now();
  return store.renew(claim, { leaseMs: Math.max(leaseMs, Number.isFinite(left) ? left : 0) });
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
    true,
  );
  return {
    get claim() {
      return current;
    },
    signal: beat.signal,
    get lost() {
      return beat.lost;
    },
    check: async () => {
      // Judged by the store's clock too, which judges the lease for the other workers; far from
      // the local deadline it cannot have lapsed there unless the local clock jumped back or
      // lagged by more than the margin.
      const near = Date.now() >= beat.deadline - CLOCK_MARGIN_MS;
      const lapsed =
        near && store.now ? (await store.now()).getTime() >= Date.parse(current.leaseUntil) : false;
      await beat.check(lapsed);
    },
    stop: beat.stop,
  };
}

/** How long a renewal made before a start may take, at least, before the lease counts as lost. */
const UNANSWERED_MS = 5_000;

/**
 * How far the local clock may lag the store's since the last renewal (a step back by NTP, a slow
 * clock) before a start could miss a lease the store holds lapsed: within it of the local
 * deadline, `HeldClaim.check()` asks the store's clock.
 */
const CLOCK_MARGIN_MS = 2_000;

/** A lease kept by {@link heartbeat}. */
export interface Beat {
  /** Aborts with the `LEASE_LOST` error once the lease is lost or lapsed, or when the outer signal aborts. */
  signal: AbortSignal;
  readonly lost: ContinuationError | undefined;
  /** When the lease ends by the local clock (ms since the epoch) unless a renewal succeeds first. */
  readonly deadline: number;
  /**
   * Throws the `LEASE_LOST` error when the lease is lost. When it lapsed (no renewal within
   * `leaseMs`, or `lapsed`: the store's clock says so), renew it now; a failure loses it.
   */
  check(lapsed?: boolean): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Call `renew` every third of `leaseMs` until stopped. A `LEASE_LOST` failure, or no successful
 * renewal within `leaseMs` (renewals failing or stalled), abort `signal` with the lost error: a
 * watchdog fires at the deadline, so a tool sees `ctx.signal` abort while it runs. For the stores'
 * claims and the checkpoint logs' leases.
 */
export function heartbeat(
  renew: () => Promise<void>,
  leaseMs: number,
  lostError: (cause: unknown) => ContinuationError,
  outer?: AbortSignal,
  /** Abort at the deadline when no renewal succeeded by then (the claims'; a log's lease relies on its fencing). */
  watchdogged = false,
): Beat {
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  let lost: ContinuationError | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  let beating: Promise<void> | undefined;
  // When the lease ends if no renewal succeeds again (measured from before the last successful call).
  let deadline = Date.now() + leaseMs;
  // The last renewal failure, the cause of a lease that lapsed meanwhile.
  let failure: unknown;
  const expire = (cause: unknown) => {
    if (lost) return;
    lost = isContinuationError(cause, 'LEASE_LOST') ? cause : lostError(cause);
    clearTimeout(watchdog);
    controller.abort(lost);
  };
  const lapsed = () => failure ?? new Error(`No renewal succeeded within the lease of ${leaseMs} ms.`);
  const watch = () => {
    if (!watchdogged) return;
    clearTimeout(watchdog);
    watchdog = setTimeout(
      () => {
        if (!stopped && Date.now() >= deadline) expire(lapsed());
      },
      Math.max(0, deadline - Date.now()),
    );
  };
  const tick = async () => {
    const started = Date.now();
    try {
      await renew();
      if (lost) return;
      failure = undefined;
      deadline = started + leaseMs;
      watch();
    } catch (error) {
      failure = error;
      // A transient failure (network) is retried at the next beat while the lease may still hold.
      if (!isContinuationError(error, 'LEASE_LOST') && Date.now() < deadline) return;
      expire(error);
    }
  };
  const check = async (expired = false) => {
    if (!lost && !stopped && (expired || Date.now() >= deadline)) {
      // Lapsed: another worker may have taken it. Renewing tells (it fails if one did); until it
      // succeeds, nothing starts.
      const started = Date.now();
      let timeout: ReturnType<typeof setTimeout> | undefined;
      // A renewal that does not answer (a partition) loses it too; a very short lease still gets
      // a round trip's time.
      const unanswered = new Promise<never>((_, reject) => {
        timeout = setTimeout(() => reject(lapsed()), Math.max(leaseMs, UNANSWERED_MS));
      });
      try {
        await Promise.race([renew(), unanswered]);
        if (!lost) {
          failure = undefined;
          deadline = started + leaseMs;
          watch();
        }
      } catch (error) {
        expire(error);
      } finally {
        clearTimeout(timeout);
      }
    }
    if (lost) throw lost;
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
  watch();
  return {
    signal: controller.signal,
    get lost() {
      return lost;
    },
    get deadline() {
      return deadline;
    },
    check,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(watchdog);
      // A lost lease's renewal may never answer (a partition): it is not waited for.
      if (!lost) await beating;
      outer?.removeEventListener('abort', onOuter);
      if (lost) throw lost;
    },
  };
}

/**
 * A run's `beforeStart` that checks a lease first, then calls the caller's own: nothing starts
 * under a lease that is lost or lapsed.
 */
export function beforeStartChecked(
  check: () => void | Promise<void>,
  own: RunOptions['beforeStart'],
): NonNullable<RunOptions['beforeStart']> {
  return async (start) => {
    await check();
    await own?.(start);
  };
}
