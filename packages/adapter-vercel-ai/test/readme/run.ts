// run.ts
import { runtime } from './runtime'; // the runtime above

const result = await runtime.start('accounts', 'Send 500 EUR to Bob');
if (result.status === 'suspended') {
  // Saved in the store: this process may exit now.
  // Later, in any process, with the same agent: approve, and resume exactly once.
  const next = await runtime.resume(result.continuation.id, {
    [result.actions[0]!.id]: { type: 'approve', by: 'ann@example.com' },
  });
  if (next.status === 'completed') console.log(next.output);
}
