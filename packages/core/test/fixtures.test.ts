import {
  type Continuation,
  type Decisions,
  isContinuationError,
  isRejected,
  listActions,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SEAL_SECRET, type FixtureAgents, fixtureAgents } from './fixtures/agents';
import {
  type BadDecisions,
  type BadResume,
  badFixtureNames,
  badManifest,
  fixtureText,
  validFixture,
  validFixtureNames,
} from './fixtures/corpus';

/** How each valid fixture resumes: which agent, which decisions, and what must then have run. */
interface ResumeCase {
  agent: keyof Omit<FixtureAgents, 'counts'>;
  actions: string[];
  decisions: Decisions;
  output: string;
  /** Tool executions during the resume, exactly. */
  ran: Record<string, number>;
  /** Model calls during the resume, over every nested agent. */
  modelCalls: number;
  secret?: string;
}

/** Ann approves the transfer the bank agent waits for, which then runs once. */
const annApprovesTransfer: ResumeCase = {
  agent: 'bank',
  actions: ['call_1_0'],
  decisions: { call_1_0: { type: 'approve', by: 'ann' } },
  output: 'done: [{"ok":true,"to":"bob","amount":250}]',
  ran: { transfer: 1 },
  modelCalls: 1,
};

const cases: Record<string, ResumeCase> = {
  'flat-approval.json': annApprovesTransfer,
  // The entry carries a policy (description, approve or reject) that the approval obeys.
  'policy-approval.json': annApprovesTransfer,
  'sealed-approval.json': {
    agent: 'bank',
    actions: ['call_1_0'],
    decisions: { call_1_0: { type: 'approve', args: { to: 'bob', amount: 200 } } },
    output: 'done: [{"ok":true,"to":"bob","amount":200}]',
    ran: { transfer: 1 },
    modelCalls: 1,
    secret: FIXTURE_SEAL_SECRET,
  },
  'sealed-keyid.json': { ...annApprovesTransfer, secret: FIXTURE_SEAL_SECRET },
  'nested-depth-3.json': {
    agent: 'hr',
    actions: ['call_1_0/call_1_0/call_1_0'],
    decisions: { 'call_1_0/call_1_0/call_1_0': { type: 'approve' } },
    // Each level's final turn reports its child's output: benefits -> payroll -> hr.
    output: reported(reported(reported({ employee: 'ann', salary: 120000 }))),
    ran: { update_salary: 1 },
    modelCalls: 3,
  },
  'parallel-pending.json': {
    agent: 'ops',
    actions: ['call_1_1', 'call_1_2/call_1_0', 'call_1_3/call_1_0'],
    decisions: {
      call_1_1: { type: 'approve' },
      'call_1_2/call_1_0': { type: 'approve' },
      'call_1_3/call_1_0': { type: 'reject', reason: 'not needed' },
    },
    output: 'settled 4 calls',
    // lookup_balance ran before the suspension and sits in `done`: it must not run again.
    ran: { transfer: 1, refund: 1 },
    modelCalls: 3,
  },
  'input-journal.json': {
    agent: 'expenses',
    actions: ['call_1_0', 'call_1_1'],
    decisions: {
      call_1_0: { type: 'input', value: { approved: true } },
      call_1_1: { type: 'input', value: 'R-7' },
    },
    output: 'done: [{"approved":true},{"filed":80,"costCentre":"CC-42","receipt":"R-7"}]',
    ran: { file_expense: 1 },
    modelCalls: 1,
  },
  // Written since rejections are marked: carol's transfer was rejected (marked in `done`) while
  // the two sub-agents' actions waited.
  'rejected-in-turn.json': {
    agent: 'ops',
    actions: ['call_1_2/call_1_0', 'call_1_3/call_1_0'],
    decisions: {
      'call_1_2/call_1_0': { type: 'approve' },
      'call_1_3/call_1_0': { type: 'approve' },
    },
    output: 'settled 4 calls',
    ran: { refund: 1, lock_account: 1 },
    modelCalls: 3,
  },
  // The rejected transfer's result is in the transcript, marked; a shutdown stopped the run before
  // the model read it.
  'rejected-result.json': {
    agent: 'bank',
    actions: [],
    decisions: {},
    output: 'done: ["A human rejected this tool call: not today. Do not retry it unchanged."]',
    ran: {},
    modelCalls: 1,
  },
  'predicate-suspended.json': {
    agent: 'research',
    actions: [],
    decisions: {},
    output: 'researched 3 queries',
    ran: { search: 1 },
    modelCalls: 2,
  },
};

describe('valid fixtures', () => {
  it('are all covered here', () => {
    expect(validFixtureNames()).toEqual(Object.keys(cases).sort());
  });

  describe.each(Object.entries(cases))('%s', (name, spec) => {
    const text = validFixture(name);

    it('parses, and serializes back to the same canonical text', async () => {
      const continuation = await parse(text, spec.secret);
      expect(continuation.format).toBe('agent-continuation');
      expect(continuation.version).toBe(1);
      expect(serializeContinuation(continuation)).toBe(JSON.stringify(JSON.parse(text)));
    });

    it('lists its pending actions', async () => {
      expect(listActions(await parse(text, spec.secret)).map((action) => action.id)).toEqual(spec.actions);
    });

    it('resumes to completion in a freshly built agent, running each tool exactly as decided', async () => {
      const agents = fixtureAgents();
      const result = await agents[spec.agent].resume(await parse(text, spec.secret), spec.decisions);
      expect(result.status).toBe('completed');
      if (result.status !== 'completed') return;
      expect(result.output).toBe(spec.output);
      expect(agents.counts.tools).toEqual(spec.ran);
      expect(agents.counts.modelCalls()).toBe(spec.modelCalls);
    });
  });

  it('rejected sub-agent call reaches its model as a rejection, and the sibling tool is not rerun', async () => {
    const agents = fixtureAgents();
    const result = await agents.ops.resume(
      validFixture('parallel-pending.json'),
      cases['parallel-pending.json']!.decisions,
    );
    if (result.status !== 'completed') throw new Error(`expected completed, got ${result.status}`);
    const results = result.messages
      .filter((message) => message.role === 'tool')
      .flatMap((message) => message.content);
    expect(results.map((part) => part.toolCallId)).toEqual(['call_1_0', 'call_1_1', 'call_1_2', 'call_1_3']);
    expect(results[0]!.output).toEqual({ account: 'acc-9', balance: 1200 });
    expect(JSON.stringify(results[3]!.output)).toContain('A human rejected this tool call: not needed');
    expect(agents.counts.tools.lookup_balance).toBeUndefined();
  });

  it('rejections are marked: in the fixtures written since, and when an older one is resumed', async () => {
    const inTurn = parseContinuation(validFixture('rejected-in-turn.json'));
    expect(inTurn.done.map((entry) => [entry.toolName, isRejected(entry)])).toEqual([
      ['lookup_balance', false],
      ['transfer', true],
    ]);
    const settled = parseContinuation(validFixture('rejected-result.json')).messages.at(-1)!;
    expect(settled.role === 'tool' && settled.content.map(isRejected)).toEqual([true]);
    // parallel-pending.json was written before the mark: what its resume writes has it.
    const resumed = await fixtureAgents().ops.resume(validFixture('parallel-pending.json'), {
      call_1_1: { type: 'reject' },
    });
    if (resumed.status !== 'suspended') throw new Error(`expected suspended, got ${resumed.status}`);
    expect(resumed.continuation.done.filter(isRejected).map((entry) => entry.toolCallId)).toEqual([
      'call_1_1',
    ]);
  });

  it('a partial decision leaves the other action pending and runs nothing twice', async () => {
    const agents = fixtureAgents();
    const first = await agents.ops.resume(validFixture('parallel-pending.json'), {
      call_1_1: { type: 'approve' },
    });
    expect(first.status).toBe('suspended');
    if (first.status !== 'suspended') return;
    expect(first.actions.map((action) => action.id)).toEqual(['call_1_2/call_1_0', 'call_1_3/call_1_0']);
    const second = await agents.ops.resume(serializeContinuation(first.continuation), {
      'call_1_2/call_1_0': { type: 'approve' },
      'call_1_3/call_1_0': { type: 'approve' },
    });
    expect(second.status).toBe('completed');
    expect(agents.counts.tools).toEqual({ transfer: 1, refund: 1, lock_account: 1 });
  });
});

describe('bad fixtures', () => {
  const manifest = badManifest();
  const asData = Object.fromEntries(
    Object.entries(manifest.parsesAsData).filter(([file]) => !file.startsWith('$')),
  );

  it('every file is in the manifest, and every manifest entry has a file', () => {
    expect(badFixtureNames('parse')).toEqual([...Object.keys(manifest.parse), ...Object.keys(asData)].sort());
    expect(badFixtureNames('parse-sealed')).toEqual(Object.keys(manifest.parseSealed).sort());
    expect(badFixtureNames('decisions')).toEqual(Object.keys(manifest.decisions).sort());
    expect(badFixtureNames('resume')).toEqual(Object.keys(manifest.resume).sort());
  });

  it.each(Object.entries(manifest.parse))('parse/%s raises %s', (file, code) => {
    const text = fixtureText(`bad/parse/${file}`);
    expectError(() => parseContinuation(text), code);
    expectError(() => parseContinuation(new TextEncoder().encode(text)), code);
  });

  it.each(Object.entries(asData))(
    'parse/%s parses: its __proto__ key at %s is data, and round-trips',
    (file, path) => {
      const text = fixtureText(`bad/parse/${file}`);
      const continuation = parseContinuation(text);
      expect(serializeContinuation(continuation)).toBe(
        serializeContinuation(parseContinuation(JSON.parse(text))),
      );
      const holder = path
        .slice(2)
        .split(/\.|\[|\]/)
        .filter(Boolean)
        .reduce<any>((node, key) => node[/^\d+$/.test(key) ? Number(key) : key], continuation);
      expect(Object.hasOwn(holder, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(holder)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    },
  );

  it.each(Object.entries(manifest.parseSealed))('parse-sealed/%s raises %s', async (file, code) => {
    const text = fixtureText(`bad/parse-sealed/${file}`);
    // Each is a well-formed continuation: only the seal check refuses it.
    expect(() => parseContinuation(text)).not.toThrow();
    await expectRejection(parseContinuation(text, { secret: FIXTURE_SEAL_SECRET }), code);
  });

  it.each(Object.entries(manifest.decisions))(
    'decisions/%s raises %s before anything runs',
    async (file, code) => {
      const bad = JSON.parse(fixtureText(`bad/decisions/${file}`)) as BadDecisions;
      const spec = cases[bad.continuation]!;
      const agents = fixtureAgents();
      await expectRejection(
        agents[spec.agent].resume(validFixture(bad.continuation), bad.decisions as unknown as Decisions),
        code,
      );
      expect(agents.counts.tools).toEqual({});
      expect(agents.counts.modelCalls()).toBe(0);
    },
  );
});

/** What a fixture agent's final turn says about its one tool result. */
function reported(output: unknown): string {
  return `done: ${JSON.stringify([output])}`;
}

describe('bad resumes', () => {
  it.each(Object.entries(badManifest().resume))(
    'resume/%s raises %s before anything runs',
    async (file, code) => {
      const bad = JSON.parse(fixtureText(`bad/resume/${file}`)) as BadResume;
      const agents = fixtureAgents();
      const agent = agents[bad.agent as ResumeCase['agent']];
      const continuation =
        typeof bad.continuation === 'string'
          ? validFixture(bad.continuation)
          : JSON.stringify(bad.continuation);
      await expectRejection(agent.resume(continuation, bad.decisions as unknown as Decisions), code);
      expect(agents.counts.tools).toEqual({});
      expect(agents.counts.modelCalls()).toBe(0);
    },
  );

  it('a changed agent can be resumed on purpose with allowChangedAgent', async () => {
    const bad = JSON.parse(fixtureText('bad/resume/changed-tool-schema.json')) as BadResume;
    const agents = fixtureAgents();
    const result = await agents.bank.resume(
      JSON.stringify(bad.continuation),
      { call_1_0: { type: 'approve' } },
      { allowChangedAgent: true },
    );
    expect(result.status).toBe('completed');
    expect(agents.counts.tools).toEqual({ transfer: 1 });
  });
});

async function parse(text: string, secret: string | undefined): Promise<Continuation> {
  return secret === undefined ? parseContinuation(text) : parseContinuation(text, { secret });
}

function expectError(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(isContinuationError(caught), `expected a ContinuationError, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  expect((caught as Error).message.length).toBeGreaterThan(20);
}

async function expectRejection(promise: Promise<unknown>, code: string): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(isContinuationError(caught), `expected a ContinuationError, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
}
