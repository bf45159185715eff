/**
 * LangGraph: what a resumable pause costs. For an N-step run of one createReactAgent graph that
 * pauses for an approval at step N, the bytes of our continuation (all a resume needs) against the
 * bytes LangGraph's SQLite checkpointer stores for the same run; and the time per step of the
 * graph alone (in-memory and SQLite checkpointers) and wrapped by the adapter, wall and CPU time,
 * with the adapter's ratio to the graph on its own SqliteSaver.
 */
import { type Continuation, type PendingEntry, serializeContinuation } from '@agent-continuations/core';
import { fromGraph, requireApproval } from '@agent-continuations/langgraph';
import type { Script } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { z } from 'zod';
import { mixedChain } from '../packages/adapter-langgraph/test/fixtures/mixed-chain';
import { ScriptedChatModel } from '../packages/adapter-langgraph/test/scripted-chat-model';
import { table } from './report';

const SIZES = [10, 50, 100];
const REPEATS = 5;

/** N model calls: N - 1 lookups, then a restart that needs approval (or, to finish, a text answer). */
function script(steps: number, finish: boolean): Script {
  return (request) => {
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    if (turn < steps - 1)
      return {
        text: `Checking host ${turn}.`,
        toolCalls: [{ name: 'lookup', args: { host: `web-${turn}` } }],
      };
    if (finish) return 'All hosts checked.';
    return { toolCalls: [{ name: 'restart', args: { host: 'web-0' } }] };
  };
}

function graph(steps: number, finish: boolean, checkpointer?: MemorySaver | SqliteSaver) {
  const lookup = tool(
    async ({ host }) => ({ host, status: 'degraded', load: [0.91, 0.87, 0.93], note: 'x'.repeat(200) }),
    { name: 'lookup', description: 'Look up a host', schema: z.object({ host: z.string() }) },
  );
  const restart = tool(async ({ host }) => `restarted ${host}`, {
    name: 'restart',
    description: 'Restart a host',
    schema: z.object({ host: z.string() }),
  });
  return createReactAgent({
    llm: new ScriptedChatModel(script(steps, finish)),
    tools: requireApproval([lookup, restart], ['restart']),
    version: 'v2',
    ...(checkpointer ? { checkpointer } : {}),
  });
}

function sqliteBytes(saver: SqliteSaver): { bytes: number; checkpoints: number } {
  const row = saver.db
    .prepare(
      `SELECT (SELECT COALESCE(SUM(LENGTH(checkpoint) + LENGTH(metadata)), 0) FROM checkpoints) +
              (SELECT COALESCE(SUM(LENGTH(value)), 0) FROM writes) AS bytes,
              (SELECT COUNT(*) FROM checkpoints) AS checkpoints`,
    )
    .get() as { bytes: number; checkpoints: number };
  return row;
}

/** Wall and CPU milliseconds of one run. */
interface Timing {
  wall: number;
  cpu: number;
}

/**
 * The best wall and CPU time of each variant over REPEATS rounds; each round runs every variant
 * once, in turn, so a busy moment of the machine falls on all of them alike.
 */
async function timedTogether<K extends string>(
  variants: Record<K, () => Promise<unknown>>,
): Promise<Record<K, Timing>> {
  const best = {} as Record<K, Timing>;
  for (const name of Object.keys(variants) as K[]) best[name] = { wall: Infinity, cpu: Infinity };
  for (let round = 0; round < REPEATS; round++) {
    for (const name of Object.keys(variants) as K[]) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      await variants[name]();
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      best[name] = {
        wall: Math.min(best[name].wall, wall),
        cpu: Math.min(best[name].cpu, (used.user + used.system) / 1000),
      };
    }
  }
  return best;
}

const input = { messages: [{ role: 'user', content: 'Check every host, then restart web-0.' }] };
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function run(): Promise<void> {
  const sizeRows = [];
  const timeRows = [];
  for (const steps of SIZES) {
    const paused = await fromGraph(graph(steps, false), { name: 'ops', recursionLimit: 10 * steps }).run(
      'Check every host, then restart web-0.',
    );
    if (paused.status !== 'suspended') throw new Error('expected the run to pause for approval');
    const continuation = serializeContinuation(paused.continuation);
    const { state, ...neutral } = paused.continuation;
    const sqlite = SqliteSaver.fromConnString(':memory:');
    await graph(steps, false, sqlite).invoke(input, {
      configurable: { thread_id: 'bench' },
      recursionLimit: 10 * steps,
    });
    const stored = sqliteBytes(sqlite);
    const ours = Buffer.byteLength(continuation);
    sizeRows.push({
      steps,
      'continuation (all)': kb(ours),
      'of which neutral': kb(Buffer.byteLength(JSON.stringify(neutral))),
      'of which state': kb(Buffer.byteLength(JSON.stringify(state))),
      'SQLite checkpointer': kb(stored.bytes),
      'SQLite checkpoints': stored.checkpoints,
      ratio: `${(stored.bytes / ours).toFixed(1)}x`,
    });

    const config = { configurable: { thread_id: 'bench' }, recursionLimit: 10 * steps };
    const times = await timedTogether({
      memory: () => graph(steps, true, new MemorySaver()).invoke(input, config),
      sqlite: () => graph(steps, true, SqliteSaver.fromConnString(':memory:')).invoke(input, config),
      adapter: () =>
        fromGraph(graph(steps, true), { name: 'ops', recursionLimit: 10 * steps }).run(
          'Check every host, then restart web-0.',
        ),
    });
    const perStep = (ms: number) => Number((ms / steps).toFixed(2));
    const ratio = (ours: number, theirs: number) => `${(ours / theirs).toFixed(2)}x`;
    timeRows.push({
      steps,
      'LangGraph + MemorySaver (ms/step)': perStep(times.memory.wall),
      'LangGraph + SqliteSaver (ms/step)': perStep(times.sqlite.wall),
      'fromGraph adapter (ms/step)': perStep(times.adapter.wall),
      'adapter / SqliteSaver': ratio(times.adapter.wall, times.sqlite.wall),
      'SqliteSaver CPU (ms/step)': perStep(times.sqlite.cpu),
      'adapter CPU (ms/step)': perStep(times.adapter.cpu),
      'adapter / SqliteSaver CPU': ratio(times.adapter.cpu, times.sqlite.cpu),
    });
  }
  console.log('\nLangGraph: bytes a resumable pause needs after an N-step run (createReactAgent v2)');
  table('LangGraph: bytes of a resumable pause', sizeRows);
  console.log(
    `LangGraph: time per step of a full N-step run, the graph on its own checkpointer and wrapped (best of ${REPEATS}, interleaved)`,
  );
  table('LangGraph: time per step', timeRows);
  console.log(
    '\nLangGraph at every level of a 3-level chain (createAgent > createReactAgent > StateGraph), the leaf waiting',
  );
  table('LangGraph: a chain of three LangGraph levels', [await chainRow()]);
}

/** The chain's size against the sum of its levels' own sizes, and how often the leaf is stored. */
async function chainRow(): Promise<Record<string, unknown>> {
  const result = await mixedChain({}).run('pay bob 50');
  if (result.status !== 'suspended') throw new Error('expected a suspension');
  const text = serializeContinuation(result.continuation);
  const levels: Continuation[] = [];
  for (let level: Continuation | undefined = result.continuation; level; ) {
    levels.push(level);
    const entry: PendingEntry | undefined = level.pending.find((one) => one.kind === 'agent');
    level = entry?.kind === 'agent' ? entry.child : undefined;
  }
  // A level's own bytes: its text less every copy of the level below it (by the copies of its id).
  const own = (level: Continuation, index: number) => {
    const bytes = serializeContinuation(level).length;
    const below = levels[index + 1];
    if (!below) return bytes;
    const copies = occurrencesOf(serializeContinuation(level), below.id);
    return bytes - copies * serializeContinuation(below).length;
  };
  const sum = levels.reduce((total, level, index) => total + own(level, index), 0);
  const leaf = levels[levels.length - 1]!;
  return {
    levels: levels.length,
    bytes: text.length,
    'sum of levels': sum,
    'bytes / sum': (text.length / sum).toFixed(2),
    'leaf stored (times)': occurrencesOf(text, leaf.id),
    goal: '<= 1.1x, each level once',
  };
}

const occurrencesOf = (text: string, part: string) => text.split(part).length - 1;

if (import.meta.url === `file://${process.argv[1]}`) await run();
