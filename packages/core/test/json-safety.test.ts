/**
 * Keys such as `__proto__`, `constructor` and `prototype` inside the model's arguments, tools'
 * outputs, human answers and metadata are data: everything the engine writes, it reads back, and
 * no object's prototype is ever reached.
 */
import {
  type Continuation,
  canonicalJson,
  createContinuableAgent,
  humanTool,
  isContinuationError,
  parseContinuation,
  serializeContinuation,
  type ToolDefinition,
} from '@agent-continuations/core';
import { lastToolResults, scriptedModel } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cloneJson } from '../src/format/canonical';
import { validFixture } from './fixtures/corpus';

/** As a provider's JSON text reaches us: `JSON.parse` makes `__proto__` an own property. */
const HOSTILE_ARGS =
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"to":"bob"}';
const HOSTILE_OUTPUT = '{"__proto__":{"polluted":true},"prototype":1,"name":"bob"}';

function expectClean(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
}

function ownProto(value: unknown): unknown {
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(Object.hasOwn(value as object, '__proto__')).toBe(true);
  return Object.getOwnPropertyDescriptor(value, '__proto__')?.value;
}

describe('prototype keys from the model and the tools round-trip as data', () => {
  it('run, suspend, serialize, parse and resume, with the tool receiving the key', async () => {
    const received: unknown[] = [];
    let fetched = 0;
    const send: ToolDefinition = {
      name: 'send',
      inputSchema: { type: 'object' },
      needsApproval: true,
      execute: (args) => {
        received.push(args);
        return { sent: true };
      },
    };
    const profile: ToolDefinition = {
      name: 'profile',
      inputSchema: { type: 'object' },
      execute: () => {
        fetched++;
        return JSON.parse(HOSTILE_OUTPUT);
      },
    };
    const ask = humanTool({
      name: 'ask',
      description: 'Ask a human',
      parameters: z.object({ question: z.string() }),
    });
    const seen: unknown[] = [];
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'profile', args: {} },
          { name: 'send', args: JSON.parse(HOSTILE_ARGS) },
          { name: 'ask', args: { question: 'ok?' } },
        ],
      },
      (request) => {
        seen.push(...lastToolResults(request.messages).map((part) => part.output));
        return 'done';
      },
    ]);
    const agent = createContinuableAgent({
      name: 'mailer',
      instructions: 'Send.',
      model,
      tools: [profile, send, ask],
    });
    const run = await agent.run('mail bob', {
      metadata: JSON.parse('{"__proto__":{"polluted":true},"tenant":"t"}'),
    });
    expect(run.status).toBe('suspended');
    if (run.status !== 'suspended') return;
    const text = serializeContinuation(run.continuation);
    expect(text).toContain('"__proto__":{"polluted":true}');

    const parsed = parseContinuation(text);
    expect(serializeContinuation(parsed)).toBe(text);
    const [sendAction, askAction] = run.actions;
    expect(ownProto(parsed.pending.find((entry) => entry.toolName === 'send')!.args)).toEqual({
      polluted: true,
    });
    expect(ownProto(parsed.done[0]!.output)).toEqual({ polluted: true });
    expect(ownProto(parsed.metadata)).toEqual({ polluted: true });

    const answer = JSON.parse('{"__proto__":{"polluted":true},"ok":true}');
    const resumed = await agent.resume(text, {
      [sendAction!.id]: { type: 'approve' },
      [askAction!.id]: { type: 'input', value: answer },
    });
    expect(resumed.status).toBe('completed');
    expect(fetched).toBe(1);
    expect(received).toHaveLength(1);
    expect(ownProto(received[0])).toEqual({ polluted: true });
    expect((received[0] as Record<string, unknown>).to).toBe('bob');
    expect(seen).toHaveLength(3);
    expect(ownProto(seen[0])).toEqual({ polluted: true });
    expect(ownProto(seen[2])).toEqual({ polluted: true });
    if (resumed.status === 'completed') {
      // The completed transcript still serializes and the answer in it is data.
      expect(canonicalJson(resumed.messages)).toContain('"__proto__":{"polluted":true}');
    }
    expectClean();
  });

  it('edited arguments with prototype keys are applied as data, audited, and the result parses again', async () => {
    const received: unknown[] = [];
    const send: ToolDefinition = {
      name: 'send',
      inputSchema: { type: 'object' },
      needsApproval: true,
      execute: (args) => {
        received.push(args);
        return { sent: true };
      },
    };
    const model = scriptedModel([
      { toolCalls: [{ name: 'send', args: { to: 'bob' } }] },
      { toolCalls: [{ name: 'send', args: { to: 'carol' } }] },
    ]);
    const agent = createContinuableAgent({ name: 'mailer', instructions: 'Send.', model, tools: [send] });
    const first = await agent.run('mail');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const edited = JSON.parse('{"__proto__":{"admin":true},"to":"dave"}');
    const second = await agent.resume(serializeContinuation(first.continuation), {
      [first.actions[0]!.id]: { type: 'approve', args: edited },
    });
    if (second.status !== 'suspended') throw new Error('expected a second suspension');
    expect(ownProto(received[0])).toEqual({ admin: true });
    const text = serializeContinuation(second.continuation);
    const again = parseContinuation(text);
    expect(ownProto(again.decisions[0]!.editedArgs)).toEqual({ admin: true });
    expect(serializeContinuation(again)).toBe(text);
    expectClean();
  });
});

describe('the codec treats prototype keys inside the JSON it carries as data', () => {
  const flat = () => JSON.parse(validFixture('parallel-pending.json')) as Record<string, any>;
  const hostile = () =>
    JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"prototype":2}');

  const places: Record<string, (c: Record<string, any>) => void> = {
    'tool-call args': (c) => {
      c.messages[1].content[0].args = hostile();
    },
    'pending args': (c) => {
      c.pending[0].args = hostile();
    },
    'done output': (c) => {
      c.done[0].output = hostile();
    },
    metadata: (c) => {
      c.metadata = hostile();
    },
    'message providerMetadata': (c) => {
      c.messages[0].providerMetadata = hostile();
    },
    'part providerMetadata': (c) => {
      c.messages[1].content[0].providerMetadata = hostile();
    },
    'adapter state': (c) => {
      c.state = { nested: [hostile()] };
    },
    journal: (c) => {
      c.pending[0].journal = [hostile()];
    },
    'child metadata two levels down': (c) => {
      c.pending[1].child.metadata = hostile();
    },
  };

  it.each(Object.keys(places))('%s: parses, and serializes back to the same text', (place) => {
    const value = flat();
    places[place]!(value);
    const text = serializeContinuation(value as Continuation);
    expect(text).toContain('"__proto__":{"polluted":true}');
    for (const input of [text, new TextEncoder().encode(text), JSON.parse(text)]) {
      const parsed = parseContinuation(input);
      expect(serializeContinuation(parsed)).toBe(text);
    }
    expectClean();
  });

  it("a __proto__ key in the format's own objects is still refused as UNSAFE_KEY", () => {
    const text = validFixture('flat-approval.json').replace('"agent": {', '"agent": {"__proto__": {},');
    expect(() => parseContinuation(text)).toThrow(
      expect.objectContaining({ code: 'UNSAFE_KEY', path: '$.agent.__proto__' }),
    );
  });
});

describe('input the codec refuses with a typed error', () => {
  it('invalid UTF-8 bytes are INVALID_JSON, not a replacement character', () => {
    const text = validFixture('flat-approval.json').replace('"acme"', '"ac__e"');
    const bytes = new TextEncoder().encode(text);
    const at = text.indexOf('__');
    bytes[at] = 0xc3;
    bytes[at + 1] = 0x28;
    const error = caught(() => parseContinuation(bytes));
    expect(error.code).toBe('INVALID_JSON');
    expect(error.message).toMatch(/UTF-8/);
  });

  it('a bigint, a function, a Date or NaN in an in-memory object: INVALID_JSON naming where', () => {
    for (const [value, kind] of [
      [10n, 'a bigint'],
      [() => 1, 'a function'],
      [new Date(0), 'a Date'],
      [Number.NaN, 'the number NaN'],
    ] as const) {
      const c = JSON.parse(validFixture('flat-approval.json'));
      c.metadata.when = value;
      const error = caught(() => parseContinuation(c));
      expect(error.code).toBe('INVALID_JSON');
      expect(error.path).toBe('$.metadata.when');
      expect(error.message).toContain(kind);
    }
  });

  it('a bigint when serializing or sealing: a typed error, not a TypeError', () => {
    const c = parseContinuation(validFixture('flat-approval.json'));
    (c.metadata as Record<string, unknown>).n = 1n;
    const error = caught(() => serializeContinuation(c));
    expect(error.code).toBe('INVALID_JSON');
    expect(error.path).toBe('$.metadata.n');
  });

  it('messages never repeat a huge offending value, and say where', () => {
    const huge = 'x'.repeat(5_000_000);
    const base = () => JSON.parse(validFixture('flat-approval.json'));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base(), format: huge }, '$.format'],
      [{ ...base(), version: huge }, '$.version'],
      [{ ...base(), createdAt: huge }, '$.createdAt'],
      [{ ...base(), step: huge }, '$.step'],
      [{ ...base(), [huge]: 1 }, '$'],
    ];
    for (const [value, path] of cases) {
      for (const input of [value, JSON.stringify(value)]) {
        const error = caught(() => parseContinuation(input));
        expect(error.message.length).toBeLessThan(400);
        expect(error.message).toContain(path);
      }
    }
    expect(caught(() => parseContinuation(`${huge}{`)).message.length).toBeLessThan(400);
  });

  it('a wrong message part says which part and what is expected, not only "Invalid input"', () => {
    const c = JSON.parse(validFixture('flat-approval.json'));
    c.messages[1].content[0].type = 'tool_call';
    const error = caught(() => parseContinuation(c));
    expect(error.code).toBe('INVALID_CONTINUATION');
    expect(error.path).toBe('$.messages[1].content[0].type');
    expect(error.message).toContain('"tool-call"');
  });

  it('an unknown key inside a message is refused (the JSON Schema forbids it too), not dropped', () => {
    const c = JSON.parse(validFixture('flat-approval.json'));
    c.messages[1].content[0].injected = 'after sealing';
    const error = caught(() => parseContinuation(c));
    expect(error.code).toBe('INVALID_CONTINUATION');
    expect(error.path).toBe('$.messages[1].content[0]');
    expect(error.message).toContain('"injected"');
  });
});

function caught(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isContinuationError(error)) return error;
    throw new Error(`expected a ContinuationError, got ${String(error)}`);
  }
  throw new Error('expected an error, nothing was thrown');
}

describe('cloneJson and canonicalJson keep prototype keys as data', () => {
  it('cloneJson copies an own __proto__ member as an own member, and refuses what is not JSON', () => {
    const source = JSON.parse('{"__proto__":{"polluted":true},"list":[{"constructor":{"prototype":1}}]}');
    const copy = cloneJson(source);
    expect(copy).not.toBe(source);
    expect(ownProto(copy)).toEqual({ polluted: true });
    expect(canonicalJson(copy)).toBe(canonicalJson(source));
    expect(() => cloneJson({ n: 1n } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_JSON', path: '$.n' }),
    );
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(() => cloneJson(deep as never)).toThrow(expect.objectContaining({ code: 'INVALID_JSON' }));
    expectClean();
  });

  it('canonicalJson writes an own __proto__ member like any key', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"b":1}');
  });
});
