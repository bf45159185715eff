/**
 * A call in doubt (a tool that cannot run twice, cut off between its start and its recorded
 * result) shown and decided in the console: its description says so, and "it ran" is an answer.
 */
import {
  createContinuableAgent,
  createMemoryStore,
  defineTool,
  listActions,
  recover,
  runDurably,
} from '@agent-continuations/core';
import { createMemoryCheckpointLog, killableLog, scriptedModel } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { client, echo, formToken, testConsole } from './fixtures';

it('shows a call in doubt as such and takes "it ran" as an answer with its result: the tool does not run again', async () => {
  const wires: number[] = [];
  let die: (() => void) | undefined;
  const wire = defineTool({
    name: 'wire',
    description: 'Wire money',
    parameters: z.object({ amount: z.number() }),
    idempotent: false,
    execute: ({ amount }) => {
      wires.push(amount);
      if (die) {
        die();
        return new Promise<string>(() => {});
      }
      return `wired ${amount}`;
    },
  });
  const model = scriptedModel([
    { toolCalls: [{ name: 'wire', args: { amount: 10 }, id: 'call_wire' }] },
    echo,
  ]);
  const agent = createContinuableAgent({ name: 'treasury', model, tools: [wire] });
  const log = createMemoryCheckpointLog();
  const worker = killableLog(log);
  const died = new Promise<void>((resolve) => {
    die = () => {
      die = undefined;
      worker.kill();
      resolve();
    };
  });
  void runDurably(agent, worker.view, 'Pay the supplier', { runId: 'doubt-1', leaseMs: 30 }).catch(() => {});
  await died;
  while (!(await log.expired()).includes('doubt-1')) await new Promise((resolve) => setTimeout(resolve, 5));
  const store = createMemoryStore();
  const [recovered] = await recover(log, { treasury: agent }, { store });
  expect(recovered?.result?.status).toBe('suspended');
  const id = (await store.list({ status: 'suspended' })).items[0]!.id;
  const stored = await store.load(id);
  expect(listActions(stored!.continuation).map((action) => action.inDoubt)).toEqual([true]);

  const browser = client(testConsole(store, { agents: { treasury: agent } }));
  const page = await browser.get(`/runs/${encodeURIComponent(id)}`);
  expect(page.status).toBe(200);
  expect(page.text).toContain('In doubt: wire started and its result was never recorded');
  expect(page.text).toContain('name="value:call_wire"');
  expect(page.text).not.toContain('Approve with edited arguments');
  const answered = await browser.post(`/runs/${encodeURIComponent(id)}/decide`, {
    csrf: formToken(page.text)!,
    'decision:call_wire': 'input',
    'value:call_wire': '"wired 10, bank ref 77"',
  });
  expect(answered.status).toBe(303);
  expect(wires).toEqual([10]);
  expect(JSON.stringify(model.calls.at(-1)!.messages)).toContain('wired 10, bank ref 77');
});
