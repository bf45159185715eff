import { decisionsByCall } from '@agent-continuations/core/adapter-kit';
import { describe, expect, it } from 'vitest';

describe('decisionsByCall', () => {
  it("sorts decisions by the call they reach and hands a sub-agent's decisions out once", () => {
    const byCall = decisionsByCall({
      call_1: { type: 'approve', by: 'ann' },
      'call_2/call_9': { type: 'reject', reason: 'no' },
      'call_2/call_4/call_5': { type: 'approve' },
      '__proto__/call_7': { type: 'approve' },
    });
    expect(byCall.calls).toEqual(['call_1', 'call_2', '__proto__']);
    expect(byCall.own('call_1')).toEqual({ actionId: 'call_1', value: { type: 'approve', by: 'ann' } });
    expect(byCall.own('call_2')).toBeUndefined();
    expect({ ...byCall.takeChild('call_2') }).toEqual({
      call_9: { type: 'reject', reason: 'no' },
      'call_4/call_5': { type: 'approve' },
    });
    // A second call of the same sub-agent tool in this resume gets nothing to apply again.
    expect(byCall.takeChild('call_2')).toBeUndefined();
    const odd = byCall.takeChild('__proto__')!;
    expect(Object.keys(odd)).toEqual(['call_7']);
    expect(({} as Record<string, unknown>).call_7).toBeUndefined();
  });
});
