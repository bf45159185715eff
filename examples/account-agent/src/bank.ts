/**
 * The example's bank: balances and transfers in a JSON file, so what happened survives across
 * processes. A transfer is applied once per idempotency key, however often it is retried.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface Transfer {
  from: string;
  to: string;
  amount: number;
}

export interface Bank {
  balance(accountId: string): number | undefined;
  /** Apply a transfer once per key; a repeat with the same key returns the first receipt. */
  transfer(key: string, transfer: Transfer): { receipt: string; balance: number };
  /** How many transfers were applied. */
  transfers(): number;
}

interface State {
  balances: Record<string, number>;
  applied: Record<string, { receipt: string; balance: number }>;
}

/** A bank stored in `path`, opened with two accounts if the file does not exist yet. */
export function fileBank(path: string): Bank {
  const read = (): State =>
    existsSync(path)
      ? (JSON.parse(readFileSync(path, 'utf8')) as State)
      : { balances: { 'ACC-1': 120, 'ACC-2': 10 }, applied: {} };
  const write = (state: State) => writeFileSync(path, JSON.stringify(state, null, 2));
  return {
    balance: (accountId) => read().balances[accountId],
    transfer(key, { from, to, amount }) {
      const state = read();
      const existing = state.applied[key];
      if (existing) return existing;
      const source = state.balances[from];
      if (source === undefined || state.balances[to] === undefined)
        throw new Error(`Unknown account ${from} or ${to}.`);
      if (source < amount) throw new Error(`Insufficient funds in ${from}.`);
      state.balances[from] = source - amount;
      state.balances[to] = (state.balances[to] ?? 0) + amount;
      const receipt = { receipt: `T-${Object.keys(state.applied).length + 1}`, balance: source - amount };
      state.applied[key] = receipt;
      write(state);
      return receipt;
    },
    transfers: () => Object.keys(read().applied).length,
  };
}
