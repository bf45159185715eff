/**
 * What the bench sections print, kept for `pnpm bench --json out.json`: every table goes through
 * {@link table}, which prints it like `console.table` and records its rows under the running
 * section and the table's title. Titles are keys for `pnpm bench:compare`, so they name what a
 * table measures and stay the same from one run to the next (no figures in them).
 */

export type Row = Record<string, unknown>;

/** Recorded tables: section, then title, then rows. */
export const recorded: Record<string, Record<string, Row[]>> = {};

let current = 'bench';

/** Name the section whose tables are recorded from now on (the runner calls it before each section). */
export function section(name: string): void {
  current = name;
}

/**
 * Print `rows` as a table and record them under `title` in the running section. A second table
 * with the same title in a section gets ` (2)`, ` (3)`, ... appended.
 *
 * @example
 * table('Core: parse and serialize by message count', [{ messages: 10, 'parse (µs)': 12.5 }]);
 */
export function table(title: string, rows: Row[]): void {
  console.table(rows);
  const tables = recorded[current] ?? {};
  recorded[current] = tables;
  let key = title;
  for (let n = 2; key in tables; n++) key = `${title} (${n})`;
  tables[key] = rows.map((row) => ({ ...row }));
}
