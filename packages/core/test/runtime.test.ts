import { runRuntimeSuite } from '@agent-continuations/testing';
import { createMemoryStore } from '../src';

runRuntimeSuite('memory', () => ({ store: createMemoryStore() }));
