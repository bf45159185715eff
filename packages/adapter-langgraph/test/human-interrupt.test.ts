import { type Action, isContinuationError } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { decisionFromHumanResponse, toHumanInterrupt } from '../src';
import { allowedOfConfig } from '../src/human-interrupt';

const approval: Action = {
  id: 'call_1',
  kind: 'approval',
  path: [{ agent: 'ops', toolName: 'refund', toolCallId: 'call_1' }],
  agent: 'ops',
  toolName: 'refund',
  toolCallId: 'call_1',
  args: { order: 'A-7', amount: 120 },
};
const question: Action = {
  ...approval,
  id: 'call_2',
  kind: 'input',
  toolName: 'ask',
  toolCallId: 'call_2',
  args: {},
  request: 'Which warehouse?',
};

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (isContinuationError(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('toHumanInterrupt', () => {
  it('renders an approval with its description, arguments and policy as config', () => {
    expect(toHumanInterrupt({ ...approval, description: 'Refund over 100 EUR' })).toEqual({
      action_request: { action: 'refund', args: { order: 'A-7', amount: 120 } },
      config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
      description: 'Refund over 100 EUR',
    });
    expect(toHumanInterrupt({ ...approval, allowedDecisions: ['approve', 'reject'] }).config).toEqual({
      allow_accept: true,
      allow_edit: false,
      allow_respond: true,
      allow_ignore: true,
    });
    expect(toHumanInterrupt({ ...approval, allowedDecisions: ['approve', 'edit'] }).config).toEqual({
      allow_accept: true,
      allow_edit: true,
      allow_respond: false,
      allow_ignore: false,
    });
  });

  it('renders an input action as a request to respond, its question as the description', () => {
    expect(toHumanInterrupt(question)).toEqual({
      action_request: { action: 'ask', args: {} },
      config: { allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: true },
      description: 'Which warehouse?',
    });
  });

  it('reads back, through the rule graphs are read with, as the policy it was made from', () => {
    for (const allowed of [
      ['approve', 'edit', 'reject'],
      ['approve', 'reject'],
      ['approve'],
      ['edit'],
    ] as const) {
      const { config } = toHumanInterrupt({ ...approval, allowedDecisions: [...allowed] });
      expect(allowedOfConfig(config)).toEqual({ kind: 'approval', allowed: [...allowed] });
    }
    expect(allowedOfConfig(toHumanInterrupt(question).config)).toEqual({
      kind: 'input',
      allowed: ['reject', 'input'],
    });
  });
});

describe('decisionFromHumanResponse', () => {
  it('maps accept, edit, response and ignore for an approval', () => {
    expect(decisionFromHumanResponse(approval, { type: 'accept', args: null }, { by: 'ann' })).toEqual({
      type: 'approve',
      by: 'ann',
    });
    expect(
      decisionFromHumanResponse(approval, {
        type: 'edit',
        args: { action: 'refund', args: { order: 'A-7', amount: 80 } },
      }),
    ).toEqual({ type: 'approve', args: { order: 'A-7', amount: 80 } });
    expect(decisionFromHumanResponse(approval, { type: 'response', args: 'Too much' })).toEqual({
      type: 'reject',
      reason: 'Too much',
    });
    expect(decisionFromHumanResponse(approval, { type: 'ignore', args: null })).toEqual({ type: 'reject' });
  });

  it('maps a response to an input action as its answer, ignore as a reject', () => {
    expect(decisionFromHumanResponse(question, { type: 'response', args: 'Lyon' })).toEqual({
      type: 'input',
      value: 'Lyon',
    });
    expect(decisionFromHumanResponse(question, { type: 'ignore', args: null })).toEqual({ type: 'reject' });
  });

  it("refuses what the action's policy does not allow with the core's DECISION_NOT_ALLOWED", () => {
    const noEdit: Action = { ...approval, allowedDecisions: ['approve', 'reject'] };
    const edit = { type: 'edit', args: { action: 'refund', args: { amount: 1 } } } as const;
    expect(refusal(() => decisionFromHumanResponse(noEdit, edit))).toBe('DECISION_NOT_ALLOWED');
    const onlyApprove: Action = { ...approval, allowedDecisions: ['approve'] };
    expect(refusal(() => decisionFromHumanResponse(onlyApprove, { type: 'ignore', args: null }))).toBe(
      'DECISION_NOT_ALLOWED',
    );
    expect(refusal(() => decisionFromHumanResponse(question, { type: 'accept', args: null }))).toBe(
      'DECISION_NOT_ALLOWED',
    );
  });

  it('refuses a malformed response with INVALID_DECISION', () => {
    expect(refusal(() => decisionFromHumanResponse(approval, { type: 'approve' } as never))).toBe(
      'INVALID_DECISION',
    );
    expect(refusal(() => decisionFromHumanResponse(approval, { type: 'edit', args: 'x' }))).toBe(
      'INVALID_DECISION',
    );
    expect(
      refusal(() =>
        decisionFromHumanResponse(approval, { type: 'edit', args: { action: 'delete', args: {} } }),
      ),
    ).toBe('INVALID_DECISION');
    expect(refusal(() => decisionFromHumanResponse(approval, { type: 'response', args: null }))).toBe(
      'INVALID_DECISION',
    );
  });
});
