/**
 * The ops agent: langchain's createAgent with a `restart_service` tool that needs approval (added
 * with requireApproval, the tool itself unchanged) and a diagnostics sub-agent (a createReactAgent
 * graph whose heap-dump tool needs approval too), wrapped with fromGraph. Every tool logs its
 * execution in the ledger under the core's idempotency key, read with getToolContext.
 */
import { agentTool, fromGraph, getToolContext, requireApproval } from '@agent-continuations/langgraph';
import { type ToolRunnableConfig, tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { z } from 'zod';
import type { Ledger } from './ledger';
import { DIAGNOSTICS_MODEL, OPS_MODEL } from './scripts';

export function buildOpsAgent(baseURL: string, ledger: Ledger) {
  const model = (name: string) =>
    new ChatOpenAI({ model: name, apiKey: 'local', maxRetries: 0, configuration: { baseURL } });
  // The key is the run id + tool-call id: the same in whichever process settles the call.
  const log = (tool: string, config: ToolRunnableConfig) =>
    ledger.record(tool, getToolContext(config).idempotencyKey);

  const readLogs = tool(
    async ({ service }, config) => {
      log('read_logs', config);
      return `${service}: OOMKilled 3 times in 10 minutes`;
    },
    {
      name: 'read_logs',
      description: 'Read recent logs of a service',
      schema: z.object({ service: z.string() }),
    },
  );
  const captureHeapDump = tool(
    async ({ service }, config) => {
      log('capture_heap_dump', config);
      return `saved to s3://dumps/${service}.heap`;
    },
    {
      name: 'capture_heap_dump',
      description: 'Pause a service briefly to dump its heap',
      schema: z.object({ service: z.string() }),
    },
  );
  const diagnostics = fromGraph(
    createReactAgent({
      llm: model(DIAGNOSTICS_MODEL),
      tools: requireApproval([readLogs, captureHeapDump], ['capture_heap_dump']),
      prompt: 'You find the cause of incidents.',
      version: 'v2',
    }),
    { name: 'diagnostics', description: 'Finds the cause of an incident' },
  );

  const checkHealth = tool(
    async ({ service }, config) => {
      log('check_health', config);
      return { service, healthy: false, errorRate: 0.31 };
    },
    { name: 'check_health', description: 'Health of a service', schema: z.object({ service: z.string() }) },
  );
  const restartService = tool(
    async ({ service }, config) => {
      log('restart_service', config);
      return `${service} restarted at generation 42`;
    },
    {
      name: 'restart_service',
      description: 'Restart a service',
      schema: z.object({ service: z.string(), reason: z.string() }),
    },
  );

  return fromGraph(
    createAgent({
      model: model(OPS_MODEL),
      tools: [checkHealth, ...requireApproval([restartService]), agentTool(diagnostics)],
      systemPrompt: 'You keep production services healthy.',
    }),
    { name: 'ops' },
  );
}
