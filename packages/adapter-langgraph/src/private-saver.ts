/**
 * The private checkpointer of one run: LangGraph's `MemorySaver`, keeping only the two newest
 * checkpoints of each namespace (the newest and its parent) with their writes. A resume needs the
 * newest alone, and a long run then holds O(steps) in memory instead of a copy of the state per step.
 * A graph with delta channels rebuilds their values from the whole chain: nothing is dropped then.
 */
import type { RunnableConfig } from '@langchain/core/runnables';
import { type Checkpoint, type CheckpointMetadata, MemorySaver } from '@langchain/langgraph';

export class PrivateSaver extends MemorySaver {
  constructor(private readonly keepHistory = false) {
    super();
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
  ): Promise<RunnableConfig> {
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
