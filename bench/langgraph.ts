/**
 * LangGraph: what a resumable pause costs. For an N-step run of one createReactAgent graph that
 * pauses for an approval at step N, the bytes of our continuation (all a resume needs) against the
 * bytes LangGraph's SQLite checkpointer stores for the same run; and the time per step of the
 * graph alone (in-memory and SQLite checkpointers) and wrapped by the adapter.
 */
import { serializeContinuation } from '@agent-continuations/core';
import { fromGraph, requireApproval } from '@agent-continuations/langgraph';
import type { Script } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { z } from 'zod';
import { ScriptedChatModel } from '../packages/adapter-langgraph/test/scripted-chat-model';
import { table } from './report';

const SIZES = [10, 50, 100];
const REPEATS = 3;

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

async function timed(run: () => Promise<unknown>): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < REPEATS; i++) {
    const start = performance.now();
    await run();
    best = Math.min(best, performance.now() - start);
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

    const memory = await timed(() =>
      graph(steps, true, new MemorySaver()).invoke(input, {
        configurable: { thread_id: 'bench' },
        recursionLimit: 10 * steps,
      }),
    );
    const onSqlite = await timed(() =>
      graph(steps, true, SqliteSaver.fromConnString(':memory:')).invoke(input, {
        configurable: { thread_id: 'bench' },
        recursionLimit: 10 * steps,
      }),
    );
    const adapter = await timed(() =>
      fromGraph(graph(steps, true), { name: 'ops', recursionLimit: 10 * steps }).run(
        'Check every host, then restart web-0.',
      ),
    );
    timeRows.push({
      steps,
      'LangGraph + MemorySaver (ms/step)': (memory / steps).toFixed(2),
      'LangGraph + SqliteSaver (ms/step)': (onSqlite / steps).toFixed(2),
      'fromGraph adapter (ms/step)': (adapter / steps).toFixed(2),
    });
  }
  console.log('\nLangGraph: bytes a resumable pause needs after an N-step run (createReactAgent v2)');
  table('LangGraph: bytes of a resumable pause', sizeRows);
  console.log(`LangGraph: time per step of a full N-step run (best of ${REPEATS})`);
  table('LangGraph: time per step', timeRows);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
