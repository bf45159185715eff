/**
 * Cross-framework handoff: how big the handed-over continuation is per source framework (LangGraph
 * adds its checkpoint as `state`), and the median time for each target framework to resume it
 * through one approved call and one model call over the scripted HTTP server, up to the next
 * suspension. Agents are built once per pair; each repeat resumes the same saved continuation.
 *
 * Then the floor under the LangGraph column: the same resume of one createReactAgent graph (an
 * in-process scripted model, no HTTP) through the adapter, against the graph alone resuming the
 * same interrupt from its own checkpoint on the same kind of saver: the private saver against
 * MemorySaver, and thread mode on MemorySaver and on SqliteSaver; wall time and CPU time per resume.
 */
import { type Continuation, parseContinuation, serializeContinuation } from '@agent-continuations/core';
import { fromGraph, requireApproval } from '@agent-continuations/langgraph';
import { startScriptedOpenAIServer } from '@agent-continuations/testing';
import { type StructuredToolInterface, tool } from '@langchain/core/tools';
import { type BaseCheckpointSaver, Command, MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { buildAgent, FRAMEWORKS, type Framework } from '../integration/cross-framework/src/frameworks';
import {
  HANDOFF_INSTRUCTIONS,
  HANDOFF_PROMPT,
  handoffAgent,
  handoffScript,
  transferDecision,
} from '../integration/cross-framework/src/handoff-scenario';
import { suspendInSource } from '../integration/cross-framework/src/handoff-source';
import { ScriptedChatModel } from '../packages/adapter-langgraph/test/scripted-chat-model';
import { type Row, table } from './report';

const REPEATS = 15;
const FLOOR_REPEATS = 40;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const server = await startScriptedOpenAIServer({ scripts: {}, fallback: handoffScript });
  try {
    const saved = new Map<Framework, string>();
    const sizes: Row[] = [];
    for (const from of FRAMEWORKS) {
      const source = await suspendInSource(from, server.baseURL, `bench-source:${from}`);
      saved.set(from, source.continuation);
      const parsed = parseContinuation(source.continuation);
      const state = parsed.state === undefined ? 0 : JSON.stringify(parsed.state).length;
      sizes.push({
        source: from,
        'continuation bytes': source.continuation.length,
        'of which state': state,
        messages: parsed.messages.length,
      });
    }
    table('Cross-framework: handed-over continuation by source', sizes);
    console.log(
      `Median ms to resume into the next suspension (${REPEATS} repeats; rows: source, columns: target)`,
    );
    const matrix: Row[] = [];
    const cpuMatrix: Row[] = [];
    for (const from of FRAMEWORKS) {
      const row: Row = { 'from \\ to': from };
      const cpuRow: Row = { 'from \\ to': from };
      for (const to of FRAMEWORKS) {
        const agent = buildAgent(to, handoffAgent({}, `bench-target:${from}>${to}`), server.baseURL);
        const times: number[] = [];
        let cpu = process.cpuUsage();
        for (let i = 0; i <= REPEATS; i++) {
          if (i === 1) cpu = process.cpuUsage();
          const started = performance.now();
          const result = await agent.resume(saved.get(from)!, transferDecision('call_3_0'));
          if (result.status !== 'suspended') throw new Error(`${from} -> ${to}: ${result.status}`);
          // The first resume warms up the agent (schemas, graph compilation) and is not counted.
          if (i > 0) times.push(performance.now() - started);
        }
        const used = process.cpuUsage(cpu);
        row[to] = Number(median(times).toFixed(1));
        // CPU time of this process (the scripted server's share included): steadier than wall time on a busy machine.
        cpuRow[to] = Number(((used.user + used.system) / 1000 / REPEATS).toFixed(1));
      }
      matrix.push(row);
      cpuMatrix.push(cpuRow);
    }
    table('Cross-framework: median ms to resume a handed-over continuation', matrix);
    table('Cross-framework: CPU ms per resume of a handed-over continuation', cpuMatrix);
  } finally {
    await server.close();
  }
  table('Cross-framework: LangGraph resume, adapter vs the graph alone', await langgraphFloor());
}

/** The handoff tools as LangChain tools, the approval ones wrapped the adapter's way. */
function handoffTools(): StructuredToolInterface[] {
  return handoffAgent({}, 'floor').tools.map((spec) => {
    if (spec.kind !== 'function') throw new Error(`unexpected ${spec.kind} tool`);
    const made = tool(
      async (args: unknown) =>
        spec.execute(args, {
          requestInput: async () => {
            throw new Error('no input in this scenario');
          },
          idempotencyKey: '',
        }),
      { name: spec.name, description: spec.description, schema: spec.parameters },
    ) as unknown as StructuredToolInterface;
    return spec.needsApproval ? requireApproval([made])[0]! : made;
  });
}

function floorGraph(checkpointer?: BaseCheckpointSaver) {
  return createReactAgent({
    llm: new ScriptedChatModel(handoffScript),
    tools: handoffTools(),
    prompt: HANDOFF_INSTRUCTIONS,
    version: 'v2',
    ...(checkpointer ? { checkpointer } : {}),
  });
}

/** Median wall ms and mean CPU ms of `once` over FLOOR_REPEATS runs (after one warm-up). */
async function measure(once: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  await once();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < FLOOR_REPEATS; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  return { wall: median(times), cpu: (used.user + used.system) / 1000 / FLOOR_REPEATS };
}

const approveEdited = { type: 'approve' as const, args: { to: 'bob', amount: 45 } };

/**
 * The adapter's resume of the transfer approval: private, or in thread mode on `checkpointer`
 * (each repeat on a thread of its own, since a thread that moved on refuses an old continuation).
 */
async function adapterResume(checkpointer?: BaseCheckpointSaver) {
  const agent = fromGraph(floorGraph(checkpointer), { name: 'payments' });
  let result = await agent.run(HANDOFF_PROMPT, { configurable: { thread_id: 'floor-run' } });
  let continuation: Continuation | undefined;
  while (result.status === 'suspended') {
    const [action] = result.actions;
    if (action?.toolName === 'transfer') {
      continuation = result.continuation;
      break;
    }
    result = await agent.resume(result.continuation, { [action!.id]: { type: 'approve' } });
  }
  if (!continuation) throw new Error('the adapter run did not reach the transfer approval');
  const text = serializeContinuation(continuation);
  const transferId = listTransfer(continuation);
  let repeat = 0;
  return measure(async () => {
    const thread = { configurable: { thread_id: `floor-${repeat++}` } };
    const resumed = await agent.resume(text, { [transferId]: approveEdited }, thread);
    if (resumed.status !== 'suspended') throw new Error(`adapter: ${resumed.status}`);
  });
}

/** The graph alone: the same turns on `checkpointer`, then the same resume from that checkpoint each time. */
async function aloneResume(checkpointer: BaseCheckpointSaver) {
  const graph = floorGraph(checkpointer);
  const thread = { configurable: { thread_id: 'floor' } };
  await graph.invoke({ messages: [{ role: 'user', content: HANDOFF_PROMPT }] }, thread);
  let waiting: { checkpoint: string; interrupt: string } | undefined;
  for (let round = 0; round < 5 && !waiting; round++) {
    const snapshot = await graph.getState(thread);
    const raised = snapshot.tasks.flatMap((task) => task.interrupts);
    const payload = raised[0]?.value as { toolName?: string } | undefined;
    if (!raised[0]?.id) break;
    if (payload?.toolName === 'transfer') {
      waiting = {
        checkpoint: snapshot.config.configurable!.checkpoint_id as string,
        interrupt: raised[0].id,
      };
      break;
    }
    await graph.invoke(new Command({ resume: { [raised[0].id]: { type: 'approve' } } }), thread);
  }
  if (!waiting) throw new Error('the graph alone did not reach the transfer approval');
  const at = { configurable: { thread_id: 'floor', checkpoint_id: waiting.checkpoint } };
  return measure(async () => {
    await graph.invoke(new Command({ resume: { [waiting.interrupt]: approveEdited } }), at);
  });
}

/** The transfer approval of the handoff, resumed by the adapter (each mode) and by LangGraph alone. */
export async function langgraphFloor(): Promise<Row[]> {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const rows: Row[] = [];
  const pairs: Array<
    [string, () => Promise<{ wall: number; cpu: number }>, () => Promise<{ wall: number; cpu: number }>]
  > = [
    ['private saver vs MemorySaver', () => adapterResume(), () => aloneResume(new MemorySaver())],
    [
      'thread mode, MemorySaver',
      () => adapterResume(new MemorySaver()),
      () => aloneResume(new MemorySaver()),
    ],
    [
      'thread mode, SqliteSaver',
      () => adapterResume(SqliteSaver.fromConnString(':memory:')),
      () => aloneResume(SqliteSaver.fromConnString(':memory:')),
    ],
  ];
  for (const [mode, ours, theirs] of pairs) {
    const adapter = await ours();
    const alone = await theirs();
    for (const [measure, a, b] of [
      ['median ms per resume', adapter.wall, alone.wall],
      ['CPU ms per resume', adapter.cpu, alone.cpu],
    ] as const) {
      rows.push({
        mode,
        measure,
        'fromGraph adapter': Number(a.toFixed(2)),
        'LangGraph alone': Number(b.toFixed(2)),
        ratio: ratio(a, b),
      });
    }
  }
  return rows;
}

function listTransfer(continuation: Continuation): string {
  const entry = continuation.pending.find((one) => one.toolName === 'transfer');
  if (!entry) throw new Error('no pending transfer');
  return entry.toolCallId;
}
