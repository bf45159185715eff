/**
 * The one push queue of every streamed run: a producer pushes items as they come, a reader
 * iterates them in order, and the run's end (its result, or its error) ends the iteration.
 */

/** A streamed piece of work: iterate what it pushes, or await `result`. */
export interface QueuedRun<Item, Result> extends AsyncIterable<Item> {
  /** The work's result, once it ends; rejects as the iteration throws. */
  readonly result: Promise<Result>;
}

/**
 * Run `work`, yielding every item it pushes; `last`, when given, makes one more item of the result.
 * The iteration throws the work's error after the items pushed before it. An unobserved `result`
 * never crashes the process: the iterator reports the failure.
 *
 * @example
 * ```ts
 * const run = queuedRun<string, number>(async (push) => { push('a'); push('b'); return 2; });
 * for await (const item of run) console.log(item); // a, b
 * console.log(await run.result); // 2
 * ```
 */
export function queuedRun<Item, Result>(
  work: (push: (item: Item) => void) => Promise<Result>,
  last?: (result: Result) => Item,
): QueuedRun<Item, Result> {
  const queue: Item[] = [];
  let wake: (() => void) | undefined;
  let end: { done: true } | { failed: unknown } | undefined;
  const push = (item: Item) => {
    queue.push(item);
    wake?.();
  };
  const result = work(push).then(
    (value) => {
      if (last) queue.push(last(value));
      end = { done: true };
      wake?.();
      return value;
    },
    (error: unknown) => {
      end = { failed: error };
      wake?.();
      throw error;
    },
  );
  result.catch(() => {});
  return {
    result,
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (end && 'failed' in end) throw end.failed;
        if (end) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
  };
}
