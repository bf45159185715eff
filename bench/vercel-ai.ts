/**
 * Vercel AI SDK adapter: the per-step cost of `continuable(agent).run` against the same
 * `ToolLoopAgent.generate` (and of `stream` against `agent.stream`), with the same mock language
 * model from `ai/test` and the same tool, for runs of 5, 20 and 50 model steps. The model answers
 * at once, so the figures are the loops' own costs: the ratio is what the adapter adds per step.
 */
import { continuable } from '@agent-continuations/vercel-ai';
import { stepCountIs, ToolLoopAgent, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { table } from './report';

const STEP_COUNTS = [2, 5, 20, 50];
/** Time spent measuring each variant, after the warm-up. */
const BUDGET_MS = 2000;
const WARM_UP_MS = 1000;

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type Result = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

/** `steps` model calls: a lookup per step, then a text answer; decided from the prompt alone. */
function reply(steps: number, { prompt }: CallOptions): Result['content'] {
  const turn = prompt.filter((message) => message.role === 'assistant').length;
  if (turn < steps - 1) {
    return [
      {
        type: 'tool-call',
        toolCallId: `call_${turn}`,
        toolName: 'lookup',
        input: JSON.stringify({ host: `web-${turn}` }),
      },
    ];
  }
  return [{ type: 'text', text: 'All hosts checked.' }];
}

function mockModel(steps: number): MockLanguageModelV3 {
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const content = reply(steps, options);
      return {
        content,
        finishReason: { unified: content[0]!.type === 'text' ? 'stop' : 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
    doStream: async (options) => {
      const content = reply(steps, options);
      const parts = content.flatMap((part): unknown[] =>
        part.type === 'text'
          ? [
              { type: 'text-start' as const, id: 't' },
              { type: 'text-delta' as const, id: 't', delta: part.text },
              { type: 'text-end' as const, id: 't' },
            ]
          : [part],
      );
      const finish = content[0]!.type === 'text' ? 'stop' : 'tool-calls';
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of [
              ...parts,
              { type: 'finish', finishReason: { unified: finish, raw: undefined }, usage },
            ]) {
              controller.enqueue(part as never);
            }
            controller.close();
          },
        }),
      };
    },
  });
  // The mock records every call; a benchmark makes thousands, so keep the records from growing.
  const generate = model.doGenerate;
  const stream = model.doStream;
  model.doGenerate = async (options) => {
    model.doGenerateCalls.length = 0;
    return generate(options);
  };
  model.doStream = async (options) => {
    model.doStreamCalls.length = 0;
    return stream(options);
  };
  return model;
}

export function agentFor(steps: number) {
  return new ToolLoopAgent({
    model: mockModel(steps),
    instructions: 'You check hosts.',
    stopWhen: stepCountIs(steps + 1),
    tools: {
      lookup: tool({
        description: 'Look up a host',
        inputSchema: z.object({ host: z.string() }),
        execute: async ({ host }) => ({ host, status: 'ok', load: [0.41, 0.37, 0.33] }),
      }),
    },
  });
}

/**
 * Median CPU milliseconds of a run of `a` and of `b`, run alternately after a warm-up. CPU time
 * (`process.cpuUsage`, this process's threads) rather than wall time: the mock model answers at
 * once, so a run's cost is its CPU time, and other processes on a shared machine do not count.
 */
async function measurePair(a: () => Promise<void>, b: () => Promise<void>): Promise<[number, number]> {
  // Warm up until both are compiled: a fixed time, not a count, as the first section pays the JIT.
  const warm = performance.now() + WARM_UP_MS;
  while (performance.now() < warm) {
    await a();
    await b();
  }
  const times: [number[], number[]] = [[], []];
  const end = performance.now() + BUDGET_MS;
  while (performance.now() < end || times[0].length < 7) {
    for (const [index, fn] of [a, b].entries()) {
      const started = process.cpuUsage();
      await fn();
      const used = process.cpuUsage(started);
      times[index]!.push((used.user + used.system) / 1000);
    }
  }
  return [median(times[0]), median(times[1])];
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream);
}

export async function run(): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  for (const steps of STEP_COUNTS) {
    const agent = agentFor(steps);
    const wrapped = continuable(agentFor(steps), { name: 'hosts' });
    const check = await wrapped.run('Check every host.');
    const direct = await agent.generate({ prompt: 'Check every host.' });
    if (check.status !== 'completed' || check.step !== steps || direct.steps.length !== steps) {
      throw new Error(`bench setup: expected ${steps} steps on both sides`);
    }
    const variants: Array<[string, () => Promise<void>, () => Promise<void>]> = [
      [
        'generate',
        async () => void (await agent.generate({ prompt: 'Check every host.' })),
        async () => void (await wrapped.run('Check every host.')),
      ],
      [
        'stream',
        async () => drain((await agent.stream({ prompt: 'Check every host.' })).fullStream),
        () => drain(wrapped.stream('Check every host.')),
      ],
    ];
    for (const [mode, sdk, ours] of variants) {
      const [sdkRun, oursRun] = await measurePair(sdk, ours);
      const sdkMs = sdkRun / steps;
      const oursMs = oursRun / steps;
      rows.push({
        steps,
        mode,
        'ToolLoopAgent CPU per step': `${sdkMs.toFixed(3)} ms`,
        'continuable CPU per step': `${oursMs.toFixed(3)} ms`,
        'added per step': `${(oursMs - sdkMs).toFixed(3)} ms`,
        ratio: `${(oursMs / sdkMs).toFixed(2)}x`,
        goal: '<= 1.10x',
      });
    }
  }
  console.log(
    '\nVercel AI SDK adapter: continuable(agent) per model step against the same ToolLoopAgent, zero-latency mock model (CPU time, medians of alternating runs)',
  );
  table('Vercel AI SDK adapter: per step against ToolLoopAgent', rows);
}
