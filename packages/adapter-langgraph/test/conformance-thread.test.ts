import { runConformanceSuite } from '@agent-continuations/testing';
import { MemorySaver } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { graphHarness } from './harness';

// The same scenarios in thread mode: every run also lives on an app's checkpointer.
runConformanceSuite(graphHarness('react', [], new MemorySaver()));
runConformanceSuite(graphHarness('custom', [], SqliteSaver.fromConnString(':memory:')));
runConformanceSuite(graphHarness('create-agent', [], new MemorySaver()));
