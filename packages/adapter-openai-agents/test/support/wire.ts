/**
 * What went out on the wire for one run: the request bodies the scripted server got for the models
 * named with a run's prefix, comparable across runs.
 */
import type { ScriptedOpenAIServer } from '@agent-continuations/testing';

/** The bodies for models named `<models>-…`, in order, with the prefix and the server's item ids taken out. */
export function bodiesOf(server: ScriptedOpenAIServer, models: string): string[] {
  return server.requests
    .filter((request) => request.model?.startsWith(`${models}-`))
    .map((request) =>
      JSON.stringify(request.body)
        .replaceAll(`${models}-`, '')
        // Item ids the server made up, which the SDK sends back as it got them.
        .replace(/"(msg|fc)_[0-9a-f]+"/g, '"$1_"'),
    );
}
