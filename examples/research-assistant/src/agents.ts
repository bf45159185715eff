/**
 * The research assistant: an orchestrator `ToolLoopAgent` that delegates to a researcher sub-agent
 * (itself a `ToolLoopAgent`) through `agentTool`. The researcher searches, then publishes its report,
 * and publishing needs a human's approval: an approval the plain AI SDK would lose inside a sub-agent.
 */
import { agentTool, continuable, getToolContext } from '@agent-continuations/vercel-ai';
import { ToolLoopAgent, tool } from 'ai';
import { z } from 'zod';
import { mockModel, task, toolOutputs } from './model';
import type { Publisher } from './publisher';

const findings: Record<string, string[]> = {
  default: [
    'Utility-scale solar fell below 30 USD/MWh in most sunny regions.',
    'Battery storage paired with solar doubled year on year.',
    'Grid interconnection queues are now the main bottleneck.',
  ],
};

export function buildResearcher(publisher: Publisher, counts: { search: number }) {
  const model = mockModel('researcher', (prompt) => {
    const outputs = toolOutputs(prompt);
    const published = outputs.get('publish_report') as { url?: string } | string | undefined;
    if (published !== undefined) {
      return {
        text:
          typeof published === 'string'
            ? `Not published: ${published}`
            : `Report published at ${published.url}`,
      };
    }
    const results = outputs.get('search_web') as string[] | undefined;
    if (results) {
      return {
        tool: 'publish_report',
        input: { title: `Solar market brief: ${task(prompt)}`, summary: results.join(' ') },
      };
    }
    return { tool: 'search_web', input: { query: task(prompt) } };
  });
  return continuable(
    new ToolLoopAgent({
      model,
      instructions: 'You research a topic on the web, then publish a short report.',
      tools: {
        search_web: tool({
          description: 'Search the web',
          inputSchema: z.object({ query: z.string() }),
          execute: async () => {
            counts.search++;
            return findings.default;
          },
        }),
        publish_report: tool({
          description: 'Publish a report on the company site',
          inputSchema: z.object({ title: z.string().min(5), summary: z.string() }),
          needsApproval: true,
          execute: async ({ title }, options) =>
            publisher.publish(title, getToolContext(options).idempotencyKey),
        }),
      },
    }),
    { name: 'researcher', description: 'Researches a topic and publishes a report' },
  );
}

/** The orchestrator's name, under which the store lists its continuations. */
export const AGENT_NAME = 'research-assistant';

export function buildAssistant(publisher: Publisher, counts = { search: 0 }) {
  const model = mockModel('assistant', (prompt) => {
    const report = toolOutputs(prompt).get('research');
    if (report !== undefined) return { text: `Done. ${String(report)}` };
    return { tool: 'research', input: { input: task(prompt) } };
  });
  return continuable(
    new ToolLoopAgent({
      model,
      instructions: 'You help the marketing team. Delegate research to the researcher.',
      tools: { research: agentTool(buildResearcher(publisher, counts)) },
    }),
    { name: AGENT_NAME },
  );
}
