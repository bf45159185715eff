import { isContinuationError, parseContinuation } from '@agent-continuations/core';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../src';

const continuation = parseContinuation({
  format: 'agent-continuation',
  version: 1,
  id: 'c1',
  runId: 'run-1',
  agent: { name: 'payroll', framework: 'core' },
  messages: [{ role: 'user', content: 'hello' }],
  pending: [],
  done: [],
  step: 0,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  suspendedBy: { type: 'checkpoint' },
  metadata: {},
  decisions: [],
  createdAt: '2025-01-01T00:00:00.000Z',
});

const codeOf = (make: () => unknown) => {
  try {
    make();
    return undefined;
  } catch (error) {
    return isContinuationError(error) ? error.code : String(error);
  }
};

describe('createSqliteStore options', () => {
  it('uses an open database and its own table, and leaves the database open on close', async () => {
    const database = new Database(':memory:');
    const store = createSqliteStore({ database, table: 'approvals' });
    expect(store.capabilities.multiProcess).toBe(false);
    await store.save(continuation);
    await store.close();
    expect(database.open).toBe(true);
    expect(database.prepare('SELECT id FROM approvals').all()).toEqual([{ id: 'c1' }]);
    database.close();
  });

  it('refuses missing or double sources and unsafe table names before touching anything', () => {
    expect(codeOf(() => createSqliteStore({}))).toBe('INVALID_OPERATION');
    expect(codeOf(() => createSqliteStore({ path: ':memory:', database: new Database(':memory:') }))).toBe(
      'INVALID_OPERATION',
    );
    expect(codeOf(() => createSqliteStore({ path: ':memory:', table: 'x; DROP TABLE y' }))).toBe(
      'INVALID_OPERATION',
    );
  });
});
