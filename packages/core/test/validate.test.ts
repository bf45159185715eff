/**
 * The one-walk validator that reads continuations must agree with the full pipeline (the JSON
 * walk, then the zod schema) on every parsed value: accept exactly what it accepts. Valid
 * continuations of every shape the format has, damaged at random, are run through both. And the
 * walk's work grows with the size of what it reads, never faster (counted, not timed).
 */
import {
  type Continuation,
  isContinuationError,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { continuationSchema } from '@agent-continuations/core/zod';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJson } from '../src/format/json';
import { continuationIssue, isValidContinuation, validationVisits } from '../src/format/validate';
import { validFixture, validFixtureNames } from './fixtures/corpus';
import { type Key, nest, parentAt, pathsOf, position, retype } from './fixtures/mutations';

const SEED = 20_261_201;

/** A continuation using every part, message, entry and optional member the format has. */
function everyShape(child?: unknown): Record<string, unknown> {
  return {
    format: 'agent-continuation',
    version: 1,
    id: 'c-1',
    runId: 'run-1',
    agent: { name: 'ops', framework: 'core', fingerprint: 'f' },
    messages: [
      { role: 'system', content: 'Be brief.', providerMetadata: { cache: { ttl: 5 } } },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look', providerMetadata: {} },
          { type: 'image', image: 'https://x.test/a.png', mediaType: 'image/png' },
          { type: 'file', data: 'aGk=', mediaType: 'text/plain', filename: 'a.txt' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '' },
          { type: 'text', text: 'Checking.' },
          { type: 'file', data: 'aGk=', mediaType: 'text/plain' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', args: { host: 'a' } },
          { type: 'tool-call', toolCallId: 'c1r', toolName: 'wipe', args: { host: 'a' } },
        ],
        providerMetadata: { id: 'r1' },
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', output: [1, 'x'], isError: false },
          {
            type: 'tool-result',
            toolCallId: 'c1r',
            toolName: 'wipe',
            output: 'A human rejected this tool call. Do not retry it unchanged.',
            isError: true,
            rejected: true,
          },
        ],
      },
      { role: 'user', content: 'And now?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c2', toolName: 'restart', args: {} },
          { type: 'tool-call', toolCallId: 'c3', toolName: 'ask', args: null },
          { type: 'tool-call', toolCallId: 'c4', toolName: 'sub', args: { input: 'go' } },
          { type: 'tool-call', toolCallId: 'c5', toolName: 'done', args: 1 },
        ],
      },
    ],
    pending: [
      {
        kind: 'approval',
        toolCallId: 'c2',
        toolName: 'restart',
        args: {},
        approved: false,
        deadline: '2026-12-02T00:00:00+01:00',
      },
      {
        kind: 'input',
        toolCallId: 'c3',
        toolName: 'ask',
        args: null,
        request: { q: 'why' },
        journal: [1, {}],
      },
      ...(child ? [{ kind: 'agent', toolCallId: 'c4', toolName: 'sub', args: { input: 'go' }, child }] : []),
    ],
    done: [{ toolCallId: 'c5', toolName: 'done', output: 'ok', isError: true, rejected: true }],
    step: 3,
    usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3, cached: { n: 1 } },
    suspendedBy: { type: 'actions', kinds: ['approval', 'input', 'agent'] },
    state: { graph: [true, null] },
    metadata: { tenant: 'acme' },
    decisions: [
      {
        actionId: 'c0',
        type: 'approve',
        toolName: 'x',
        toolCallId: 'c0',
        at: 'now',
        by: 'ann',
        reason: 'ok',
        args: 1,
        editedArgs: 2,
        value: 3,
      },
    ],
    createdAt: '2026-12-01T03:00:00.123Z',
    seal: { alg: 'HMAC-SHA256', keyId: 'k', mac: 'm' },
  };
}

const bases: unknown[] = [
  everyShape(),
  everyShape(everyShape()),
  everyShape(everyShape(everyShape())),
  { ...everyShape(), suspendedBy: { type: 'predicate', predicates: ['p'] } },
  { ...everyShape(), suspendedBy: { type: 'checkpoint' } },
  ...validFixtureNames().map((name) => JSON.parse(validFixture(name))),
];

/** Values that sit on the edges of what the format allows. */
const edgeValue = fc.constantFrom<unknown>(
  '',
  'x',
  'text',
  'image',
  'file',
  'reasoning',
  'tool-call',
  'tool-result',
  'system',
  'user',
  'assistant',
  'tool',
  'approval',
  'input',
  'agent',
  'actions',
  'predicate',
  'checkpoint',
  'approve',
  'reject',
  'HMAC-SHA256',
  'agent-continuation',
  0,
  -1,
  1,
  2,
  1.5,
  2 ** 53,
  2 ** 53 - 1,
  true,
  false,
  null,
  [],
  {},
  ['approval'],
  '2024-02-29T00:00:00Z',
  '2026-02-29T00:00:00Z',
  '2000-02-29T23:59:59.5+14:00',
  '1900-02-29T00:00:00Z',
  '2026-12-01T24:00:00Z',
  '2026-12-01T03:00Z',
  '2026-12-01T03:00:00',
  '2026-12-01T03:00:00+0100',
  '2026-12-01 03:00:00Z',
  '2026-04-31T03:00:00Z',
  'INFINITY',
);

const edgeKey = fc.constantFrom(
  'type',
  'role',
  'kind',
  'text',
  'image',
  'data',
  'mediaType',
  'filename',
  'toolCallId',
  'toolName',
  'args',
  'output',
  'isError',
  'providerMetadata',
  'content',
  'approved',
  'journal',
  'deadline',
  'request',
  'child',
  'keyId',
  'fingerprint',
  'state',
  'seal',
  'kinds',
  'predicates',
  'extra',
  '__proto__',
  'value',
  'by',
  'rejected',
);

type Step =
  | { kind: 'delete'; at: number }
  | { kind: 'set'; at: number; value: unknown }
  | { kind: 'retype'; at: number }
  | { kind: 'add'; at: number; key: string; value: unknown }
  | { kind: 'deep'; at: number; depth: number; array: boolean }
  | { kind: 'relabel'; at: number; value: string }
  | { kind: 'renumber'; at: number; value: number }
  | { kind: 'transplant'; at: number; from: number };

/** Every value a `type`, `role` or `kind` member can have. */
const DISCRIMINATORS = [
  'text',
  'image',
  'file',
  'reasoning',
  'tool-call',
  'tool-result',
  'system',
  'user',
  'assistant',
  'tool',
  'approval',
  'input',
  'agent',
  'actions',
  'predicate',
  'checkpoint',
  'approve',
  'reject',
];

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: position }),
  fc.record({
    kind: fc.constant('set' as const),
    at: position,
    value: fc.oneof(edgeValue, fc.jsonValue({ maxDepth: 2 })),
  }),
  fc.record({ kind: fc.constant('retype' as const), at: position }),
  fc.record({ kind: fc.constant('add' as const), at: position, key: edgeKey, value: edgeValue }),
  fc.record({
    kind: fc.constant('deep' as const),
    at: position,
    // Around the depth bound (512), where an off-by-one would show.
    depth: fc.integer({ min: 490, max: 530 }),
    array: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('relabel' as const),
    at: position,
    value: fc.constantFrom(...DISCRIMINATORS, 'x', ''),
  }),
  fc.record({
    kind: fc.constant('renumber' as const),
    at: position,
    value: fc.constantFrom(2 ** 53, 2 ** 53 - 1, -1, 1.5, 0, 1e21, 2),
  }),
  fc.record({ kind: fc.constant('transplant' as const), at: position, from: position }),
);

/** Paths of the format's own members: not inside the user's or the model's JSON. */
function formatPaths(root: unknown): Key[][] {
  return pathsOf(root).filter((path) =>
    path.slice(0, -1).every((key) => typeof key === 'number' || !PAYLOAD.has(key)),
  );
}

const LABELS: ReadonlySet<Key> = new Set(['type', 'role', 'kind']);

function apply(root: unknown, change: Step): unknown {
  // Most damage goes to the format's own members, where the rules are.
  let paths = change.at % 4 === 0 ? pathsOf(root) : formatPaths(root);
  if (change.kind === 'relabel') paths = paths.filter((path) => LABELS.has(path[path.length - 1]!));
  if (change.kind === 'renumber')
    paths = paths.filter((path) => typeof parentAt(root, path)[path[path.length - 1]!] === 'number');
  if (paths.length === 0) return root;
  const path = paths[change.at % paths.length] as Key[];
  const parent = parentAt(root, path);
  const key = path[path.length - 1]!;
  switch (change.kind) {
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 'set':
      parent[key] = change.value;
      break;
    case 'retype':
      parent[key] = retype(parent[key]);
      break;
    case 'add': {
      const target = typeof parent[key] === 'object' && parent[key] !== null ? parent[key] : parent;
      if (Array.isArray(target)) target.push(change.value);
      else
        Object.defineProperty(target, change.key, {
          value: change.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      break;
    }
    case 'deep':
      parent[key] = nest(change.depth - path.length, change.array);
      break;
    case 'relabel':
    case 'renumber':
      parent[key] = change.value;
      break;
    case 'transplant': {
      // A member moved where another was: a part into another message, an entry into another list.
      const source = paths[change.from % paths.length]!;
      const moved = structuredClone(parentAt(root, source)[source[source.length - 1]!]);
      if (Array.isArray(parent)) parent.splice(key as number, 0, moved);
      else parent[key] = moved;
      break;
    }
  }
  return root;
}

/**
 * The paths a zod issue names: its own and, for a union, those of every issue of every branch. A
 * branch may hold several faults (a wrong member and an unknown key of one part); the generated
 * validator may name any of them first.
 */
function schemaPaths(issue: { path: PropertyKey[]; code: string; errors?: unknown }): PropertyKey[][] {
  const paths = [issue.path];
  if (issue.code === 'invalid_union' && Array.isArray(issue.errors)) {
    for (const branch of issue.errors as Array<Array<{ path: PropertyKey[]; code: string }>>) {
      for (const inner of branch) for (const path of schemaPaths(inner)) paths.push([...issue.path, ...path]);
    }
  }
  return paths;
}

function passesJsonWalk(value: unknown): boolean {
  try {
    checkJson(value, { code: 'INVALID_JSON', what: 'Continuation', dataKeys: PAYLOAD });
    return true;
  } catch {
    return false;
  }
}

/** What the full pipeline says: the JSON walk passes and the zod schema accepts. */
function fullPipelineAccepts(value: unknown): boolean {
  return passesJsonWalk(value) && continuationSchema.safeParse(value).success;
}

const PAYLOAD = new Set([
  'args',
  'editedArgs',
  'journal',
  'metadata',
  'output',
  'providerMetadata',
  'request',
  'state',
  'value',
]);

function parsedText(value: unknown): unknown {
  // A number too large for a double is Infinity once parsed; JSON.stringify cannot write one.
  return JSON.parse(JSON.stringify(value).replaceAll('"INFINITY"', '1e999'));
}

describe('the one-walk validator', () => {
  it('accepts every valid base as the schema does', () => {
    for (const base of bases) {
      const value = parsedText(base);
      expect(fullPipelineAccepts(value)).toBe(true);
      expect(isValidContinuation(value)).toBe(true);
    }
  });

  it('agrees with the JSON walk and the zod schema on randomly damaged continuations', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(
        fc.nat({ max: bases.length - 1 }),
        fc.array(step, { minLength: 1, maxLength: 3 }),
        (base, changes) => {
          let value = structuredClone(bases[base]);
          for (const change of changes) value = apply(value, change);
          const parsed = parsedText(value);
          const expected = fullPipelineAccepts(parsed);
          expect(isValidContinuation(parsed)).toBe(expected);
          // The error path (which runs after the JSON walk passed) reads the same generated
          // validator: it finds a fault exactly when the zod schema does, where zod names one.
          if (passesJsonWalk(parsed)) {
            const zod = continuationSchema.safeParse(parsed);
            const issue = continuationIssue(parsed);
            expect(issue === undefined).toBe(zod.success);
            if (issue && !zod.success && zod.error.issues.length === 1) {
              expect(schemaPaths(zod.error.issues[0]!)).toContainEqual(issue.path);
            }
          }
          seen[expected ? 'accepted' : 'refused']++;
        },
      ),
      { seed: SEED, numRuns: 4000 },
    );
    // Both outcomes are well represented, so the agreement means something.
    expect(seen.accepted).toBeGreaterThan(300);
    expect(seen.refused).toBeGreaterThan(300);
  });

  it('reads date-times exactly as the schema does', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const dateTime = fc
      .tuple(
        fc.oneof(
          fc.constantFrom('2000', '1900', '2024', '2100', '2400', '0000'),
          fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        ),
        two(13),
        two(32),
        two(25),
        two(61),
        two(61),
        fc.constantFrom('', '.5', '.123456789', '.'),
        fc.constantFrom('Z', 'z', '+00:00', '-23:59', '+24:00', '+01:60', '+0100', ''),
      )
      .map(([y, mo, d, h, mi, s, frac, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${zone}`);
    fc.assert(
      fc.property(dateTime, fc.boolean(), (text, deadline) => {
        const value = parsedText(everyShape());
        if (deadline) (value as { pending: Array<Record<string, unknown>> }).pending[0]!.deadline = text;
        else (value as Record<string, unknown>).createdAt = text;
        expect(isValidContinuation(value)).toBe(fullPipelineAccepts(value));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('agrees on each rule of the format, one change at a time', () => {
    type Shape = Record<string, any>;
    const cases: Array<[string, (c: Shape) => void, boolean]> = [
      [
        'reasoning in a user message',
        (c) => c.messages[1].content.push({ type: 'reasoning', text: 'x' }),
        false,
      ],
      ['a tool call in a user message', (c) => c.messages[1].content.push(c.messages[2].content[3]), false],
      [
        'an image in an assistant message',
        (c) => c.messages[2].content.push(c.messages[1].content[1]),
        false,
      ],
      [
        'a tool result in an assistant message',
        (c) => c.messages[2].content.push(c.messages[3].content[0]),
        false,
      ],
      [
        'a text part in a tool message',
        (c) => c.messages[3].content.push({ type: 'text', text: 'x' }),
        false,
      ],
      ['a system message with parts', (c) => (c.messages[0].content = [{ type: 'text', text: 'x' }]), false],
      ['a tool message with text', (c) => (c.messages[3].content = 'x'), false],
      ['an assistant message with text', (c) => (c.messages[2].content = 'x'), true],
      ['a file without a media type', (c) => delete c.messages[1].content[2].mediaType, false],
      ['an image without a media type', (c) => delete c.messages[1].content[1].mediaType, true],
      ['a tool call without arguments', (c) => delete c.messages[2].content[3].args, false],
      ['a tool call with an empty id', (c) => (c.messages[2].content[3].toolCallId = ''), false],
      ['providerMetadata that is an array', (c) => (c.messages[0].providerMetadata = []), false],
      ['an unknown member in usage', (c) => (c.usage.extra = { deep: [1] }), true],
      [
        '`__proto__` in usage',
        (c) => Object.defineProperty(c.usage, '__proto__', { value: 1, enumerable: true }),
        false,
      ],
      [
        '`__proto__` in metadata',
        (c) => Object.defineProperty(c.metadata, '__proto__', { value: 1, enumerable: true }),
        true,
      ],
      [
        '`__proto__` deep in a usage member',
        (c) => (c.usage.extra = JSON.parse('{"a":{"__proto__":1}}')),
        false,
      ],
      [
        '`__proto__` in args under a usage member',
        (c) => (c.usage.extra = JSON.parse('{"args":{"__proto__":1}}')),
        true,
      ],
      ['unsafe integer tokens', (c) => (c.usage.totalTokens = 2 ** 53), false],
      ['the largest safe step', (c) => (c.step = 2 ** 53 - 1), true],
      ['a fractional step', (c) => (c.step = 1.5), false],
      ['a deadline on an agent entry', (c) => (c.pending[2].deadline = '2026-12-01T00:00:00Z'), true],
      ['a deadline without seconds', (c) => (c.pending[0].deadline = '2026-12-01T00:00Z'), false],
      ['a request on an approval', (c) => (c.pending[0].request = 1), false],
      ['an input without its request', (c) => delete c.pending[1].request, false],
      ['a child on an input', (c) => (c.pending[1].child = c.pending[2].child), false],
      ['journal that is not a list', (c) => (c.pending[1].journal = {}), false],
      ['a child of version 2', (c) => (c.pending[2].child.version = 2), false],
      ['a child of another format', (c) => (c.pending[2].child.format = 'x'), false],
      ['a seal without its MAC', (c) => delete c.seal.mac, false],
      ['a numeric key id', (c) => (c.seal.keyId = 1), false],
      ['an unknown pending kind in suspendedBy', (c) => c.suspendedBy.kinds.push('wait'), false],
      ['predicates on an actions reason', (c) => (c.suspendedBy.predicates = []), false],
      ['an audit entry without its time', (c) => delete c.decisions[0].at, false],
      ['an audit entry of an unknown type', (c) => (c.decisions[0].type = 'edit'), false],
      ['metadata that is a list', (c) => (c.metadata = []), false],
      ['no state', (c) => delete c.state, true],
      ['a state of null', (c) => (c.state = null), true],
      ['a done entry not marked rejected', (c) => delete c.done[0].rejected, true],
      ['a done entry marked rejected: false', (c) => (c.done[0].rejected = false), false],
      ['a done entry marked rejected: "true"', (c) => (c.done[0].rejected = 'true'), false],
      ['a tool result not marked rejected', (c) => delete c.messages[3].content[1].rejected, true],
      ['a tool result marked rejected: false', (c) => (c.messages[3].content[1].rejected = false), false],
      ['a tool result marked rejected: 1', (c) => (c.messages[3].content[1].rejected = 1), false],
      ['a tool call marked rejected', (c) => (c.messages[2].content[3].rejected = true), false],
      ['a pending entry marked rejected', (c) => (c.pending[0].rejected = true), false],
      [
        'an infinite number in args',
        (c) => (c.messages[2].content[3].args = Number.POSITIVE_INFINITY),
        false,
      ],
    ];
    for (const [name, change, valid] of cases) {
      const value = parsedText(everyShape(everyShape())) as Shape;
      change(value);
      expect([name, fullPipelineAccepts(value)]).toEqual([name, valid]);
      expect([name, isValidContinuation(value)]).toEqual([name, valid]);
    }
  });

  it('leaves every refusal to the full pipeline, with its code and message', () => {
    const value = parsedText(everyShape()) as Record<string, unknown>;
    (value.messages as Array<Record<string, unknown>>)[1]!.role = 'robot';
    let caught: unknown;
    try {
      parseContinuation(JSON.stringify(value));
    } catch (error) {
      caught = error;
    }
    expect(isContinuationError(caught) && caught.code).toBe('INVALID_CONTINUATION');
    expect((caught as Error).message).toMatch(/^Invalid continuation at \$\.messages\[1\]\.role: /);
  });
});

/** A transcript of `messages` messages: a user message, then lookups, then a call that waits. */
function transcript(messages: number, child?: Continuation): Continuation {
  const list: unknown[] = [{ role: 'user', content: 'Check every host.' }];
  for (let turn = 0; list.length < messages - 1; turn++) {
    const id = `call_${turn}`;
    list.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Checking web-${turn}.` },
        { type: 'tool-call', toolCallId: id, toolName: 'lookup', args: { host: `web-${turn}` } },
      ],
    });
    list.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'lookup',
          output: { host: `web-${turn}`, load: [1, 2] },
        },
      ],
    });
  }
  list.push({
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'last', toolName: child ? 'sub' : 'restart', args: {} }],
  });
  return parseContinuation({
    format: 'agent-continuation',
    version: 1,
    id: 'c',
    runId: 'r',
    agent: { name: 'ops', framework: 'core' },
    messages: list,
    pending: [
      child
        ? { kind: 'agent', toolCallId: 'last', toolName: 'sub', args: {}, child }
        : { kind: 'approval', toolCallId: 'last', toolName: 'restart', args: {} },
    ],
    done: [],
    step: 1,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    suspendedBy: { type: 'actions', kinds: [child ? 'agent' : 'approval'] },
    metadata: {},
    decisions: [],
    createdAt: '2026-12-01T00:00:00Z',
  });
}

function nested(depth: number): Continuation {
  let continuation = transcript(10);
  for (let level = 1; level < depth; level++) continuation = transcript(10, continuation);
  return continuation;
}

/** Values the validator visits to read `text`. */
function visitsToRead(text: string): number {
  const before = validationVisits();
  parseContinuation(text);
  return validationVisits() - before;
}

describe('the cost of reading grows with the size read', () => {
  it('twice the messages cost at most twice the visits', () => {
    for (const messages of [10, 100, 1000]) {
      const once = visitsToRead(serializeContinuation(transcript(messages)));
      const twice = visitsToRead(serializeContinuation(transcript(messages * 2)));
      expect(once).toBeGreaterThan(messages);
      expect(twice).toBeLessThanOrEqual(2 * once);
    }
  });

  it('nesting 100 deep costs about twice nesting 50 deep: linear, not quadratic', () => {
    const fifty = visitsToRead(serializeContinuation(nested(50)));
    const hundred = visitsToRead(serializeContinuation(nested(100)));
    expect(hundred).toBeLessThanOrEqual(2.05 * fifty);
  });
});
