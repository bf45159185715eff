/**
 * Usage errors (exit code 2), unreachable stores and the store-free commands, as a subprocess.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEncryption, serializeContinuation } from '@agent-continuations/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src';
import { AGENTS, type CliWorkspace, cliWorkspace } from './cli-harness';
import { helpdesk, payouts, refunds } from './fixtures/agents';

const SLOW = 240_000;

describe('agent-continuations usage', () => {
  let ws: CliWorkspace;
  beforeAll(() => {
    ws = cliWorkspace();
  });
  afterAll(() => ws.dispose());

  it(
    'refuses bad store URLs, unknown commands and options, and a console without agents, with exit code 2',
    async () => {
      const runs = await Promise.all(
        [
          ['list', '--store', 'sqlite:'],
          ['list', '--store', 'mysql://127.0.0.1/app'],
          ['list', '--store', 'postgres://'],
          ['list', '--store', 'redis://:6379'],
          ['list', '--store', 'postgres://127.0.0.1/test?schema='],
          ['list', '--store', 'sqlite:./agents.db?mode=ro'],
          ['list', '--store', 'agents.db'],
        ].map((args) => ws.cli(args)),
      );
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toMatch(
          /^error: The store URL ".*" is not usable: .+\. Use sqlite:\.\/agents\.db/,
        );
      }
      expect(runs[1]!.stderr).toContain('"mysql:" is not a store this command line knows');

      const [none, help, console, unknown, option, operand, noStore, unreachable] = await Promise.all([
        ws.cli([]),
        ws.cli(['--help']),
        ws.cli(['console', '--store', 'sqlite:./agents.db']),
        ws.cli(['delete-everything']),
        ws.cli(['list', '--bogus']),
        ws.cli(['show']),
        ws.cli(['list', '--json']),
        ws.cli(['list', '--store', 'redis://127.0.0.1:1', '--json']),
      ]);
      expect(none.code).toBe(2);
      expect(none.stdout).toContain('usage: agent-continuations <command>');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Exit codes: 0 done, 1 refused or failed');
      expect(console.code).toBe(2);
      expect(console.stderr).toContain('console needs --agents FILE');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('Unknown command "delete-everything"');
      expect(option.code).toBe(2);
      expect(option.stderr).toContain("Unknown option '--bogus'");
      expect(operand.code).toBe(2);
      expect(operand.stderr).toContain('usage: agent-continuations show <id>');
      expect(noStore.code).toBe(2);
      expect(noStore.json.error).toMatchObject({ code: 'USAGE' });
      expect(noStore.stderr).toContain('list needs a store');
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toContain('Cannot reach the store at 127.0.0.1:1');
    },
    SLOW,
  );

  it(
    'validates files and standard input, printing the typed error code',
    async () => {
      const suspended = await helpdesk.run('Can Ann work from home?');
      if (suspended.status !== 'suspended') throw new Error('expected a suspension');
      const text = serializeContinuation(suspended.continuation);
      const files = {
        good: text,
        truncated: text.slice(0, 120),
        future: text.replace('"version":1', '"version":99'),
        other: '{"hello":"world"}',
      };
      for (const [name, content] of Object.entries(files))
        writeFileSync(join(ws.dir, `${name}.json`), content);

      const [good, stdin, truncated, future, other, missing, human] = await Promise.all([
        ws.cli(['validate', 'good.json', '--json']),
        ws.cli(['validate', '-', '--json'], { input: text }),
        ws.cli(['validate', 'truncated.json', '--json']),
        ws.cli(['validate', 'future.json', '--json']),
        ws.cli(['validate', 'other.json', '--json']),
        ws.cli(['validate', 'missing.json']),
        ws.cli(['validate', 'future.json']),
      ]);
      expect(good.code).toBe(0);
      expect(good.json).toMatchObject({
        ok: true,
        id: suspended.continuation.id,
        agent: 'helpdesk',
        actions: 1,
      });
      expect(stdin.json).toEqual(good.json);
      expect(truncated.code).toBe(1);
      expect(truncated.json.error.code).toBe('INVALID_JSON');
      expect(future.code).toBe(1);
      expect(future.json.error).toMatchObject({ code: 'UNSUPPORTED_VERSION', path: '$.version' });
      expect(other.code).toBe(1);
      expect(other.json.error.code).toBe('INVALID_FORMAT');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('Cannot read missing.json');
      expect(human.stderr).toMatch(/^error UNSUPPORTED_VERSION: .+ \(at \$\.version\)\n$/);
    },
    SLOW,
  );

  it(
    'refuses an agents module without the agent, and prints untrusted text escaped',
    async () => {
      const url = `sqlite:${join(ws.dir, 'agents.db')}`;
      const suspended = await helpdesk.run('Can Ann work from home?');
      if (suspended.status !== 'suspended') throw new Error('expected a suspension');
      // A name with a terminal escape sequence (clear screen) and a right-to-left override.
      const evil = {
        ...suspended.continuation,
        id: 'evil',
        agent: { name: 'help\u001b[2Jdesk\u202e', framework: 'core' },
      };
      const { store, close } = await openStore(url);
      await store.save(suspended.continuation);
      await store.save(evil);
      await close();
      writeFileSync(join(ws.dir, 'empty.mjs'), 'export const answer = 42;\n');

      const [noAgent, otherName, noFile, listed] = await Promise.all([
        ws.cli([
          'answer',
          suspended.continuation.id,
          'ask_1',
          '--value',
          'true',
          '--agents',
          'empty.mjs',
          '--store',
          url,
        ]),
        ws.cli([
          'answer',
          'evil',
          'ask_1',
          '--value',
          '{"allowed":true}',
          '--agents',
          AGENTS,
          '--store',
          url,
        ]),
        ws.cli(['answer', 'evil', 'ask_1', '--value', 'true', '--agents', 'nowhere.ts', '--store', url]),
        ws.cli(['list', '--store', url]),
      ]);
      expect(noAgent.code).toBe(2);
      expect(noAgent.stderr).toContain('exports no agent');
      expect(otherName.code).toBe(2);
      expect(otherName.stderr).toContain('has no agent named "help\\u001b[2Jdesk\\u202e"');
      expect(otherName.stderr).toContain('helpdesk');
      expect(noFile.code).toBe(2);
      expect(noFile.stderr).toContain('nowhere.ts does not exist');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('help\\u001b[2Jdesk\\u202e');
      expect(listed.stdout).not.toContain('\u001b');
      expect(listed.stdout).not.toContain('\u202e');
      // Nothing ran, and both still wait.
      expect(ws.runs()).toEqual({});
      const reopened = await openStore(url);
      expect((await reopened.store.list()).items.map((item) => item.status)).toEqual([
        'suspended',
        'suspended',
      ]);
      await reopened.close();
    },
    SLOW,
  );

  it(
    'reads a store encrypted at rest with the keys from --encryption-env, and says DECRYPT_FAILED without them',
    async () => {
      const url = `sqlite:${join(ws.dir, 'encrypted.db')}`;
      const keys = { currentKeyId: '2026-12', keys: { '2026-12': Buffer.alloc(32, 7).toString('base64') } };
      const suspended = await refunds.run('Refund order A-1');
      if (suspended.status !== 'suspended') throw new Error('expected a suspension');
      const id = suspended.continuation.id;
      const { store, close } = await openStore(url, ws.dir, { encryption: createEncryption(keys) });
      await store.save(suspended.continuation);
      await close();
      const env = { STORE_KEYS: JSON.stringify(keys), BAD_KEYS: '{"currentKeyId":"x","keys":{}}' };

      const [listed, shown, badKeys, withKeys] = await Promise.all([
        ws.cli(['list', '--store', url, '--json']),
        ws.cli(['show', id, '--store', url, '--json']),
        ws.cli(['show', id, '--store', url, '--encryption-env', 'BAD_KEYS'], { env }),
        ws.cli(['show', id, '--store', url, '--encryption-env', 'STORE_KEYS', '--json'], { env }),
      ]);
      expect(listed.code).toBe(0);
      expect(listed.json.items[0].actionsError).toMatch(/^DECRYPT_FAILED: /);
      expect(shown.code).toBe(1);
      expect(shown.json.error.code).toBe('DECRYPT_FAILED');
      expect(badKeys.code).toBe(2);
      expect(badKeys.stderr).toContain('BAD_KEYS holds unusable keys');
      expect(withKeys.code).toBe(0);
      expect(withKeys.json.actions.map((action: { id: string }) => action.id)).toEqual(['refund_1']);

      const approved = await ws.cli(
        [
          'approve',
          id,
          'refund_1',
          '--agents',
          AGENTS,
          '--store',
          url,
          '--encryption-env',
          'STORE_KEYS',
          '--json',
        ],
        { env },
      );
      expect(approved.code).toBe(0);
      expect(approved.json).toMatchObject({ status: 'completed', output: 'refunds: {"refunded":30}' });
      expect(ws.runs().refund).toBe(1);
    },
    SLOW,
  );

  it(
    'exits when done although the agents module left a timer running',
    async () => {
      const url = `sqlite:${join(ws.dir, 'lingering.db')}`;
      const suspended = await seeded(url, helpdesk, 'Can Ann work from home?');
      writeFileSync(
        join(ws.dir, 'lingering.mjs'),
        `export * from ${JSON.stringify(pathToFileURL(AGENTS).href)};\nsetInterval(() => {}, 60_000);\n`,
      );
      const answered = await ws.cli([
        'answer',
        suspended.continuation.id,
        'ask_1',
        '--value',
        '{"allowed":false}',
        '--agents',
        'lingering.mjs',
        '--store',
        url,
        '--json',
      ]);
      expect(answered.code).toBe(0);
      expect(answered.json).toMatchObject({ status: 'completed', output: 'helpdesk: {"allowed":false}' });
    },
    SLOW,
  );

  it(
    "refuses an edit the tool's policy does not allow (DECISION_NOT_ALLOWED, nothing runs, the run still waits), then approves as asked",
    async () => {
      const url = `sqlite:${join(ws.dir, 'policy.db')}`;
      const { id } = (await seeded(url, payouts, 'Pay Ann Example')).continuation;
      const decide = (extra: string[]) =>
        ws.cli(['approve', id, 'payout_1', '--agents', AGENTS, '--store', url, ...extra, '--json']);

      const edited = await decide(['--args', '{"to":"Mallory","amount":5000}']);
      expect(edited.code).toBe(1);
      expect(edited.json.error.code).toBe('DECISION_NOT_ALLOWED');
      expect(ws.runs().payout).toBeUndefined();
      const shown = await ws.cli(['show', id, '--store', url, '--json']);
      expect(shown.json.status).toBe('suspended');

      const approved = await decide([]);
      expect(approved.code).toBe(0);
      expect(approved.json).toMatchObject({ status: 'completed', output: 'payouts: {"paid":500}' });
      expect(ws.argsOf('payout')).toEqual([{ to: 'Ann Example', amount: 500 }]);
    },
    SLOW,
  );
});

/** Run `agent` on `input` to its suspension and save it in the store at `url`. */
async function seeded(url: string, agent: typeof helpdesk, input: string) {
  const suspended = await agent.run(input);
  if (suspended.status !== 'suspended') throw new Error('expected a suspension');
  const { store, close } = await openStore(url);
  await store.save(suspended.continuation);
  await close();
  return suspended;
}
