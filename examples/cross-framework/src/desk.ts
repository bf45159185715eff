/**
 * The support desk's back office, shared by both workers: orders, refunds and ticket tags, kept in
 * JSON files so the two processes see the same data. Every execution is logged with its process,
 * and a refund is applied once per idempotency key.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ORDERS: Record<string, { customer: string; total: number; status: string }> = {
  'O-1001': { customer: 'Ada Lovelace', total: 49, status: 'delivered damaged' },
};

/** One tool execution, as the log records it. */
export interface Execution {
  tool: string;
  pid: number;
  framework: string;
}

/** The desk's files in `dir`. */
export function supportDesk(dir: string, framework: string) {
  const log = join(dir, 'executions.jsonl');
  const refundsFile = join(dir, 'refunds.json');
  const record = (tool: string) =>
    appendFileSync(log, `${JSON.stringify({ tool, pid: process.pid, framework } satisfies Execution)}\n`);
  const refunds = (): Record<string, { orderId: string; amount: number }> =>
    existsSync(refundsFile) ? JSON.parse(readFileSync(refundsFile, 'utf8')) : {};
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
      const all = refunds();
      all[idempotencyKey] ??= { orderId, amount };
      writeFileSync(refundsFile, JSON.stringify(all, null, 2));
      return { refunded: amount, orderId, reference: `R-${Object.keys(all).length}` };
    },
    executions(): Execution[] {
      if (!existsSync(log)) return [];
      return readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Execution);
    },
    refunds,
  };
}

export type SupportDesk = ReturnType<typeof supportDesk>;
