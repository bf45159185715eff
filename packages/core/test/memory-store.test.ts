import { createMemoryStore, type StoredStatus } from '@agent-continuations/core';
import { claimRefused } from '@agent-continuations/core/store-kit';
import { runStoreContract } from '@agent-continuations/testing';
import { expect, it } from 'vitest';

// One process, one instance: the suite races claimers on the same instance and skips the
// encryption tests, which the durable stores run.
runStoreContract('memory', () => createMemoryStore());

it('explains every refused claim with a typed error, even a state that should not refuse one', () => {
  const states: Array<StoredStatus | 'missing'> = [
    'missing',
    'expired',
    'claimed',
    'completed',
    'failed',
    'suspended',
  ];
  const codes = states.map((state) => claimRefused('c1', state, new Date(0), 'boom').code);
  expect(codes).toEqual([
    'NOT_FOUND',
    'EXPIRED',
    'CLAIM_CONFLICT',
    'CLAIM_CONFLICT',
    'NOT_RESUMABLE',
    'CLAIM_CONFLICT',
  ]);
  // A value from a store that does not know the current states (or an undefined read) still maps.
  expect(claimRefused('c1', 'archived' as StoredStatus).code).toBe('CLAIM_CONFLICT');
  expect(claimRefused('c1', undefined as unknown as StoredStatus).message).toContain('try again');
});
