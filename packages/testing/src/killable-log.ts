/**
 * A dead worker's view of a checkpoint log, for crash tests: once `kill()` is called its writes
 * (begin, append, renew, fail, markSaved) never settle, as a process that died mid-call; reads and
 * take-overs go on, since other workers make them.
 */
import type { CheckpointLog } from '@agent-continuations/core';

/**
 * Wrap `log` for one worker that will die: pass `view` to its run, call `kill()` where it dies.
 * No `appendWith`: a dead worker's suspension is appended and saved in two steps.
 *
 * @example
 * ```ts
 * const worker = killableLog(log);
 * void runDurably(agent, worker.view, input, { leaseMs: 30 }); // a tool calls worker.kill() and hangs
 * ```
 */
export function killableLog(log: CheckpointLog): { view: CheckpointLog; kill: () => void } {
  let dead = false;
  const hang = <T>() => new Promise<T>(() => {});
  const view: CheckpointLog = {
    begin: (start, options) => (dead ? hang() : log.begin(start, options)),
    append: (lease, entry) => (dead ? hang() : log.append(lease, entry)),
    renew: (lease) => (dead ? hang() : log.renew(lease)),
    fail: (lease, error) => (dead ? hang() : log.fail(lease, error)),
    read: (runId) => log.read(runId),
    status: (runId) => log.status(runId),
    expired: (options) => log.expired(options),
    takeOver: (runId, options) => log.takeOver(runId, options),
    ...(log.unsaved ? { unsaved: (options) => log.unsaved!(options) } : {}),
    ...(log.markSaved ? { markSaved: (runId, id) => (dead ? hang() : log.markSaved!(runId, id)) } : {}),
  };
  return {
    view,
    kill: () => {
      dead = true;
    },
  };
}
