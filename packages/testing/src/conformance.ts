/**
 * The adapter conformance suite: every adapter's test file calls {@link runConformanceSuite} with
 * a harness, and the same scenarios (docs/design.md section 4) run against its framework.
 */
import { afterEach, describe } from 'vitest';
import { approvalScenarios } from './conformance-approval';
import type { ConformanceHarness } from './conformance-harness';
import type { Skip } from './conformance-helpers';
import { inputScenarios } from './conformance-input';
import { nestingScenarios } from './conformance-nesting';
import { predicateScenarios } from './conformance-predicates';
import { storeScenarios } from './conformance-stores';
import { subagentScenarios } from './conformance-subagents';
import { trustScenarios } from './conformance-trust';
import { turnScenarios } from './conformance-turns';

/**
 * Run every conformance scenario against an adapter.
 *
 * @example
 * ```ts
 * runConformanceSuite({
 *   name: 'my-adapter',
 *   createAgent: (spec) => myAdapter.createAgent({ name: spec.name, ... }),
 * });
 * ```
 */
export function runConformanceSuite(harness: ConformanceHarness): void {
  const skip: Skip = (feature, context) => {
    const reason = harness.unsupported?.[feature];
    context?.skip(reason !== undefined, `${harness.name}: ${reason}`);
    return reason !== undefined;
  };

  describe(`conformance: ${harness.name}`, () => {
    afterEach(async () => {
      await harness.cleanup?.();
    });
    approvalScenarios(harness, skip);
    inputScenarios(harness, skip);
    nestingScenarios(harness, skip);
    subagentScenarios(harness, skip);
    turnScenarios(harness, skip);
    predicateScenarios(harness, skip);
    storeScenarios(harness, skip);
    trustScenarios(harness, skip);
  });
}
