/**
 * Cross-framework handoff: how big the handed-over continuation is per source framework (LangGraph
 * adds its checkpoint as `state`), and the median time for each target framework to resume it
 * through one approved call and one model call over the scripted HTTP server, up to the next
 * suspension. Agents are built once per pair; each repeat resumes the same saved continuation.
 */
import { parseContinuation } from '@agent-continuations/core';
import { startScriptedOpenAIServer } from '@agent-continuations/testing';
import { buildAgent, FRAMEWORKS, type Framework } from '../integration/cross-framework/src/frameworks';
import {
  handoffAgent,
  handoffScript,
  transferDecision,
} from '../integration/cross-framework/src/handoff-scenario';
import { suspendInSource } from '../integration/cross-framework/src/handoff-source';

const REPEATS = 15;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const server = await startScriptedOpenAIServer({ scripts: {}, fallback: handoffScript });
  try {
    const saved = new Map<Framework, string>();
    console.log('| source | continuation bytes | of which state | messages |');
    console.log('|---|---:|---:|---:|');
    for (const from of FRAMEWORKS) {
      const source = await suspendInSource(from, server.baseURL, `bench-source:${from}`);
      saved.set(from, source.continuation);
      const parsed = parseContinuation(source.continuation);
      const state = parsed.state === undefined ? 0 : JSON.stringify(parsed.state).length;
      console.log(`| ${from} | ${source.continuation.length} | ${state} | ${parsed.messages.length} |`);
    }
    console.log(
      `\nMedian ms to resume into the next suspension (${REPEATS} repeats; rows: source, columns: target)\n`,
    );
    console.log(`| from \\ to | ${FRAMEWORKS.join(' | ')} |`);
    console.log(`|---|${FRAMEWORKS.map(() => '---:').join('|')}|`);
    for (const from of FRAMEWORKS) {
      const cells: string[] = [];
      for (const to of FRAMEWORKS) {
        const agent = buildAgent(to, handoffAgent({}, `bench-target:${from}>${to}`), server.baseURL);
        const times: number[] = [];
        for (let i = 0; i <= REPEATS; i++) {
          const started = performance.now();
          const result = await agent.resume(saved.get(from)!, transferDecision('call_3_0'));
          if (result.status !== 'suspended') throw new Error(`${from} -> ${to}: ${result.status}`);
          // The first resume warms up the agent (schemas, graph compilation) and is not counted.
          if (i > 0) times.push(performance.now() - started);
        }
        cells.push(median(times).toFixed(1));
      }
      console.log(`| ${from} | ${cells.join(' | ')} |`);
    }
  } finally {
    await server.close();
  }
}
