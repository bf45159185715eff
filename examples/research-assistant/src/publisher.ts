/**
 * The side effect the approval guards: publishing a report. Publications go to a JSON file, keyed by
 * idempotency key, so the demo can show that each approved call ran exactly once across processes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface Publication {
  key: string;
  title: string;
  url: string;
}

export interface Publisher {
  publish(title: string, idempotencyKey: string): Publication;
  /** How many times `publish` really published. */
  count(): number;
}

export function filePublisher(file: string): Publisher {
  const read = (): Publication[] =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Publication[]) : [];
  return {
    publish(title, key) {
      const all = read();
      const existing = all.find((publication) => publication.key === key);
      if (existing) return existing;
      const slug = title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      const publication = { key, title, url: `https://reports.example.com/${slug}` };
      writeFileSync(file, JSON.stringify([...all, publication], null, 2));
      return publication;
    },
    count: () => read().length,
  };
}
