import { runConformanceSuite } from '@agent-continuations/testing';
import { graphHarness } from './harness';

// The same scenarios over each kind of graph the adapter wraps.
runConformanceSuite(graphHarness('react'));
runConformanceSuite(graphHarness('custom'));
runConformanceSuite(graphHarness('create-agent'));
