import { startScriptedOpenAIServer } from '@agent-continuations/testing';
import { FRAMEWORKS } from './frameworks';
import { handoffScript } from './handoff-scenario';
import { suspendInSource } from './handoff-source';
import { runHandoffJobs } from './handoff-worker';

const server = await startScriptedOpenAIServer({ scripts: {}, fallback: handoffScript });
for (const from of FRAMEWORKS) {
  const s = await suspendInSource(from, server.baseURL, `src:${from}`);
  for (const to of FRAMEWORKS) {
    await runHandoffJobs(to, server.baseURL, [
      { label: 'x', model: `tgt:${from}>${to}`, continuation: s.continuation },
    ]);
    const bodies = server.requests
      .filter((r) => r.model === `tgt:${from}>${to}`)
      .map((r) => JSON.stringify(r.body));
    const keys = [
      'ac_tool_call_metadata',
      '"metadata"',
      'itemId',
      '"langchain"',
      'item_reference',
      '"raw"',
    ].filter((k) => bodies.some((b) => b.includes(k)));
    console.log(from, '->', to, keys.join(' '));
  }
}
await server.close();
