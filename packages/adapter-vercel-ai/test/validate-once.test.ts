import { suspended } from '@agent-continuations/testing';
import { jsonSchema, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { continuable } from '../src/index';
import { scriptedLanguageModel } from './support/scripted-language-model';

/** An input schema that counts its validations and its conversions to JSON Schema. */
function countingSchema(counts: { validations: number; conversions: number }) {
  return jsonSchema<{ host: string }>(
    () => {
      counts.conversions++;
      return {
        type: 'object',
        properties: { host: { type: 'string' } },
        required: ['host'],
        additionalProperties: false,
      };
    },
    {
      validate: (value) => {
        counts.validations++;
        const host = (value as { host?: unknown } | null)?.host;
        return typeof host === 'string'
          ? { success: true, value: { host } }
          : { success: false, error: new TypeError('host must be a string') };
      },
    },
  );
}

describe('validating a tool call', () => {
  it('once per call in a run, generated and streamed', async () => {
    for (const mode of ['run', 'stream'] as const) {
      const counts = { validations: 0, conversions: 0 };
      const ran: string[] = [];
      const agent = continuable(
        new ToolLoopAgent({
          model: scriptedLanguageModel([
            { toolCalls: [{ name: 'lookup', args: { host: 'web-1' } }] },
            { toolCalls: [{ name: 'lookup', args: { host: 'web-2' } }] },
            { toolCalls: [{ name: 'lookup', args: { host: 'web-3' } }] },
            'Done.',
          ]),
          tools: {
            lookup: tool({
              inputSchema: countingSchema(counts),
              execute: async ({ host }) => {
                ran.push(host);
                return 'ok';
              },
            }),
          },
        }),
        { name: 'hosts' },
      );
      if (mode === 'run') {
        expect((await agent.run('check')).status).toBe('completed');
      } else {
        const stream = agent.stream('check');
        for await (const _ of stream);
        expect((await stream.result).status).toBe('completed');
      }
      expect(ran).toEqual(['web-1', 'web-2', 'web-3']);
      expect(counts.validations).toBe(3);
      expect(counts.conversions).toBe(1);
    }
  });

  it('still refuses invalid arguments, and validates edited ones', async () => {
    const counts = { validations: 0, conversions: 0 };
    const ran: string[] = [];
    const build = () =>
      continuable(
        new ToolLoopAgent({
          model: scriptedLanguageModel([
            { toolCalls: [{ name: 'restart', args: { host: 7 } }] },
            { toolCalls: [{ name: 'restart', args: { host: 'web-1' } }] },
            'Done.',
          ]),
          tools: {
            restart: tool({
              inputSchema: countingSchema(counts),
              needsApproval: true,
              execute: async ({ host }) => {
                ran.push(host);
                return 'restarted';
              },
            }),
          },
        }),
        { name: 'hosts' },
      );
    const first = suspended(await build().run('restart'));
    // The invalid call never reached approval: the model was told, and asked again.
    expect(first.actions).toHaveLength(1);
    expect(first.actions[0]!.args).toEqual({ host: 'web-1' });
    await expect(
      build().resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve', args: { host: 9 } } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGS' });
    const before = counts.validations;
    const done = await build().resume(first.continuation, {
      [first.actions[0]!.id]: { type: 'approve', args: { host: 'web-9' } },
    });
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['web-9']);
    // Checked with the decision, then again before the tool runs (another step than the model's).
    expect(counts.validations - before).toBe(2);
  });

  it('validates again arguments a validation changed', async () => {
    let seen: unknown;
    const agent = continuable(
      new ToolLoopAgent({
        model: scriptedLanguageModel([{ toolCalls: [{ name: 'count', args: { text: 'abc' } }] }, 'Done.']),
        tools: {
          count: tool({
            inputSchema: z
              .object({ text: z.string() })
              .transform(({ text }) => ({ text, length: text.length })),
            execute: async (input) => {
              seen = input;
              return 'ok';
            },
          }),
        },
      }),
      { name: 'counter' },
    );
    const result = await agent.run('count');
    expect(result.status).toBe('completed');
    // What the engine's own validation of the stored arguments gives, as before.
    expect(seen).toEqual({ text: 'abc', length: 3 });
  });
});
