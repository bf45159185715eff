/**
 * `pnpm bench:compare before.json after.json`: the difference between two `pnpm bench --json`
 * runs. For every section, table and row present in both, and every column whose value is a
 * number in both (plain, or with a unit such as "1.2 KB" or "3.4 ms"), it prints the figure
 * before, after, and after / before.
 *
 * Rows are matched by their text columns, their first column (which names the row even when it
 * is a number, such as a message count) and the columns that describe the work rather than measure
 * it ({@link KEY_COLUMNS}); rows that match nothing on the other side are listed by name only.
 */
import { readFileSync } from 'node:fs';

type Row = Record<string, unknown>;
type Report = {
  date?: string;
  git?: { commit?: string; dirty?: boolean };
  node?: string;
  machine?: Record<string, unknown>;
  sections: Record<string, Record<string, Row[]>>;
};

const UNITS = /^\s*(-?[\d,]*\.?\d+(?:e[-+]?\d+)?)\s*(?:µs|ms|s|B|KB|MB|GB|%|×|x|\/s)?\s*$/i;

/** The number a cell holds, or undefined for text. */
export function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = UNITS.exec(value);
  if (!match) return undefined;
  const number = Number(match[1]!.replace(/,/g, ''));
  if (!Number.isFinite(number)) return undefined;
  const unit = value
    .trim()
    .match(/(KB|MB|GB)$/i)?.[1]
    ?.toUpperCase();
  return unit === 'KB'
    ? number * 1024
    : unit === 'MB'
      ? number * 1024 ** 2
      : unit === 'GB'
        ? number * 1024 ** 3
        : number;
}

/** Numeric columns that say what work a row did (compared rows must have the same). */
const KEY_COLUMNS = new Set(['workers', 'in flight', 'depth', 'messages', 'steps', 'model calls', 'resumes']);

/** The columns that name a row: its first, its text columns and {@link KEY_COLUMNS}. */
function keyColumns(row: Row): string[] {
  return Object.entries(row)
    .filter(([column, value], i) => i === 0 || KEY_COLUMNS.has(column) || numeric(value) === undefined)
    .map(([column]) => column);
}

function rowKey(row: Row): string {
  return keyColumns(row)
    .map((column) => `${column}=${String(row[column])}`)
    .join(', ');
}

function keyed(rows: Row[]): Map<string, Row> {
  const byKey = new Map<string, Row>();
  for (const row of rows) {
    let key = rowKey(row);
    for (let n = 2; byKey.has(key); n++) key = `${rowKey(row)} #${n}`;
    byKey.set(key, row);
  }
  return byKey;
}

const format = (value: number) =>
  Number.isInteger(value) || Math.abs(value) >= 100
    ? value.toFixed(0)
    : Math.abs(value) >= 1
      ? value.toFixed(2)
      : value.toPrecision(3);

/** The comparison rows of one table present in both runs. */
export function compareTable(before: Row[], after: Row[]): { rows: Row[]; unmatched: string[] } {
  const old = keyed(before);
  const now = keyed(after);
  const rows: Row[] = [];
  const unmatched: string[] = [];
  for (const [key, row] of now) {
    const previous = old.get(key);
    if (!previous) {
      unmatched.push(`only after: ${key}`);
      continue;
    }
    const naming = new Set(keyColumns(row));
    for (const [column, value] of Object.entries(row)) {
      const a = numeric(previous[column]);
      const b = numeric(value);
      if (a === undefined || b === undefined || naming.has(column) || column.startsWith('goal ')) continue;
      rows.push({
        row: key,
        column,
        before: format(a),
        after: format(b),
        'after / before': a === 0 ? (b === 0 ? '1.00' : '-') : (b / a).toFixed(2),
      });
    }
  }
  for (const key of old.keys()) if (!now.has(key)) unmatched.push(`only before: ${key}`);
  return { rows, unmatched };
}

function load(file: string): Report {
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  if (!report.sections) throw new Error(`${file} is not the output of pnpm bench --json`);
  return report;
}

function describe(label: string, file: string, report: Report): string {
  const commit = report.git?.commit?.slice(0, 10) ?? '?';
  return `${label}: ${file} (${report.date ?? '?'}, ${commit}${report.git?.dirty ? '+changes' : ''}, Node ${report.node ?? '?'})`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [beforeFile, afterFile] = process.argv.slice(2);
  if (!beforeFile || !afterFile) {
    console.error('usage: pnpm bench:compare before.json after.json');
    process.exit(1);
  }
  const before = load(beforeFile);
  const after = load(afterFile);
  console.log(describe('before', beforeFile, before));
  console.log(describe('after ', afterFile, after));
  for (const [section, tables] of Object.entries(after.sections)) {
    const previous = before.sections[section];
    if (!previous) {
      console.log(`\n## ${section}: not in ${beforeFile}`);
      continue;
    }
    console.log(`\n## ${section}`);
    for (const [title, rows] of Object.entries(tables)) {
      if (!previous[title]) {
        console.log(`\n${title}: only in ${afterFile}`);
        continue;
      }
      const { rows: compared, unmatched } = compareTable(previous[title], rows);
      console.log(`\n${title}`);
      if (compared.length > 0) console.table(compared);
      for (const line of unmatched) console.log(`  (${line})`);
    }
    for (const title of Object.keys(previous))
      if (!tables[title]) console.log(`\n${title}: only in ${beforeFile}`);
  }
  for (const section of Object.keys(before.sections))
    if (!after.sections[section]) console.log(`\n## ${section}: only in ${beforeFile}`);
}
