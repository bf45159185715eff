/**
 * The private checkpointer of one run: LangGraph's `MemorySaver`, keeping only the two newest
 * checkpoints of each namespace (the newest and its parent) with their writes. A resume needs the
 * newest alone, and a long run then holds O(steps) in memory instead of a copy of the state per step.
 * A graph with delta channels rebuilds their values from the whole chain: nothing is dropped then.
 */
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  type BaseCheckpointSaver,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  MemorySaver,
} from '@langchain/langgraph';

export class PrivateSaver extends MemorySaver {
  /** Tuples read while {@link PrivateSaver.reading} runs, by thread, namespace and checkpoint id. */
  #read: Map<string, Promise<CheckpointTuple | undefined>> | undefined;

  constructor(protected readonly keepHistory = false) {
    super();
  }

  /**
   * Run `fn`, which only reads, deserializing each checkpoint once: reading the state of a
   * finished segment asks for the same checkpoint more than once, and reviving its messages is
   * the costly part. Each caller gets its own copy of the containers.
   */
  async reading<T>(fn: () => Promise<T>): Promise<T> {
    this.#read = new Map();
    try {
      return await fn();
    } finally {
      this.#read = undefined;
    }
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const read = this.#read;
    if (!read) return super.getTuple(config);
    const { thread_id, checkpoint_ns = '', checkpoint_id = '' } = config.configurable ?? {};
    const key = JSON.stringify([thread_id, checkpoint_ns, checkpoint_id]);
    let tuple = read.get(key);
    if (!tuple) {
      tuple = super.getTuple(config);
      read.set(key, tuple);
    }
    return copyTuple(await tuple);
  }

  override async putWrites(...args: Parameters<MemorySaver['putWrites']>): Promise<void> {
    this.#read?.clear();
    return super.putWrites(...args);
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
  ): Promise<RunnableConfig> {
    this.#read?.clear();
    const saved = await super.put(config, checkpoint, metadata);
    const threadId = saved.configurable?.thread_id as string;
    const ns = (saved.configurable?.checkpoint_ns as string | undefined) ?? '';
    const checkpoints = this.storage[threadId]?.[ns];
    if (!checkpoints || this.keepHistory) return saved;
    const keep = new Set([checkpoint.id, checkpoints[checkpoint.id]?.[2]]);
    for (const id of Object.keys(checkpoints)) {
      if (keep.has(id)) continue;
      delete checkpoints[id];
      // MemorySaver's key for the writes of one checkpoint.
      delete this.writes[JSON.stringify([threadId, ns, id])];
    }
    return saved;
  }
}

/** A tuple whose containers (not the values in them) are the caller's own. */
function copyTuple(tuple: CheckpointTuple | undefined): CheckpointTuple | undefined {
  if (!tuple) return undefined;
  const { checkpoint } = tuple;
  return {
    ...tuple,
    config: { ...tuple.config, configurable: { ...tuple.config.configurable } },
    checkpoint: {
      ...checkpoint,
      channel_values: { ...checkpoint.channel_values },
      channel_versions: { ...checkpoint.channel_versions },
      versions_seen: { ...checkpoint.versions_seen },
    },
    ...(tuple.metadata ? { metadata: { ...tuple.metadata } } : {}),
    ...(tuple.pendingWrites
      ? { pendingWrites: tuple.pendingWrites.map((write): typeof write => [...write]) }
      : {}),
  };
}

/**
 * The saver of a run in thread mode: the private saver, which the continuation is exported from,
 * and the app's own checkpointer beside it, which gets every checkpoint and write as LangGraph
 * would have written them, so the app's `getState`, `getStateHistory` and native resumes see the
 * run on its thread.
 */
export class ThreadSaver extends PrivateSaver {
  constructor(
    readonly target: BaseCheckpointSaver,
    keepHistory = false,
  ) {
    super(keepHistory);
  }

  /**
   * Copy the thread's newest checkpoints from the app's saver (the root namespace and each
   * namespace a waiting subgraph is in; for delta channels, their whole chains) into the private saver,
   * so a run goes on from the thread as LangGraph would. Returns the root's newest checkpoint id.
   */
  async load(
    threadId: string,
    namespaces: (root: CheckpointTuple) => Promise<string[]>,
  ): Promise<string | undefined> {
    const root = await this.target.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: '' } });
    if (!root) return undefined;
    const tuples = [root];
    for (const ns of await namespaces(root)) {
      const tuple = await this.target.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: ns } });
      if (tuple) tuples.push(tuple);
    }
    for (const newest of tuples) {
      const chain = [newest];
      while (this.keepHistory && chain.at(-1)!.parentConfig) {
        const parent = await this.target.getTuple(chain.at(-1)!.parentConfig!);
        if (!parent) break;
        chain.push(parent);
      }
      for (const tuple of chain.reverse()) await this.remember(tuple);
    }
    return root.checkpoint.id;
  }

  /** The newest checkpoint id of the thread's root namespace in the app's saver. */
  async newest(threadId: string): Promise<string | undefined> {
    // An in-memory saver is read by its keys: reviving the checkpoint only for its id would cost a copy.
    if (this.target instanceof MemorySaver) {
      const ids = Object.keys(this.target.storage[threadId]?.[''] ?? {});
      return ids.sort().at(-1);
    }
    const root = await this.target.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: '' } });
    return root?.checkpoint.id;
  }

  /** Keep `tuple` in the private saver only (it is already in the app's). */
  private async remember(tuple: CheckpointTuple): Promise<void> {
    const configurable = tuple.config.configurable ?? {};
    const at = {
      configurable: {
        thread_id: configurable.thread_id,
        checkpoint_ns: configurable.checkpoint_ns ?? '',
        checkpoint_id: tuple.parentConfig?.configurable?.checkpoint_id,
      },
    };
    const saved = await super.put(at, tuple.checkpoint, tuple.metadata ?? ({} as CheckpointMetadata));
    const byTask = new Map<string, Array<[string, unknown]>>();
    for (const [task, channel, value] of tuple.pendingWrites ?? []) {
      byTask.set(task, [...(byTask.get(task) ?? []), [channel, value]]);
    }
    for (const [task, writes] of byTask) await super.putWrites(saved, writes, task);
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    versions: Parameters<BaseCheckpointSaver['put']>[3] = {},
  ): Promise<RunnableConfig> {
    const [saved] = await Promise.all([
      super.put(config, checkpoint, metadata),
      this.target.put(config, checkpoint, metadata, versions),
    ]);
    return saved;
  }

  override async putWrites(...args: Parameters<MemorySaver['putWrites']>): Promise<void> {
    await Promise.all([super.putWrites(...args), this.target.putWrites(...args)]);
  }

  override getNextVersion(current: number | undefined): number {
    return this.target.getNextVersion(current) as number;
  }
}
