/**
 * The example's bank: balances and transfers in SQLite tables, in the same file as the
 * continuation store, so what happened survives across processes. A transfer's primary key is the
 * tool call's idempotency key: it is applied once, however often it is retried.
 */
import type Database from 'better-sqlite3';

export interface Transfer {
  from: string;
  to: string;
  amount: number;
}

export interface Receipt {
  receipt: string;
  /** The source account's balance after the transfer. */
  balance: number;
}

export interface Bank {
  balance(accountId: string): number | undefined;
  /** Apply a transfer once per key; a repeat with the same key returns the first receipt. */
  transfer(key: string, transfer: Transfer): Receipt;
  /** How many transfers were applied. */
  transfers(): number;
}

/** The accounts a new bank opens with. */
export const OPENING_BALANCES: Readonly<Record<string, number>> = { 'ACC-1': 120, 'ACC-2': 10 };

/** A bank in `database`; its tables are created, and its accounts opened, when missing. */
export function sqliteBank(database: Database.Database): Bank {
  database.exec(`
    CREATE TABLE IF NOT EXISTS accounts (
      id TEXT PRIMARY KEY,
      balance REAL NOT NULL
    );
    CREATE TABLE IF NOT EXISTS transfers (
      idempotency_key TEXT PRIMARY KEY,
      receipt TEXT NOT NULL UNIQUE,
      from_account TEXT NOT NULL REFERENCES accounts (id),
      to_account TEXT NOT NULL REFERENCES accounts (id),
      amount REAL NOT NULL,
      balance_after REAL NOT NULL
    );
  `);
  const open = database.prepare(
    'INSERT INTO accounts (id, balance) VALUES (?, ?) ON CONFLICT (id) DO NOTHING',
  );
  for (const [id, balance] of Object.entries(OPENING_BALANCES)) open.run(id, balance);

  const balanceOf = database.prepare<[string], { balance: number }>(
    'SELECT balance FROM accounts WHERE id = ?',
  );
  const receiptOf = database.prepare<[string], Receipt>(
    'SELECT receipt, balance_after AS balance FROM transfers WHERE idempotency_key = ?',
  );
  const move = database.prepare('UPDATE accounts SET balance = balance + ? WHERE id = ?');
  const insert = database.prepare(
    `INSERT INTO transfers (idempotency_key, receipt, from_account, to_account, amount, balance_after)
     VALUES (?, 'T-' || (SELECT COUNT(*) + 1 FROM transfers), ?, ?, ?, ?)`,
  );
  const count = database.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM transfers');

  // IMMEDIATE takes the write lock before reading, so two processes cannot both pass the checks.
  const apply = database.transaction((key: string, { from, to, amount }: Transfer): Receipt => {
    const existing = receiptOf.get(key);
    if (existing) return existing;
    const source = balanceOf.get(from)?.balance;
    if (source === undefined || balanceOf.get(to) === undefined)
      throw new Error(`Unknown account ${from} or ${to}.`);
    if (source < amount) throw new Error(`Insufficient funds in ${from}.`);
    move.run(-amount, from);
    move.run(amount, to);
    insert.run(key, from, to, amount, source - amount);
    return receiptOf.get(key)!;
  });

  return {
    balance: (accountId) => balanceOf.get(accountId)?.balance,
    transfer: (key, transfer) => apply.immediate(key, transfer),
    transfers: () => count.get()!.n,
  };
}
