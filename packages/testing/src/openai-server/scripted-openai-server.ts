/**
 * A local OpenAI-compatible HTTP server driven by scripts: real SDK clients (`openai`, the Vercel
 * AI SDK's OpenAI provider, LangChain's `ChatOpenAI`) talk to it over HTTP with no network.
 *
 * It serves `POST /v1/chat/completions` and `POST /v1/responses`, streaming (SSE) and not. Each
 * request is routed by its `model` field to a script, which sees the neutral request (the same
 * `Script` as `scriptedModel`, so a script replies the same on the wire and in-process).
 * Responses continued by `previous_response_id` or `item_reference` are resolved from what the
 * server sent before.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelRequest, ModelResponse, ToolCallPart } from '@agent-continuations/core';
import { type Script, scriptedModel } from '../scripted-model';
import { type ChatRequestBody, chatChunks, chatCompletion, chatRequestToModelRequest } from './chat-wire';
import {
  outputItems,
  type ResponsesRequestBody,
  responseEvents,
  responseObject,
  responsesRequestToModelRequest,
} from './responses-wire';

/** Options of {@link startScriptedOpenAIServer}. */
export interface ScriptedOpenAIServerOptions {
  /** Scripts by model name: each request runs the script named by its `model` field. */
  scripts: Record<string, Script>;
  /** The script for a model name not in `scripts`; without it such a request gets HTTP 404. */
  fallback?: Script;
  /**
   * The wire text of a tool call's arguments: return a string to send it verbatim (e.g. malformed
   * JSON to test recovery), or `undefined` for `JSON.stringify(args)`.
   */
  rawArguments?: (call: ToolCallPart, model: string) => string | undefined;
}

/** One HTTP request the server received. */
export interface RecordedRequest {
  method: string;
  /** The path, e.g. `/v1/chat/completions`. */
  path: string;
  /** The parsed JSON body (`null` when it was not JSON). */
  body: any;
  model: string | undefined;
  stream: boolean;
  /** The neutral request the script saw (absent for requests that failed before the script). */
  modelRequest?: ModelRequest;
  /** The HTTP status the server answered with. */
  status: number;
}

/** A running scripted server. */
export interface ScriptedOpenAIServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `http://127.0.0.1:<port>/v1`: the `baseURL` of OpenAI clients. */
  readonly baseURL: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /**
   * Answer the next `count` requests with an error status (500 by default; 429 for rate limits)
   * instead of running the script. Retrying clients see each failure.
   */
  fail(count: number, options?: { status?: number; message?: string }): void;
  /** Add or replace the script of a model. */
  setScript(model: string, script: Script): void;
  /** Stop listening and drop open connections. */
  close(): Promise<void>;
}

/**
 * Start a scripted OpenAI-compatible server on 127.0.0.1 with a random port.
 *
 * @example
 * ```ts
 * const server = await startScriptedOpenAIServer({
 *   scripts: { 'accounts-model': [{ toolCalls: [{ name: 'lookup', args: { id: 'A1' } }] }, 'Done.'] },
 * });
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 * const reply = await client.chat.completions.create({ model: 'accounts-model', messages: [{ role: 'user', content: 'hi' }] });
 * await server.close();
 * ```
 */
export async function startScriptedOpenAIServer(
  options: ScriptedOpenAIServerOptions,
): Promise<ScriptedOpenAIServer> {
  const models = new Map(
    Object.entries(options.scripts).map(([name, script]) => [name, scriptedModel(script)]),
  );
  const fallback = options.fallback ? scriptedModel(options.fallback) : undefined;
  const requests: RecordedRequest[] = [];
  const failures: { status: number; message: string }[] = [];
  const known = new Map<string, any>();
  // Each response's whole conversation (earlier items, input, output), for `previous_response_id`.
  const conversations = new Map<string, any[]>();
  // Unique across server instances (and so across processes): a framework that keys messages by
  // response id, like LangGraph's message reducer, must never see one id twice in a transcript.
  const instance = crypto.randomUUID().slice(0, 8);
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_${instance}${(++counter).toString().padStart(6, '0')}`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const text = await readBody(req);
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      body,
      model: typeof body?.model === 'string' ? body.model : undefined,
      stream: body?.stream === true,
      status: 200,
    };
    requests.push(record);
    const answer = (status: number, payload: object, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };

    const isChat = path === '/v1/chat/completions' || path === '/chat/completions';
    const isResponses = path === '/v1/responses' || path === '/responses';
    if (req.method !== 'POST' || (!isChat && !isResponses)) {
      return answer(404, apiError(`No route for ${req.method} ${path}.`, 'invalid_request_error'));
    }
    if (body === null || typeof body !== 'object')
      return answer(400, apiError('The body is not JSON.', 'invalid_request_error'));
    const failure = failures.shift();
    if (failure) {
      // Retry right away: the client's backoff would otherwise slow tests down.
      return answer(
        failure.status,
        apiError(failure.message, failure.status === 429 ? 'rate_limit_exceeded' : 'server_error'),
        {
          'retry-after-ms': '5',
        },
      );
    }
    const model = record.model ?? '';
    const scripted = models.get(model) ?? fallback;
    if (!scripted)
      return answer(
        404,
        apiError(`No script for model "${model}".`, 'invalid_request_error', 'model_not_found'),
      );

    let modelRequest: ModelRequest;
    let response: ModelResponse;
    try {
      if (isResponses && body.previous_response_id && !conversations.has(body.previous_response_id)) {
        return answer(
          404,
          apiError(
            `No response ${body.previous_response_id} on this server.`,
            'invalid_request_error',
            'previous_response_not_found',
          ),
        );
      }
      modelRequest = isChat
        ? chatRequestToModelRequest(body)
        : responsesRequestToModelRequest(body, known, conversations.get(body.previous_response_id) ?? []);
      record.modelRequest = modelRequest;
      response = await scripted.generate(modelRequest);
    } catch (error) {
      return answer(
        400,
        apiError(
          `The script failed: ${error instanceof Error ? error.message : String(error)}`,
          'invalid_request_error',
        ),
      );
    }
    const wire = {
      rawArguments: options.rawArguments
        ? (call: ToolCallPart) => options.rawArguments!(call, model)
        : undefined,
    };

    if (isChat) {
      const id = nextId('chatcmpl');
      if (!record.stream) return answer(200, chatCompletion(response, model, id, wire));
      const includeUsage = (body as ChatRequestBody).stream_options?.include_usage === true;
      return sendEvents(
        res,
        chatChunks(response, model, id, { ...wire, includeUsage }).map((chunk) => ({ data: chunk })),
        true,
      );
    }
    const id = nextId('resp');
    const output = outputItems(response, nextId, wire);
    for (const item of output) known.set(item.id, item);
    const input =
      typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
    conversations.set(id, [...(conversations.get(body.previous_response_id) ?? []), ...input, ...output]);
    const request = body as ResponsesRequestBody;
    if (!record.stream)
      return answer(200, {
        ...responseObject(id, request, output, response.usage, 'completed'),
        output_text: textOf(output),
      });
    return sendEvents(
      res,
      responseEvents(id, request, output, response.usage).map((event) => ({
        event: event.type,
        data: event,
      })),
      false,
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(apiError(String(error), 'server_error')));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    requests,
    fail(count, failure = {}) {
      for (let i = 0; i < count; i++) {
        failures.push({
          status: failure.status ?? 500,
          message: failure.message ?? 'The scripted server was told to fail.',
        });
      }
    },
    setScript(model, script) {
      models.set(model, scriptedModel(script));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function sendEvents(res: ServerResponse, events: { event?: string; data: object }[], done: boolean): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const { event, data } of events) {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }
  if (done) res.write('data: [DONE]\n\n');
  res.end();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function apiError(message: string, type: string, code: string | null = null): object {
  return { error: { message, type, param: null, code } };
}

function textOf(output: any[]): string {
  return output
    .filter((item) => item.type === 'message')
    .flatMap((item) => item.content.map((part: any) => part.text ?? ''))
    .join('');
}
