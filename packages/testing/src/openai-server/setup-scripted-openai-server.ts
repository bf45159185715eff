/**
 * The scripted OpenAI-compatible server for a test file: started before its tests, closed after
 * them. Needs `vitest` (it registers the hooks), so only the package root exports it.
 */
import { afterAll, beforeAll } from 'vitest';
import {
  type ScriptedOpenAIServer,
  type ScriptedOpenAIServerOptions,
  startScriptedOpenAIServer,
} from './scripted-openai-server';

/**
 * Start a scripted server in `beforeAll` and close it in `afterAll` of the calling file or
 * `describe` block. The handle it returns reads through to the running server, so tests and
 * later hooks use it as they would the server itself; read before the server started, it throws.
 *
 * @example
 * ```ts
 * const server = setupScriptedOpenAIServer({ scripts: { 'bank-model': ['Done.'] } });
 *
 * it('answers', async () => {
 *   const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 *   // ...
 * });
 * ```
 */
export function setupScriptedOpenAIServer(options: ScriptedOpenAIServerOptions): ScriptedOpenAIServer {
  let server: ScriptedOpenAIServer | undefined;
  let closing: Promise<void> | undefined;
  const running = (): ScriptedOpenAIServer => {
    if (!server)
      throw new Error('The scripted server starts in beforeAll: read it in a test or a later hook.');
    return server;
  };
  // Once: a test may close the server itself before `afterAll` does.
  const close = (): Promise<void> => (closing ??= running().close());
  beforeAll(async () => {
    server = await startScriptedOpenAIServer(options);
  });
  afterAll(async () => {
    if (server) await close();
  });
  return {
    get url() {
      return running().url;
    },
    get baseURL() {
      return running().baseURL;
    },
    get requests() {
      return running().requests;
    },
    fail: (count, failure) => running().fail(count, failure),
    setScript: (model, script) => running().setScript(model, script),
    close,
  };
}
