import { createMemoryStore } from '@agent-continuations/core';
import { runStoreContract } from '@agent-continuations/testing';

// One process, one instance: the suite races claimers on the same instance and skips the
// encryption tests, which the durable stores run.
runStoreContract('memory', () => createMemoryStore());
