/**
 * The command line against one store kind, as a subprocess: every command, JSON output parsed,
 * exit codes, tool execution counts. Each store's test file hands it URLs of its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ContinuableAgent,
  type Continuation,
  createRuntime,
  sealContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src';
import { AGENTS, type CliWorkspace, cliWorkspace } from './cli-harness';
import { batch, helpdesk, hr, refunds } from './fixtures/agents';

/** A store kind under test: URLs of stores of its own, removed by `cleanup`. */
export interface CliBackend {
  /** A URL of a fresh store; `name` tells stores of one test file apart. */
  url(name: string): string;
  cleanup(): Promise<void>;
}

const SALARY = 'hr_1/payroll_1/salary_1';
const LETTER = 'hr_1/payroll_1/letter_1';
const SECRET = 'cli-test-seal-secret';
/** Subprocesses are slow on a loaded machine; nothing here asserts a duration. */
const SLOW = 240_000;

export function cliSuite(kind: string, backend: CliBackend): void {
  describe(`agent-continuations on ${kind}`, () => {
    let ws: CliWorkspace;
    const url = backend.url('main');

    /** Run `agent` in this process and save its suspension in the store at `at`. */
    const seed = async (
      agent: ContinuableAgent<string, string>,
      input: string,
      options: { at?: string; seal?: boolean } = {},
    ): Promise<Continuation> => {
      const result = await agent.run(input);
      if (result.status !== 'suspended') throw new Error(`expected ${agent.name} to suspend`);
      const continuation = options.seal
        ? await sealContinuation(result.continuation, { secret: SECRET, keyId: 'k1' })
        : result.continuation;
      const { store, close } = await openStore(options.at ?? url);
      await store.save(continuation);
      await close();
      return continuation;
    };
    const status = async (id: string, at = url) => {
      const { store, close } = await openStore(at);
      const stored = await store.load(id);
      await close();
      return stored?.status;
    };
    const cli = (args: string[], env?: Record<string, string>) => ws.cli([...args, '--store', url], { env });

    beforeAll(() => {
      ws = cliWorkspace();
    });
    afterAll(async () => {
      ws.dispose();
      await backend.cleanup();
    });

    it(
      'lists pending continuations with their actions, filtered by agent and paged by cursor',
      async () => {
        const nested = await seed(hr, 'Raise Ann Example');
        const asking = await seed(helpdesk, 'Can Ann work from home?');
        await seed(batch, 'Crunch the rows');

        const all = await cli(['list', '--json']);
        expect(all.code).toBe(0);
        const ids = all.json.items.map((item: { id: string }) => item.id);
        expect(ids).toContain(nested.id);
        const item = all.json.items.find((each: { id: string }) => each.id === nested.id);
        expect(item).toMatchObject({ status: 'suspended', agentName: 'hr', runId: nested.runId });
        expect(item.actions).toEqual([
          expect.objectContaining({
            id: SALARY,
            kind: 'approval',
            toolName: 'update_salary',
            args: { employee: 'Ann Example', salary: 120_000 },
          }),
        ]);
        expect(item.actions[0].path.map((segment: { agent: string }) => segment.agent)).toEqual([
          'hr',
          'payroll',
          'salary',
        ]);

        const [byAgent, first, text, badStatus] = await Promise.all([
          cli(['list', '--agent', 'helpdesk', '--json']),
          cli(['list', '--limit', '1', '--json']),
          cli(['list', '--agent', 'hr']),
          cli(['list', '--status', 'pending']),
        ]);
        expect(byAgent.json.items.map((each: { id: string }) => each.id)).toEqual([asking.id]);
        expect(byAgent.json.items[0].actions[0]).toMatchObject({ kind: 'input', id: 'ask_1' });
        expect(first.json.items).toHaveLength(1);
        expect(first.json.cursor).toEqual(expect.any(String));
        const second = await cli(['list', '--limit', '1', '--cursor', first.json.cursor, '--json']);
        expect(second.code).toBe(0);
        expect(second.json.items[0].id).not.toBe(first.json.items[0].id);
        expect(text.stdout).toContain(nested.id);
        expect(text.stdout).toContain(`approval ${SALARY}  hr > payroll > salary > update_salary`);
        expect(badStatus.code).toBe(2);
        expect(badStatus.stderr).toContain('--status "pending" is not one of');

        // --newest-first: the same records in reverse, paged backwards by the cursor.
        const newest = await cli(['list', '--newest-first', '--json']);
        expect(newest.code).toBe(0);
        expect(newest.json.items.map((each: { id: string }) => each.id)).toEqual([...ids].reverse());
        const top = await cli(['list', '--newest-first', '--limit', '1']);
        expect(top.code).toBe(0);
        const hint = /More: add (--cursor \S+ --newest-first)/.exec(top.stdout);
        expect(hint).not.toBeNull();
        const below = await cli(['list', '--limit', '1', ...hint![1]!.split(' '), '--json']);
        expect(below.code).toBe(0);
        expect(below.json.items.map((each: { id: string }) => each.id)).toEqual([[...ids].reverse()[1]]);
      },
      SLOW,
    );

    it(
      'shows the chain of agents down to the action, with the arguments at each level',
      async () => {
        const nested = await seed(hr, 'Raise Ann Example');
        const [shown, text, missing] = await Promise.all([
          cli(['show', nested.id, '--json']),
          cli(['show', nested.id]),
          cli(['show', 'no-such-id', '--json']),
        ]);
        expect(shown.code).toBe(0);
        expect(shown.json).toMatchObject({ id: nested.id, status: 'suspended', agent: { name: 'hr' } });
        const level1 = shown.json.tree.pending[0];
        expect(level1).toMatchObject({ kind: 'agent', toolName: 'payroll', toolCallId: 'hr_1' });
        expect(level1.args).toEqual({ input: 'Raise Ann Example to 120k' });
        const level2 = level1.child.pending[0];
        expect(level1.child.agent).toBe('payroll');
        expect(level2).toMatchObject({ kind: 'agent', toolName: 'salary', toolCallId: 'payroll_1' });
        expect(level2.child.pending[0]).toMatchObject({
          kind: 'approval',
          toolName: 'update_salary',
          actionId: SALARY,
          args: { employee: 'Ann Example', salary: 120_000 },
        });
        expect(shown.json.decisions).toEqual([]);
        expect(text.stdout).toContain('update_salary {"employee":"Ann Example","salary":120000}');
        expect(text.stdout).toContain(`action id: ${SALARY}`);
        expect(text.stdout).toContain('(no decisions yet)');
        expect(missing.code).toBe(1);
        expect(missing.json.error).toMatchObject({ code: 'NOT_FOUND' });
        expect(missing.stderr).toContain('error NOT_FOUND: No continuation "no-such-id"');
      },
      SLOW,
    );

    it(
      'approves a depth-3 action with edited arguments and --by: the tool runs once, a second approve is refused',
      async () => {
        const nested = await seed(hr, 'Raise Ann Example');
        const [noAgents, badAction, badJson, badId] = await Promise.all([
          cli(['approve', nested.id, SALARY]),
          cli(['approve', nested.id, 'hr_1/nope', '--agents', AGENTS, '--json']),
          cli(['approve', nested.id, SALARY, '--agents', AGENTS, '--args', '{salary:1}']),
          cli(['approve', 'no-such-id', SALARY, '--agents', AGENTS, '--json']),
        ]);
        expect(noAgents.code).toBe(2);
        expect(noAgents.stderr).toContain('approve needs --agents FILE');
        expect(noAgents.stderr).toContain('nothing was changed');
        expect(badAction.code).toBe(1);
        expect(badAction.json.error.code).toBe('UNKNOWN_ACTION');
        expect(badAction.json.error.message).toContain(`pending: ${SALARY}`);
        expect(badJson.code).toBe(2);
        expect(badJson.stderr).toContain('--args is not JSON');
        expect(badId.code).toBe(1);
        expect(badId.json.error.code).toBe('NOT_FOUND');
        expect(ws.runs().update_salary ?? 0).toBe(0);
        expect(await status(nested.id)).toBe('suspended');

        const edited = { employee: 'Ann Example', salary: 125_000 };
        const approved = await cli([
          'approve',
          nested.id,
          SALARY,
          '--agents',
          AGENTS,
          '--args',
          JSON.stringify(edited),
          '--by',
          'ann@example.com',
          '--reason',
          'budget approved',
          '--json',
        ]);
        // Nothing on stderr but the Redis store's warning about a server that keeps nothing on disk.
        expect(approved.stderr.replace(/^agent-continuations: the Redis store.*\n?/gm, '')).toBe('');
        expect(approved.code).toBe(0);
        expect(approved.json).toMatchObject({ status: 'suspended', id: nested.id });
        expect(approved.json.actions.map((action: { id: string }) => action.id)).toEqual([LETTER]);
        expect(ws.runs().update_salary).toBe(1);
        expect(ws.argsOf('update_salary')).toEqual([edited]);

        const again = await cli(['approve', nested.id, SALARY, '--agents', AGENTS, '--json']);
        expect(again.code).toBe(1);
        expect(again.json.error.code).toBe('CLAIM_CONFLICT');
        expect(ws.runs().update_salary).toBe(1);
        // The store says who resumed the decided continuation: the person given with --by.
        const decidedRecord = await cli(['show', nested.id, '--json']);
        expect(decidedRecord.json).toMatchObject({ resumedBy: 'ann@example.com' });
        // The decided record shows what was decided on it, from the run's next continuation.
        expect(decidedRecord.json.decided).toMatchObject([
          { actionId: SALARY, type: 'approve', by: 'ann@example.com', editedArgs: edited },
        ]);
        const decidedText = (await cli(['show', nested.id])).stdout;
        expect(decidedText).not.toContain('(no decisions yet)');
        expect(decidedText).toContain(`approve ${SALARY} (update_salary) by ann@example.com`);

        // The audit trail of the next continuation holds who approved, and the edit.
        const next = approved.json.next as string;
        const [shown, text, badArgs] = await Promise.all([
          cli(['show', next, '--json']),
          cli(['show', next]),
          cli([
            'approve',
            next,
            LETTER,
            '--agents',
            AGENTS,
            '--args',
            '{"employee":"Ann Example"}',
            '--json',
          ]),
        ]);
        const audit = shown.json.decisions.find((entry: { type: string }) => entry.type === 'approve');
        expect(audit).toMatchObject({
          actionId: SALARY,
          toolName: 'update_salary',
          by: 'ann@example.com',
          reason: 'budget approved',
          args: { employee: 'Ann Example', salary: 120_000 },
          editedArgs: edited,
        });
        expect(text.stdout).toContain(
          `approve ${SALARY} (update_salary) by ann@example.com: budget approved`,
        );
        expect(text.stdout).toContain('"salary":120000} -> {"employee":"Ann Example","salary":125000}');
        expect(text.stdout).toContain(`${nested.id}  completed`);
        // Edited arguments that fail the tool's schema: refused, and the record stays pending.
        expect(badArgs.code).toBe(1);
        expect(badArgs.json.error.code).toBe('INVALID_ARGS');
        expect(await status(next)).toBe('suspended');
        expect(ws.runs().send_letter ?? 0).toBe(0);
      },
      SLOW,
    );

    it(
      'two approves of one action at once: one runs the tool, the other is refused with CLAIM_CONFLICT',
      async () => {
        const nested = await seed(hr, 'Raise Ann Example');
        const before = ws.runs().update_salary ?? 0;
        const both = await Promise.all(
          ['ann', 'bob'].map((by) =>
            cli(['approve', nested.id, SALARY, '--agents', AGENTS, '--by', by, '--json']),
          ),
        );
        expect(both.map((run) => run.code).sort()).toEqual([0, 1]);
        const loser = both.find((run) => run.code === 1)!;
        expect(loser.json.error.code).toBe('CLAIM_CONFLICT');
        expect(ws.runs().update_salary).toBe(before + 1);
        // The audit trail names the one who won.
        const winner = both.find((run) => run.code === 0)!;
        const by = winner.json.decisions.find((entry: { actionId: string }) => entry.actionId === SALARY).by;
        expect(by === 'ann' || by === 'bob').toBe(true);
        expect(loser.json.error.message).toContain(nested.id);
      },
      SLOW,
    );

    it(
      'rejects with a reason: the model is told, the tool never runs, and the run completes',
      async () => {
        const nested = await seed(hr, 'Raise Ann Example');
        const before = ws.runs();
        const first = await cli([
          'reject',
          nested.id,
          SALARY,
          '--agents',
          AGENTS,
          '--reason',
          'over budget',
          '--by',
          'bob',
          '--json',
        ]);
        expect(first.code).toBe(0);
        expect(first.json.status).toBe('suspended');
        expect(first.json.decisions).toContainEqual(
          expect.objectContaining({ type: 'reject', actionId: SALARY, by: 'bob', reason: 'over budget' }),
        );
        // The salary agent's model read the rejection with its reason (in the next continuation's transcript).
        const exported = await cli(['export', first.json.next]);
        expect(exported.stdout).toContain('over budget');
        const done = await cli([
          'reject',
          first.json.next,
          LETTER,
          '--agents',
          AGENTS,
          '--reason',
          'no letters on Sundays',
          '--json',
        ]);
        expect(done.code).toBe(0);
        expect(done.json.status).toBe('completed');
        expect(done.json.output).toMatch(/^hr: /);
        expect(done.json.output).toContain('no letters on Sundays');
        expect(ws.runs()).toEqual(before);
      },
      SLOW,
    );

    it(
      'cancel ends the whole run: every action rejected with the reason, nothing runs, list shows it cancelled',
      async () => {
        const nested = await seed(hr, 'Raise Ann Example');
        const before = ws.runs();
        const done = await cli(['cancel', nested.id, '--reason', 'sent twice', '--by', 'bob', '--json']);
        expect(done.code).toBe(0);
        expect(done.json).toMatchObject({ status: 'cancelled', by: 'bob', reason: 'sent twice' });
        expect(done.json.rejected.map((entry: { actionId: string }) => entry.actionId)).toEqual([SALARY]);
        expect(ws.runs()).toEqual(before);
        expect(await status(nested.id)).toBe('cancelled');
        const listed = await cli(['list', '--status', 'cancelled']);
        expect(listed.stdout).toContain(nested.id);
        expect(listed.stdout).toContain('cancelled by bob');
        expect(listed.stdout).toContain('reason: sent twice');
        const again = await cli(['cancel', nested.id, '--json']);
        expect(again.code).toBe(1);
        expect(again.json.error.code).toBe('CLAIM_CONFLICT');
        const approve = await cli(['approve', nested.id, SALARY, '--agents', AGENTS, '--json']);
        expect(approve.code).toBe(1);
        expect(ws.runs()).toEqual(before);
      },
      SLOW,
    );

    it(
      'a call in doubt is listed as such, and `answer` gives it the result it had: its tool does not run',
      async () => {
        const result = await hr.run('Raise Ann Example');
        if (result.status !== 'suspended') throw new Error('expected hr to suspend');
        // As recovery leaves it when update_salary (were it idempotent: false) was cut off mid-run.
        const doubtful = structuredClone(result.continuation);
        doubtful.id = `${doubtful.id}-doubt`;
        const leaf = (doubtful.pending[0] as any).child.pending[0].child.pending[0];
        Object.assign(leaf, {
          inDoubt: true,
          description: 'In doubt: update_salary started and its result was never recorded.',
          allowedDecisions: ['approve', 'input', 'reject'],
        });
        const { store, close } = await openStore(url);
        await store.save(doubtful);
        await close();
        const before = ws.runs().update_salary ?? 0;
        const listed = await cli(['list', '--agent', 'hr', '--newest-first']);
        expect(listed.stdout).toContain(
          `approval (in doubt: approve runs it again, answer gives its result) ${SALARY}`,
        );
        const answered = await cli([
          'answer',
          doubtful.id,
          SALARY,
          '--agents',
          AGENTS,
          '--value',
          '"salary already set to 120000"',
          '--by',
          'dana',
          '--json',
        ]);
        expect(answered.code).toBe(0);
        // The salary is settled by the answer; the run goes on to the letter's approval.
        expect(answered.json).toMatchObject({ status: 'suspended', id: doubtful.id });
        expect(answered.json.actions.map((action: { id: string }) => action.id)).toEqual([LETTER]);
        const shown = await cli(['show', doubtful.id, '--json']);
        expect(shown.json.decided).toContainEqual(
          expect.objectContaining({
            type: 'input',
            actionId: SALARY,
            by: 'dana',
            value: 'salary already set to 120000',
          }),
        );
        expect(ws.runs().update_salary ?? 0).toBe(before);
      },
      SLOW,
    );

    it(
      'answers an input request; a wrong answer or decision kind is refused and changes nothing',
      async () => {
        const asking = await seed(helpdesk, 'Can Ann work from home?');
        const [wrong, noValue, asApproval] = await Promise.all([
          cli(['answer', asking.id, 'ask_1', '--agents', AGENTS, '--value', '{"allowed":"yes"}', '--json']),
          cli(['answer', asking.id, 'ask_1', '--agents', AGENTS]),
          cli(['approve', asking.id, 'ask_1', '--agents', AGENTS, '--json']),
        ]);
        expect(wrong.code).toBe(1);
        expect(wrong.json.error.code).toBe('INVALID_INPUT');
        expect(noValue.code).toBe(2);
        expect(noValue.stderr).toContain('answer needs --value JSON');
        expect(asApproval.code).toBe(1);
        expect(asApproval.json.error.code).toBe('WRONG_DECISION_KIND');
        expect(await status(asking.id)).toBe('suspended');

        const answered = await cli([
          'answer',
          asking.id,
          'ask_1',
          '--agents',
          AGENTS,
          '--value',
          '{"allowed":true,"note":"Fridays"}',
          '--by',
          'carol',
          '--json',
        ]);
        expect(answered.code).toBe(0);
        expect(answered.json).toMatchObject({
          status: 'completed',
          output: 'helpdesk: {"allowed":true,"note":"Fridays"}',
        });
        expect(answered.json.decisions).toContainEqual(
          expect.objectContaining({
            type: 'input',
            actionId: 'ask_1',
            by: 'carol',
            value: { allowed: true, note: 'Fridays' },
          }),
        );
        expect(await status(asking.id)).toBe('completed');
      },
      SLOW,
    );

    it(
      'resumes a run suspended by a predicate, with no decisions; refuses one that waits for decisions',
      async () => {
        const stopped = await seed(batch, 'Crunch the rows');
        const nested = await seed(hr, 'Raise Ann Example');
        const crunched = ws.runs().crunch;
        const [waiting, noAgents] = await Promise.all([
          cli(['resume', nested.id, '--agents', AGENTS, '--json']),
          cli(['resume', stopped.id]),
        ]);
        expect(waiting.code).toBe(1);
        expect(waiting.json.error.code).toBe('INVALID_OPERATION');
        expect(waiting.json.error.message).toContain(SALARY);
        expect(noAgents.code).toBe(2);

        const resumed = await cli(['resume', stopped.id, '--agents', AGENTS, '--json']);
        expect(resumed.code).toBe(0);
        expect(resumed.json).toMatchObject({ status: 'completed', output: 'batch: {"crunched":3}' });
        // The tool ran before the suspension and not again.
        expect(ws.runs().crunch).toBe(crunched);
        const twice = await cli(['resume', stopped.id, '--agents', AGENTS, '--json']);
        expect(twice.code).toBe(1);
        expect(twice.json.error.code).toBe('CLAIM_CONFLICT');
      },
      SLOW,
    );

    it(
      'after a model failure, prints where the last good state is saved; resume goes on from it, running nothing twice',
      async () => {
        const waiting = await seed(refunds, 'Refund order A-1');
        const failed = await cli(
          ['approve', waiting.id, 'refund_1', '--agents', AGENTS, '--by', 'dan', '--json'],
          {
            CLI_TEST_MODEL_DOWN: '1',
          },
        );
        expect(failed.code).toBe(1);
        expect(failed.json.error).toMatchObject({ code: 'MODEL_ERROR', saved: expect.any(String) });
        expect(failed.json.error.message).toContain('model unavailable (503)');
        expect(failed.stderr).toContain(`go on with \`resume ${failed.json.error.saved}\``);
        expect(ws.runs().refund).toBe(1);

        const resumed = await cli(['resume', failed.json.error.saved, '--agents', AGENTS, '--json']);
        expect(resumed.code).toBe(0);
        expect(resumed.json).toMatchObject({ status: 'completed', output: 'refunds: {"refunded":30}' });
        expect(resumed.json.decisions).toContainEqual(
          expect.objectContaining({ actionId: 'refund_1', by: 'dan' }),
        );
        expect(ws.runs().refund).toBe(1);
      },
      SLOW,
    );

    it(
      "with --log, approve goes through the run's checkpoint log and show tells the decision, the result and the final answer",
      async () => {
        if (kind === 'Redis') {
          const refused = await cli(['show', 'any', '--log']);
          expect(refused.code).toBe(2);
          expect(refused.stderr).toContain('a Redis store has no checkpoint log');
          return;
        }
        // The app's side: a runtime with the log in the store's database starts the run.
        const opened = await openStore(url, process.cwd(), { log: true });
        const runtime = createRuntime({ agents: [refunds], store: opened.store, log: opened.log! });
        const started = await runtime.start('refunds', 'Refund order A-1');
        await opened.close();
        if (started.status !== 'suspended') throw new Error('expected the refund to wait for approval');
        const id = started.continuation.id;
        const before = ws.runs().refund ?? 0;

        const approved = await cli([
          'approve',
          id,
          'refund_1',
          '--agents',
          AGENTS,
          '--by',
          'ann',
          '--log',
          '--json',
        ]);
        expect(approved.code).toBe(0);
        expect(approved.json).toMatchObject({ status: 'completed', output: 'refunds: {"refunded":30}' });
        expect(ws.runs().refund).toBe(before + 1);

        const shown = await cli(['show', id, '--log', '--json']);
        expect(shown.code).toBe(0);
        expect(shown.json.decided).toEqual([
          expect.objectContaining({ actionId: 'refund_1', type: 'approve', by: 'ann' }),
        ]);
        expect(shown.json.results).toEqual([
          { callId: 'refund_1', toolName: 'refund', output: { refunded: 30 } },
        ]);
        expect(shown.json.output).toBe('refunds: {"refunded":30}');
        const text = (await cli(['show', id, '--log'])).stdout;
        expect(text).toMatch(/approve refund_1 \(refund\) by ann/);
        expect(text).toContain('refund_1 (refund): {"refunded":30}');
        expect(text).toContain('final answer:\n  refunds: {"refunded":30}');
        // Without the log, the store alone keeps no more of a run that completed, and says so.
        const bare = (await cli(['show', id])).stdout;
        expect(bare).toContain('final answer: not kept');
        expect(ws.runs().refund).toBe(before + 1);
      },
      SLOW,
    );

    it(
      'exports, verifies the seal of, validates and imports continuations',
      async () => {
        const other = backend.url('imported');
        const sealed = await seed(hr, 'Raise Ann Example', { seal: true });
        const plain = await seed(hr, 'Raise Ann Example');
        const file = join(ws.dir, `${sealed.id}.json`);
        const tampered = join(ws.dir, 'tampered.json');

        const [exported, toStdout] = await Promise.all([
          cli(['export', sealed.id, '--out', file, '--json']),
          cli(['export', sealed.id]),
        ]);
        expect(exported.code).toBe(0);
        expect(exported.json).toMatchObject({ ok: true, id: sealed.id, out: file });
        const text = readFileSync(file, 'utf8').trim();
        expect(text).toBe(serializeContinuation(sealed));
        expect(toStdout.stdout.trim()).toBe(text);
        writeFileSync(tampered, text.replace('"salary":120000', '"salary":990000'));

        const env = { SEAL_SECRET: SECRET, OLD_SECRET: 'retired', EMPTY: '' };
        const [byId, byFile, altered, unsealed, noSecret, valid] = await Promise.all([
          cli(['verify', sealed.id, '--secret-env', 'SEAL_SECRET', '--json'], env),
          cli(['verify', file, '--secret-env', 'OLD_SECRET', '--previous-secret-env', 'SEAL_SECRET'], env),
          cli(['verify', tampered, '--secret-env', 'SEAL_SECRET', '--json'], env),
          cli(['verify', plain.id, '--secret-env', 'SEAL_SECRET', '--json'], env),
          cli(['verify', sealed.id, '--secret-env', 'EMPTY'], env),
          cli(['validate', tampered, '--json']),
        ]);
        expect(byId.code).toBe(0);
        expect(byId.json).toMatchObject({ ok: true, id: sealed.id, keyId: 'k1' });
        expect(byFile.code).toBe(0);
        expect(byFile.stdout).toContain('the seal is valid (key k1)');
        expect(altered.code).toBe(1);
        expect(altered.json.error.code).toBe('SEAL_MISMATCH');
        expect(unsealed.code).toBe(1);
        expect(unsealed.json.error.code).toBe('SEAL_MISSING');
        expect(noSecret.code).toBe(2);
        // The schema holds for the altered file: only the seal tells.
        expect(valid.json).toMatchObject({ ok: true, id: sealed.id, actions: 1, sealed: true });

        const [unverified, existing, forged] = await Promise.all([
          ws.cli(['import', file, '--store', other]),
          cli(['import', file, '--secret-env', 'SEAL_SECRET', '--json'], env),
          ws.cli(['import', tampered, '--secret-env', 'SEAL_SECRET', '--store', other, '--json'], { env }),
        ]);
        expect(unverified.code).toBe(2);
        expect(unverified.stderr).toContain('is sealed: pass --secret-env');
        expect(existing.code).toBe(1);
        expect(existing.json.error.code).toBe('INVALID_OPERATION');
        expect(forged.code).toBe(1);
        expect(forged.json.error.code).toBe('SEAL_MISMATCH');

        const imported = await ws.cli(
          ['import', '-', '--secret-env', 'SEAL_SECRET', '--store', other, '--json'],
          { env, input: text },
        );
        expect(imported.code).toBe(0);
        expect(imported.json).toMatchObject({ ok: true, id: sealed.id, actions: 1, verified: true });
        const before = ws.runs().update_salary ?? 0;
        const approved = await ws.cli([
          'approve',
          sealed.id,
          SALARY,
          '--agents',
          AGENTS,
          '--store',
          other,
          '--json',
        ]);
        expect(approved.code).toBe(0);
        expect(ws.runs().update_salary).toBe(before + 1);
        // The original store's record is untouched by what happened to its copy.
        expect(await status(sealed.id)).toBe('suspended');
      },
      SLOW,
    );
  });
}
