import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createMemoryStore,
  createRuntime,
  isContinuationError,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { type BaseCheckpointSaver, Command, MemorySaver } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { continuationFromThread, fromGraph } from '../src';
import { approveAll, type GraphKind, nativeResume, threadApp } from './fixtures/thread-graphs';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Each saver as a fresh process would open it: a new instance over the same data. */
interface SaverKind {
  name: string;
  open(): Promise<BaseCheckpointSaver>;
}

const opened: PostgresSaver[] = [];
const threads: string[] = [];
const memory = new MemorySaver();
const file = join(mkdtempSync(join(tmpdir(), 'lg-threads-')), 'threads.db');

const savers: SaverKind[] = [
  { name: 'MemorySaver', open: async () => memory },
  {
    name: 'SqliteSaver',
    open: async () => {
      return SqliteSaver.fromConnString(file);
    },
  },
  {
    name: 'PostgresSaver',
    open: async () => {
      const saver = PostgresSaver.fromConnString(PG_URL, { schema: 'ac_lg_threads' });
      await saver.setup();
      opened.push(saver);
      return saver;
    },
  },
];

// Each Postgres saver holds a pool: closed after its test, so the suite never holds many connections.
afterEach(async () => {
  for (const saver of opened.splice(0)) await saver.end();
});

afterAll(async () => {
  const cleaner = PostgresSaver.fromConnString(PG_URL, { schema: 'ac_lg_threads' });
  for (const id of threads) await cleaner.deleteThread(id).catch(() => undefined);
  await cleaner.end();
});

function newThread(): string {
  const id = `thread-${crypto.randomUUID()}`;
  threads.push(id);
  return id;
}

const kinds: GraphKind[] = ['react', 'hitl', 'custom'];
/** What the run's side effect counts as, by kind. */
const effect = (kind: GraphKind) => (kind === 'custom' ? 'send' : 'restart');

describe.each(savers)('thread mode on $name', (saverKind) => {
  describe.each(kinds)('%s graph', (kind) => {
    it("suspends on the app's thread, resumes from the continuation elsewhere, writes back to the thread", async () => {
      const thread = newThread();
      const first = threadApp(kind, await saverKind.open());
      const agent = fromGraph(first.graph, { name: 'ops' });
      const result = await agent.run('Restart web-1', { configurable: { thread_id: thread } });
      expect(result.status).toBe('suspended');
      if (result.status !== 'suspended') return;
      expect(first.counts[effect(kind)] ?? 0).toBe(0);

      // The app's own getState shows the waiting run, as LangGraph would have left it.
      const paused = await first.graph.getState({ configurable: { thread_id: thread } });
      expect(paused.next.length).toBeGreaterThan(0);
      expect(paused.tasks.flatMap((task: { interrupts?: unknown[] }) => task.interrupts ?? []).length).toBe(
        1,
      );
      expect((paused.values as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
      const text = serializeContinuation(result.continuation);

      // Another process: a new saver instance over the same data, a new graph and agent.
      const second = threadApp(kind, await saverKind.open());
      const done = await fromGraph(second.graph, { name: 'ops' }).resume(
        parseContinuation(text),
        approveAll(
          kind,
          result.actions.map((action) => action.id),
        ),
      );
      expect(done.status).toBe('completed');
      expect(second.counts[effect(kind)]).toBe(1);
      // The tool (or node) saw the app's thread id, not one of the adapter's.
      expect(second.threads).toEqual([thread]);

      const after = await second.graph.getState({ configurable: { thread_id: thread } });
      expect(after.next).toEqual([]);
      const messages = (after.values as { messages: Array<{ content: unknown }> }).messages;
      expect(JSON.stringify(messages.at(-1)!.content)).toMatch(kind === 'custom' ? /sent/ : /done/);
      // Every step is in the thread's history, as with LangGraph's default durability.
      const history = [];
      for await (const snapshot of second.graph.getStateHistory({ configurable: { thread_id: thread } }))
        history.push(snapshot);
      expect(history.length).toBeGreaterThanOrEqual(4);

      // Resuming the same continuation again would run the call twice: refused, nothing runs.
      const third = threadApp(kind, await saverKind.open());
      const replay = await fromGraph(third.graph, { name: 'ops' })
        .resume(
          text,
          approveAll(
            kind,
            result.actions.map((action) => action.id),
          ),
        )
        .catch((error: unknown) => error);
      expect(isContinuationError(replay, 'STATE_MISMATCH')).toBe(true);
      expect(third.counts[effect(kind)] ?? 0).toBe(0);
    });

    it('a native Command resume on the thread works, and the continuation is then refused loudly', async () => {
      const thread = newThread();
      const app = threadApp(kind, await saverKind.open());
      const agent = fromGraph(app.graph, { name: 'ops' });
      const runtime = createRuntime({ agents: [agent], store: createMemoryStore() });
      const result = await agent.run('Restart web-1', { configurable: { thread_id: thread } });
      if (result.status !== 'suspended') throw new Error('expected a suspension');
      await runtime.store.save(result.continuation);
      expect((await runtime.inbox()).items).toHaveLength(1);

      await app.graph.invoke(new Command({ resume: nativeResume(kind) }), {
        configurable: { thread_id: thread },
      });
      expect(app.counts[effect(kind)]).toBe(1);
      const after = await app.graph.getState({ configurable: { thread_id: thread } });
      expect(after.next).toEqual([]);

      const late = await agent
        .resume(
          result.continuation,
          approveAll(
            kind,
            result.actions.map((action) => action.id),
          ),
        )
        .catch((error: unknown) => error);
      expect(isContinuationError(late, 'STATE_MISMATCH')).toBe(true);
      expect((late as Error).message).toContain('moved on');
      expect(app.counts[effect(kind)]).toBe(1);
      // No phantom approval: the stored record offers nothing once the thread went on natively.
      expect(await agent.movedOn?.(result.continuation)).toBe(true);
      expect((await runtime.inbox()).items).toEqual([]);
      expect((await runtime.get(result.continuation.id))?.actions).toEqual([]);
      const stored = await runtime
        .resume(
          result.continuation.id,
          approveAll(
            kind,
            result.actions.map((action) => action.id),
          ),
        )
        .catch((error: unknown) => error);
      expect(isContinuationError(stored, 'STATE_MISMATCH')).toBe(true);
      expect(app.counts[effect(kind)]).toBe(1);
    });

    it('imports a thread paused natively, before adoption, and resumes it once in another process', async () => {
      const thread = newThread();
      const native = threadApp(kind, await saverKind.open());
      await native.graph.invoke({ messages: [{ role: 'user', content: 'Restart web-1' }] } as never, {
        configurable: { thread_id: thread },
      });
      const waiting = await native.graph.getState({ configurable: { thread_id: thread } });
      expect(waiting.next.length).toBeGreaterThan(0);

      const adopted = threadApp(kind, await saverKind.open());
      const imported = await continuationFromThread(fromGraph(adopted.graph, { name: 'ops' }), thread);
      expect(imported.actions.length).toBe(1);
      expect(imported.actions[0]!.kind).toBe(kind === 'custom' ? 'input' : 'approval');
      expect(adopted.counts[effect(kind)] ?? 0).toBe(0);
      const text = serializeContinuation(imported.continuation);

      const later = threadApp(kind, await saverKind.open());
      const done = await fromGraph(later.graph, { name: 'ops' }).resume(
        text,
        approveAll(
          kind,
          imported.actions.map((action) => action.id),
        ),
      );
      expect(done.status).toBe('completed');
      expect(later.counts[effect(kind)]).toBe(1);
      expect(later.threads).toEqual([thread]);
      const after = await later.graph.getState({ configurable: { thread_id: thread } });
      expect(after.next).toEqual([]);
    });
  });
});

describe.each(kinds)('thread mode across processes, %s graph', (kind) => {
  it('a new Node process resumes the continuation on the SQLite thread, and the thread shows it', async () => {
    const thread = newThread();
    const database = join(mkdtempSync(join(tmpdir(), 'lg-thread-process-')), 'threads.db');
    const first = threadApp(kind, SqliteSaver.fromConnString(database));
    const result = await fromGraph(first.graph, { name: 'ops' }).run('Restart web-1', {
      configurable: { thread_id: thread },
    });
    if (result.status !== 'suspended') throw new Error('expected a suspension');
    const file = join(mkdtempSync(join(tmpdir(), 'lg-thread-continuation-')), 'continuation.json');
    writeFileSync(file, serializeContinuation(result.continuation));
    const script = fileURLToPath(new URL('./fixtures/resume-thread-in-child.ts', import.meta.url));
    const decisions = approveAll(
      kind,
      result.actions.map((action) => action.id),
    );
    const child = spawnSync(
      process.execPath,
      [
        '--conditions=@agent-continuations/source',
        '--import',
        'tsx',
        script,
        kind,
        database,
        file,
        JSON.stringify(decisions),
      ],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) },
    );
    expect(child.stderr).toBe('');
    const outcome = JSON.parse(child.stdout) as {
      status: string;
      counts: Record<string, number>;
      threads: string[];
      next: string[];
    };
    expect(outcome).toEqual({
      status: 'completed',
      counts: { [effect(kind)]: 1 },
      threads: [thread],
      next: [],
    });
    expect(first.counts[effect(kind)] ?? 0).toBe(0);
    // This process's app reads the thread the other process finished.
    const after = await threadApp(kind, SqliteSaver.fromConnString(database)).graph.getState({
      configurable: { thread_id: thread },
    });
    expect(after.next).toEqual([]);
  });
});

describe('thread mode, edges', () => {
  it('an imported thread is kept and resumed through a runtime: once, and a second resume runs nothing', async () => {
    const thread = newThread();
    const dir = mkdtempSync(join(tmpdir(), 'lg-thread-runtime-'));
    const database = join(dir, 'threads.db');
    const records = join(dir, 'continuations.db');
    const native = threadApp('hitl', SqliteSaver.fromConnString(database));
    await native.graph.invoke({ messages: [{ role: 'user', content: 'Restart web-1' }] } as never, {
      configurable: { thread_id: thread },
    });
    // The process that adopts the waiting thread keeps its continuation in the runtime's store.
    const adopting = fromGraph(threadApp('hitl', SqliteSaver.fromConnString(database)).graph, {
      name: 'ops',
    });
    const imported = await continuationFromThread(adopting, thread);
    const first = createRuntime({
      agents: [adopting],
      store: createSqliteStore({ path: records }),
    });
    await first.store.save(imported.continuation);
    expect((await first.inbox()).items.map((item) => item.action.toolName)).toEqual(['restart']);

    // Another runtime over the same files: the person's approval resumes the thread once.
    const later = threadApp('hitl', SqliteSaver.fromConnString(database));
    const second = createRuntime({
      agents: [fromGraph(later.graph, { name: 'ops' })],
      store: createSqliteStore({ path: records }),
    });
    const decisions = approveAll(
      'hitl',
      imported.actions.map((action) => action.id),
    );
    const done = await second.resume(imported.continuation.id, decisions);
    expect(done.status).toBe('completed');
    expect(later.counts.restart).toBe(1);
    const again = await second.resume(imported.continuation.id, decisions).catch((error: unknown) => error);
    expect(isContinuationError(again, 'CLAIM_CONFLICT')).toBe(true);
    expect(later.counts.restart).toBe(1);
    const after = await later.graph.getState({ configurable: { thread_id: thread } });
    expect(after.next).toEqual([]);
  });

  it('imports a thread paused with parallel interrupts: one action each, every call once', async () => {
    const thread = newThread();
    const saver = new MemorySaver();
    const native = threadApp('hitl', saver, ['web-1', 'web-2']);
    await native.graph.invoke({ messages: [{ role: 'user', content: 'Restart the web tier' }] } as never, {
      configurable: { thread_id: thread },
    });
    const adopted = threadApp('hitl', saver, ['web-1', 'web-2']);
    const imported = await continuationFromThread(fromGraph(adopted.graph, { name: 'ops' }), thread);
    expect(imported.actions.map((action) => [action.toolName, action.args])).toEqual([
      ['restart', { host: 'web-1' }],
      ['restart', { host: 'web-2' }],
    ]);
    const done = await fromGraph(adopted.graph, { name: 'ops' }).resume(
      imported.continuation,
      approveAll(
        'hitl',
        imported.actions.map((action) => action.id),
      ),
    );
    expect(done.status).toBe('completed');
    expect(adopted.counts.restart).toBe(2);
  });

  it('a second turn on the thread goes on from its conversation', async () => {
    const thread = newThread();
    const saver = new MemorySaver();
    const app = threadApp('custom', saver);
    const agent = fromGraph(app.graph, { name: 'ops' });
    const first = await agent.run('Plan tonight', { configurable: { thread_id: thread } });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    await agent.resume(first.continuation, approveAll('custom', [first.actions[0]!.id]));
    const second = await agent.run('And tomorrow?', { configurable: { thread_id: thread } });
    if (second.status !== 'suspended') throw new Error('expected a suspension');
    const contents = second.continuation.messages.map((message) =>
      typeof message.content === 'string' ? message.content : '',
    );
    expect(contents[0]).toBe('Plan tonight');
    expect(contents).toContain('And tomorrow?');
  });

  it('without a thread id a run gets a thread of its own, never a shared one', async () => {
    const saver = new MemorySaver();
    const app = threadApp('custom', saver);
    const agent = fromGraph(app.graph, { name: 'ops' });
    const a = await agent.run('one');
    const b = await agent.run('two');
    if (a.status !== 'suspended' || b.status !== 'suspended') throw new Error('expected suspensions');
    await agent.resume(a.continuation, approveAll('custom', [a.actions[0]!.id]));
    await agent.resume(b.continuation, approveAll('custom', [b.actions[0]!.id]));
    expect(app.threads).toEqual([a.continuation.runId, b.continuation.runId]);
  });

  it('checkpointer: false keeps the private saver: the app thread holds nothing', async () => {
    const thread = newThread();
    const saver = new MemorySaver();
    const app = threadApp('custom', saver);
    const result = await fromGraph(app.graph, { name: 'ops', checkpointer: false }).run('Plan', {
      configurable: { thread_id: thread },
    });
    expect(result.status).toBe('suspended');
    expect(await saver.getTuple({ configurable: { thread_id: thread } })).toBeUndefined();
  });

  it('a thread that is not paused, or unknown, is refused', async () => {
    const saver = new MemorySaver();
    const app = threadApp('custom', saver);
    const agent = fromGraph(app.graph, { name: 'ops' });
    const unknown = await continuationFromThread(agent, 'nope').catch((error: unknown) => error);
    expect(isContinuationError(unknown, 'NOT_FOUND')).toBe(true);
    const thread = newThread();
    const first = await agent.run('Plan', { configurable: { thread_id: thread } });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    await agent.resume(first.continuation, approveAll('custom', [first.actions[0]!.id]));
    const finished = await continuationFromThread(agent, thread).catch((error: unknown) => error);
    expect(isContinuationError(finished, 'INVALID_OPERATION')).toBe(true);
  });
});
