import { readFile, writeFile } from 'node:fs/promises';
import {
  type Decisions,
  listActions,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { fromGraph, requireApproval } from '@agent-continuations/langgraph';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';

const readLogs = tool(
  async ({ service }) => {
    console.log(`reading the logs of ${service}`);
    return `${service}: OOMKilled 3 times in 10 minutes`;
  },
  { name: 'read_logs', description: 'Recent logs of a service', schema: z.object({ service: z.string() }) },
);
const restartService = tool(
  async ({ service }) => {
    console.log(`restarting ${service}`);
    return `${service} restarted`;
  },
  { name: 'restart_service', description: 'Restart a service', schema: z.object({ service: z.string() }) },
);

const llm = new ChatOpenAI({ model: 'gpt-4.1-mini' }); // reads OPENAI_API_KEY, and OPENAI_BASE_URL if set
const tools = requireApproval([restartService, readLogs], ['restart_service']);
const ops = fromGraph(createReactAgent({ llm, tools, version: 'v2' }), { name: 'ops' });

const first = await ops.run('checkout is failing, fix it');
if (first.status === 'suspended') {
  // The whole run is this JSON: keep it anywhere; this process may exit.
  await writeFile('continuation.json', serializeContinuation(first.continuation));
}

// Later, in any process that builds the same graph: decide what waits, and resume.
const saved = await readFile('continuation.json', 'utf8');
const decisions: Decisions = {};
for (const action of listActions(parseContinuation(saved))) {
  console.log(`approving ${action.toolName} ${JSON.stringify(action.args)}`);
  decisions[action.id] = { type: 'approve', by: 'ann@example.com' };
}
const done = await ops.resume(saved, decisions); // read_logs does not run again
console.log(done.status === 'completed' ? done.output : done.status);
