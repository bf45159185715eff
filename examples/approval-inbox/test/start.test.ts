import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';

// The start script is a new Node process that compiles TypeScript on start: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const start = join(import.meta.dirname, '..', 'src', 'start.ts');

it('start serves the inbox with the waiting salary change; approving it runs update_salary once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'approval-inbox-'));
  const child = spawn(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', start],
    {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, APPROVAL_INBOX_DIR: dir, PORT: '0' },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const [url, link] = await new Promise<[string, string]>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const open = /Open (http:\/\/\S+\/) /.exec(stdout)?.[1];
        const approve = /approval link: (http:\/\/\S+)\)/.exec(stdout)?.[1];
        if (open && approve) resolve([open, approve]);
      });
      void exited.then((code) => reject(new Error(`start exited with ${code}: ${stderr}`)));
    });

    const inbox = await fetch(url);
    expect(inbox.status).toBe(200);
    const page = await inbox.text();
    expect(page).toMatch(/hr ›.* payroll ›.* benefits ›.* update_salary/);
    expect(page).toContain('55000');

    // The printed approval link, as a person would use it: its confirmation page, then its button.
    const confirm = await fetch(link);
    expect(confirm.status).toBe(200);
    const cookie = confirm.headers
      .getSetCookie()
      .map((each) => each.split(';')[0])
      .join('; ');
    const target = /<form method="post" action="([^"]+)"/.exec(await confirm.text())?.[1];
    expect(target).toContain('?csrf=');
    const applied = await fetch(new URL(target!.replaceAll('&amp;', '&'), link), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
      body: new URLSearchParams({}),
    });
    expect(applied.status).toBe(303);
    expect(stdout).toContain('update_salary ran: E-42 now earns 55000.');
    expect(stdout.match(/update_salary ran/g)).toHaveLength(1);
    expect((await fetch(link)).status).toBe(409);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }
  expect(stderr).toBe('');
});
