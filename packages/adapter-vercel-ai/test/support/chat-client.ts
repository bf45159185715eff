/**
 * The AI SDK's own chat client, as `useChat` wraps it (`AbstractChat` with `DefaultChatTransport`
 * and the approval predicate), talking HTTP to a fetch-style route served by `node:http`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';

/** Serve `handler` (a `Request` to `Response` route) on 127.0.0.1; `url` is its address. */
export async function serveRoute(
  handler: (request: Request) => Promise<Response>,
): Promise<{ url: string; statuses: number[]; close(): Promise<void> }> {
  const statuses: number[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method ?? 'POST',
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks),
    });
    let response: Response;
    try {
      response = await handler(request);
    } catch (error) {
      response = new Response(`unhandled: ${(error as Error).message}`, { status: 500 });
    }
    statuses.push(response.status);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    res.writeHead(response.status, headers);
    if (response.body)
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/chat`,
    statuses,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

class State implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined;
  constructor(public messages: UIMessage[]) {}
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((each, at) => (at === index ? message : each));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** A chat as a browser tab holds it, with `useChat`'s auto-send after approval responses. */
export class TestChat extends AbstractChat<UIMessage> {
  private settledCount = 0;
  private waiters: Array<() => void> = [];

  constructor(url: string, id: string, messages: UIMessage[] = [], headers: Record<string, string> = {}) {
    super({
      id,
      state: new State(structuredClone(messages)),
      transport: new DefaultChatTransport({ api: url, headers }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      onFinish: () => this?.settle(),
      onError: () => this?.settle(),
    });
  }

  /** Resolves once `count` more requests have ended (finished or failed). */
  requestsEnded(count = 1): Promise<void> {
    const target = this.settledCount + count;
    return new Promise((resolve) => {
      const check = () => {
        if (this.settledCount >= target) resolve();
        else this.waiters.push(check);
      };
      check();
    });
  }

  /** Answer an approval as a click does, and wait for the request the predicate sends by itself. */
  async answer(id: string, approved: boolean, reason?: string): Promise<void> {
    const ended = this.requestsEnded();
    await this.addToolApprovalResponse({ id, approved, ...(reason ? { reason } : {}) });
    await ended;
  }

  /** The approval ids the last assistant message waits on. */
  waitingApprovals(): string[] {
    const parts = this.lastMessage?.role === 'assistant' ? this.lastMessage.parts : [];
    return parts.flatMap((part) =>
      'state' in part && part.state === 'approval-requested' && 'approval' in part && part.approval
        ? [part.approval.id]
        : [],
    );
  }

  private settle() {
    this.settledCount++;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
