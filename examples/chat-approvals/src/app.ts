/**
 * The chat app: an assistant agent whose `payments` tool is a sub-agent whose `transfer` needs
 * approval, served by `chatRoute` at `POST /api/chat` beside the built page, continuations in
 * SQLite. The models are scripted by {@link startChatModels}, so every run is the same.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { createRuntime, type Message, type ModelRequest, textOf } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import {
  type ScriptedOpenAIServer,
  type ScriptedReply,
  startScriptedOpenAIServer,
} from '@agent-continuations/testing';
import { agentTool, chatRoute, continuable } from '@agent-continuations/vercel-ai';
import { createOpenAI } from '@ai-sdk/openai';
import { ToolLoopAgent, tool } from 'ai';
import { z } from 'zod';

/** Where the page is built to. */
export const PAGE_DIR = new URL('../page/dist', import.meta.url).pathname;

/** The last message's text, or its tool results as JSON. */
function lastWords(messages: readonly Message[]): string {
  const last = messages.at(-1)!;
  if (last.role === 'tool') return last.content.map((part) => JSON.stringify(part.output)).join(' | ');
  return textOf(last);
}

/** A model that calls `name` for a user message, and answers with what the tool returned. */
function delegating(name: string, args: (text: string) => Record<string, unknown>) {
  let calls = 0;
  return (request: ModelRequest): ScriptedReply => {
    const last = request.messages.at(-1)!;
    if (last.role === 'tool') return `${name} says: ${lastWords(request.messages)}`;
    return { toolCalls: [{ id: `${name}_${++calls}`, name, args: args(textOf(last)) as never }] };
  };
}

/** The scripted OpenAI-compatible server both agents' models talk to. */
export function startChatModels(): Promise<ScriptedOpenAIServer> {
  return startScriptedOpenAIServer({
    scripts: {
      assistant: delegating('payments', (text) => ({ input: text })),
      payments: delegating('transfer', () => ({ to: 'Bob', amount: 500 })),
    },
  });
}

/** Options of {@link startChatApp}. */
export interface ChatAppOptions {
  /** The SQLite file of continuations; a restarted app over the same file resumes them. */
  database: string;
  /** The `baseURL` of the models' server. */
  modelsURL: string;
  /** Called with each transfer the tool makes. */
  onTransfer?: (transfer: { to: string; amount: number }) => void;
  port?: number;
}

/** A running app: its address and how to stop it. */
export interface ChatApp {
  url: string;
  close(): Promise<void>;
}

/** Build the agents and serve the page and `POST /api/chat`. */
export async function startChatApp(options: ChatAppOptions): Promise<ChatApp> {
  const provider = createOpenAI({ baseURL: options.modelsURL, apiKey: 'scripted' });
  const transfer = tool({
    description: 'Send money',
    inputSchema: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: async (input) => {
      options.onTransfer?.(input);
      return { status: 'sent', ...input };
    },
  });
  const payments = continuable(
    new ToolLoopAgent({ model: provider.chat('payments'), tools: { transfer }, maxRetries: 0 }),
    { name: 'payments' },
  );
  const assistant = continuable(
    new ToolLoopAgent({
      model: provider.chat('assistant'),
      tools: { payments: agentTool(payments, { description: 'Makes payments' }) },
      maxRetries: 0,
    }),
    { name: 'assistant' },
  );
  const store = createSqliteStore({ path: options.database });
  // The runtime reads neutral messages; chatAgent streams AI SDK ones (see the adapter's tests).
  const runtime = createRuntime({ agents: [assistant], store });
  const route = chatRoute(runtime, { agent: assistant, context: () => ({ user: 'demo' }) });
  const server = createServer(async (req, res) => {
    let response: Response;
    try {
      response =
        req.method === 'POST' && req.url === '/api/chat'
          ? await route(await toRequest(req))
          : await page(req.url ?? '/');
    } catch (error) {
      response = new Response(`unhandled: ${(error as Error).message}`, { status: 500 });
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    res.writeHead(response.status, headers);
    if (response.body)
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => (server as Server).close(() => resolve()));
      await store.close();
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

async function toRequest(req: import('node:http').IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Request(`http://127.0.0.1${req.url}`, {
    method: 'POST',
    headers: req.headers as Record<string, string>,
    body: Buffer.concat(chunks),
  });
}

async function page(url: string): Promise<Response> {
  const pathname = url.split('?')[0]!;
  const path = pathname === '/' ? '/index.html' : pathname;
  if (path.includes('..')) return new Response('not found', { status: 404 });
  const body = await readFile(join(PAGE_DIR, path)).catch(() => undefined);
  if (!body) return new Response('not found', { status: 404 });
  return new Response(body, {
    headers: { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' },
  });
}
