/**
 * What the two models say, for the local scripted OpenAI-compatible server. A real deployment
 * points ChatOpenAI at a real model instead; the agents do not change.
 */
import type { Script } from '@agent-continuations/testing/runtime';
import { lastToolResults } from '@agent-continuations/testing/runtime';

export const OPS_MODEL = 'ops-model';
export const DIAGNOSTICS_MODEL = 'diagnostics-model';

const ops: Script = [
  {
    text: 'Checking health and asking diagnostics.',
    toolCalls: [
      { name: 'check_health', args: { service: 'checkout' } },
      { name: 'diagnostics', args: { input: 'Why is checkout failing?' } },
    ],
  },
  (request) => {
    const findings = lastToolResults(request.messages).find((result) => result.toolName === 'diagnostics');
    return {
      toolCalls: [
        { name: 'restart_service', args: { service: 'checkout', reason: String(findings?.output ?? '') } },
      ],
    };
  },
  (request) => `Restarted checkout. ${String(lastToolResults(request.messages)[0]?.output ?? '')}`,
];

const diagnostics: Script = [
  {
    toolCalls: [
      { name: 'read_logs', args: { service: 'checkout' } },
      { name: 'capture_heap_dump', args: { service: 'checkout' } },
    ],
  },
  (request) => {
    const results = lastToolResults(request.messages);
    const logs = results.find((result) => result.toolName === 'read_logs')?.output;
    return `Memory leak: ${String(logs)}; heap dump ${String(results.find((r) => r.toolName === 'capture_heap_dump')?.output)}.`;
  },
];

export const scripts: Record<string, Script> = { [OPS_MODEL]: ops, [DIAGNOSTICS_MODEL]: diagnostics };
