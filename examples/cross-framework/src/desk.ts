/**
 * The support desk's back office, shared by both workers: orders, refunds and an execution log,
 * as SQLite tables in the same file as the continuation store, so the two processes see the same
 * data. Every execution is logged with its process; a refund's primary key is the tool call's
 * idempotency key, so it is issued once however often the tool runs.
 */
import type Database from 'better-sqlite3';

const ORDERS: Record<string, { customer: string; total: number; status: string }> = {
  'O-1001': { customer: 'Ada Lovelace', total: 49, status: 'delivered damaged' },
};

/** One tool execution, as the log records it. */
export interface Execution {
  tool: string;
  pid: number;
  framework: string;
}

/** One issued refund. */
export interface Refund {
  key: string;
  orderId: string;
  amount: number;
  reference: string;
}

/** The desk's tables in `database`, created when missing; `framework` names the worker in the log. */
export function supportDesk(database: Database.Database, framework: string) {
  database.exec(`
    CREATE TABLE IF NOT EXISTS tool_executions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      tool TEXT NOT NULL,
      pid INTEGER NOT NULL,
      framework TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS refunds (
      idempotency_key TEXT PRIMARY KEY,
      order_id TEXT NOT NULL,
      amount REAL NOT NULL,
      reference TEXT NOT NULL UNIQUE
    );
  `);
  const log = database.prepare('INSERT INTO tool_executions (tool, pid, framework) VALUES (?, ?, ?)');
  const record = (tool: string) => log.run(tool, process.pid, framework);
  const insertRefund = database.prepare(
    `INSERT INTO refunds (idempotency_key, order_id, amount, reference)
     VALUES (?, ?, ?, 'R-' || (SELECT COUNT(*) + 1 FROM refunds))
     ON CONFLICT (idempotency_key) DO NOTHING`,
  );
  const refundOf = database.prepare<[string], Refund>(
    'SELECT idempotency_key AS key, order_id AS orderId, amount, reference FROM refunds WHERE idempotency_key = ?',
  );
  const allRefunds = database.prepare<[], Refund>(
    'SELECT idempotency_key AS key, order_id AS orderId, amount, reference FROM refunds ORDER BY rowid',
  );
  const allExecutions = database.prepare<[], Execution>(
    'SELECT tool, pid, framework FROM tool_executions ORDER BY seq',
  );
  return {
    lookupOrder(orderId: string) {
      record('lookup_order');
      return { orderId, ...(ORDERS[orderId] ?? { customer: 'unknown', total: 0, status: 'not found' }) };
    },
    tagTicket(ticket: string, tag: string) {
      record('tag_ticket');
      return { ticket, tag };
    },
    issueRefund(orderId: string, amount: number, idempotencyKey: string) {
      record('issue_refund');
      insertRefund.run(idempotencyKey, orderId, amount);
      // A repeat with the same key reports the refund that was issued the first time.
      const refund = refundOf.get(idempotencyKey)!;
      return { refunded: refund.amount, orderId: refund.orderId, reference: refund.reference };
    },
    executions: (): Execution[] => allExecutions.all(),
    refunds: (): Refund[] => allRefunds.all(),
  };
}

export type SupportDesk = ReturnType<typeof supportDesk>;
