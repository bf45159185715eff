/**
 * `pnpm --filter @agent-continuations/example-approval-inbox start`: a fresh SQLite store in
 * `.data/`, the HR agent run until `benefits.update_salary` waits for approval, and the console at
 * http://127.0.0.1:4318/ (PORT and HOST change it). Open the printed address, edit the salary and
 * approve: the run resumes here and the salary change is printed. Ctrl+C stops it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startApprovalInbox } from './inbox';

const dir = process.env.APPROVAL_INBOX_DIR ?? join(import.meta.dirname, '..', '.data');

async function main(): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const inbox = await startApprovalInbox({
    dir,
    port: process.env.PORT === undefined ? 4318 : Number(process.env.PORT),
    ...(process.env.HOST ? { host: process.env.HOST } : {}),
    ...(process.env.CONSOLE_SECRET ? { secret: process.env.CONSOLE_SECRET } : {}),
    onSalaryChange: ({ employeeId, salary }) =>
      console.log(`update_salary ran: ${employeeId} now earns ${salary}.`),
  });
  console.log(`The HR agent waits for a salary approval (continuation ${inbox.continuationId}).`);
  console.log(`Open ${inbox.url} to review it: edit the salary and approve. Ctrl+C stops the inbox.`);
  console.log(`(Or approve it as it stands through its signed approval link: ${inbox.approveLink})`);

  const stop = () => {
    inbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
