/**
 * OpenAI adapter: (1) the per-step cost of the adapter's loop against a bare hand-written tool
 * loop, both over the same `openai` client and the same scripted HTTP server; (2) what suspending
 * and resuming a three-level approval costs, side by side with `@openai/agents` running the same
 * scenario against the same server: serialized bytes, serialize and restore median times.
 */
import { parseContinuation, serializeContinuation } from '@agent-continuations/core';
import { agentTool, createAgent, tool } from '@agent-continuations/openai';
import {
  lastToolResults,
  type Script,
  type ScriptedOpenAIServer,
  startScriptedOpenAIServer,
} from '@agent-continuations/testing';
import {
  Agent,
  tool as agentsTool,
  RunState,
  run as runAgents,
  setDefaultOpenAIClient,
  setOpenAIAPI,
  setTracingDisabled,
} from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { table } from './report';

const STEPS = 20;
const LOOP_REPEATS = 15;
const CODEC_REPEATS = 200;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const ms = (value: number) => `${value.toFixed(3)} ms`;

/** STEPS model calls: STEPS - 1 lookups, then a text answer. */
const loopScript: Script = (request) => {
  const turn = request.messages.filter((message) => message.role === 'assistant').length;
  if (turn < STEPS - 1) return { toolCalls: [{ name: 'lookup', args: { host: `web-${turn}` } }] };
  return 'All hosts checked.';
};
const lookupResult = (host: string) => ({ host, status: 'ok', load: [0.41, 0.37, 0.33] });

/** The loop an existing codebase has: call the model, run the tools, append, repeat. */
async function bareLoop(client: OpenAI, model: string): Promise<string> {
  const tools: OpenAI.Chat.ChatCompletionTool[] = [
    {
      type: 'function',
      function: {
        name: 'lookup',
        parameters: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] },
      },
    },
  ];
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You check hosts.' },
    { role: 'user', content: 'Check every host.' },
  ];
  for (;;) {
    const completion = await client.chat.completions.create({ model, messages, tools });
    const message = completion.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content ?? '';
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      const args = JSON.parse(call.function.arguments) as { host: string };
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: JSON.stringify(lookupResult(args.host)),
      });
    }
  }
}

/** The same loop over the Responses API. */
async function bareResponsesLoop(client: OpenAI, model: string): Promise<string> {
  const tools: OpenAI.Responses.FunctionTool[] = [
    {
      type: 'function',
      name: 'lookup',
      strict: false,
      parameters: { type: 'object', properties: { host: { type: 'string' } } },
    },
  ];
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Check every host.' }];
  for (;;) {
    const response = await client.responses.create({ model, instructions: 'You check hosts.', input, tools });
    input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) return response.output_text;
    for (const call of calls) {
      const args = JSON.parse(call.arguments) as { host: string };
      input.push({
        type: 'function_call_output',
        call_id: call.call_id,
        output: JSON.stringify(lookupResult(args.host)),
      });
    }
  }
}

async function perStep(server: ScriptedOpenAIServer, client: OpenAI): Promise<void> {
  server.setScript('loop', loopScript);
  const lookup = tool({
    name: 'lookup',
    parameters: z.object({ host: z.string() }),
    execute: ({ host }) => lookupResult(host),
  });
  const agents = {
    chat: createAgent({
      client,
      model: 'loop',
      name: 'ops',
      instructions: 'You check hosts.',
      tools: [lookup],
    }),
    responses: createAgent({
      client,
      model: 'loop',
      name: 'ops',
      instructions: 'You check hosts.',
      tools: [lookup],
      api: 'responses',
    }),
  };
  const contenders = {
    bare: () => bareLoop(client, 'loop'),
    bareResponses: () => bareResponsesLoop(client, 'loop'),
    chat: () => agents.chat.run('Check every host.'),
    responses: () => agents.responses.run('Check every host.'),
  };
  const samples: Record<keyof typeof contenders, number[]> = {
    bare: [],
    bareResponses: [],
    chat: [],
    responses: [],
  };
  for (const work of Object.values(contenders)) await work(); // warm-up
  // Interleaved, so drift in the machine's speed hits every contender alike.
  for (let i = 0; i < LOOP_REPEATS; i++) {
    for (const [name, work] of Object.entries(contenders) as [
      keyof typeof contenders,
      () => Promise<unknown>,
    ][]) {
      const start = performance.now();
      await work();
      samples[name].push((performance.now() - start) / STEPS);
    }
  }
  const bare = median(samples.bare);
  const chat = median(samples.chat);
  const responses = median(samples.responses);
  const bareResponses = median(samples.bareResponses);
  // Overhead as the median of per-run differences: runs go back to back, so load that slows one
  // run slows both sides of its difference.
  const overhead = (ours: number[], theirs: number[]) => median(ours.map((value, i) => value - theirs[i]!));
  console.log(
    `\nOpenAI adapter: time per step of a ${STEPS}-step tool loop over HTTP (median of ${LOOP_REPEATS} interleaved runs; overhead: median of per-run differences)`,
  );
  table('OpenAI adapter: time per step of a tool loop', [
    { loop: 'bare hand-written loop, chat', 'per step': ms(bare), overhead: '-' },
    {
      loop: 'createAgent, api: chat',
      'per step': ms(chat),
      overhead: ms(overhead(samples.chat, samples.bare)),
    },
    { loop: 'bare hand-written loop, responses', 'per step': ms(bareResponses), overhead: '-' },
    {
      loop: 'createAgent, api: responses',
      'per step': ms(responses),
      overhead: ms(overhead(samples.responses, samples.bareResponses)),
    },
  ]);
}

/** The three-level scenario's scripts, by model name: hr -> payroll -> benefits -> update_salary (approval). */
function hrScripts(): Record<string, Script> {
  const delegate = (name: string, input: string, done: string): Script => [
    { toolCalls: [{ name, args: { input } }] },
    (request) => `${done} ${String(lastToolResults(request.messages)[0]?.output)}`,
  ];
  return {
    'hr-model': delegate('payroll', 'Raise Ada by 3000', 'Done.'),
    'payroll-model': delegate('benefits', 'Give Ada a raise of 3000', 'Payroll updated.'),
    'benefits-model': [
      { toolCalls: [{ name: 'lookup_employee', args: { name: 'Ada' } }] },
      (request) => {
        const employee = lastToolResults(request.messages)[0]?.output as { id: string; salary: number };
        return {
          toolCalls: [
            { name: 'update_salary', args: { employeeId: employee.id, salary: employee.salary + 3000 } },
          ],
        };
      },
      (request) => `Salary updated: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
    ],
  };
}

const employee = { id: 'E-42', name: 'Ada', salary: 52_000 };

function ourHrAgent(client: OpenAI) {
  const lookupEmployee = tool({
    name: 'lookup_employee',
    parameters: z.object({ name: z.string() }),
    execute: () => employee,
  });
  const updateSalary = tool({
    name: 'update_salary',
    parameters: z.object({ employeeId: z.string(), salary: z.number() }),
    needsApproval: true,
    execute: (args) => ({ ...args, applied: true }),
  });
  const api = 'responses' as const;
  const benefits = createAgent({
    client,
    api,
    model: 'benefits-model',
    name: 'benefits',
    tools: [lookupEmployee, updateSalary],
  });
  const payroll = createAgent({
    client,
    api,
    model: 'payroll-model',
    name: 'payroll',
    tools: [agentTool(benefits)],
  });
  return createAgent({ client, api, model: 'hr-model', name: 'hr', tools: [agentTool(payroll)] });
}

function theirHrAgent() {
  const lookupEmployee = agentsTool({
    name: 'lookup_employee',
    description: 'Find an employee',
    parameters: z.object({ name: z.string() }),
    execute: async () => employee,
  });
  const updateSalary = agentsTool({
    name: 'update_salary',
    description: 'Change a salary',
    parameters: z.object({ employeeId: z.string(), salary: z.number() }),
    needsApproval: true,
    execute: async (args) => ({ ...args, applied: true }),
  });
  const benefits = new Agent({
    name: 'benefits',
    model: 'benefits-model',
    tools: [lookupEmployee, updateSalary],
  });
  const payroll = new Agent({
    name: 'payroll',
    model: 'payroll-model',
    tools: [benefits.asTool({ toolName: 'benefits', toolDescription: 'Salaries and benefits' })],
  });
  return new Agent({
    name: 'hr',
    model: 'hr-model',
    tools: [payroll.asTool({ toolName: 'payroll', toolDescription: 'Payroll' })],
  });
}

async function timeCodec(serialize: () => string, restore: (text: string) => unknown | Promise<unknown>) {
  const text = serialize();
  const write: number[] = [];
  const read: number[] = [];
  for (let i = 0; i < CODEC_REPEATS; i++) {
    let start = performance.now();
    serialize();
    write.push(performance.now() - start);
    start = performance.now();
    await restore(text);
    read.push(performance.now() - start);
  }
  return { bytes: Buffer.byteLength(text), serialize: median(write), restore: median(read) };
}

async function threeLevels(server: ScriptedOpenAIServer, client: OpenAI): Promise<void> {
  for (const [model, script] of Object.entries(hrScripts())) server.setScript(model, script);

  const ours = ourHrAgent(client);
  const paused = await ours.run('Please give Ada a 3000 raise.');
  if (paused.status !== 'suspended') throw new Error('expected our run to wait for approval');
  const ourCodec = await timeCodec(
    () => serializeContinuation(paused.continuation),
    (text) => parseContinuation(text),
  );
  const ourResume = await ours.resume(serializeContinuation(paused.continuation), {
    [paused.actions[0]!.id]: { type: 'approve' },
  });
  if (ourResume.status !== 'completed') throw new Error('expected our resumed run to complete');

  setDefaultOpenAIClient(client as never);
  setOpenAIAPI('responses');
  setTracingDisabled(true);
  const theirs = theirHrAgent();
  const interrupted = await runAgents(theirs, 'Please give Ada a 3000 raise.');
  const interruptions = interrupted.interruptions ?? [];
  if (interruptions.length === 0) throw new Error('expected @openai/agents to stop for the nested approval');
  const theirCodec = await timeCodec(
    () => interrupted.state.toString(),
    (text) => RunState.fromString(theirs, text),
  );
  const restored = await RunState.fromString(theirs, interrupted.state.toString());
  for (const item of restored.getInterruptions()) restored.approve(item);
  const finished = await runAgents(theirs, restored);

  console.log(
    `\nOpenAI adapter: suspend and resume at three levels (hr > payroll > benefits.update_salary), median of ${CODEC_REPEATS}`,
  );
  table('OpenAI adapter: suspend and resume at three levels', [
    {
      library: '@agent-continuations/openai',
      'serialized bytes': ourCodec.bytes,
      serialize: ms(ourCodec.serialize),
      restore: ms(ourCodec.restore),
      'resumed to': String(ourResume.output).slice(0, 40),
    },
    {
      library: '@openai/agents 0.14 (RunState)',
      'serialized bytes': theirCodec.bytes,
      serialize: ms(theirCodec.serialize),
      restore: ms(theirCodec.restore),
      'resumed to': String(
        finished.finalOutput ?? `${finished.interruptions?.length ?? 0} interruption(s) left`,
      ).slice(0, 40),
    },
  ]);
}

export async function run(): Promise<void> {
  const server = await startScriptedOpenAIServer({ scripts: {} });
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'bench', maxRetries: 0 });
  try {
    await perStep(server, client);
    await threeLevels(server, client);
  } finally {
    await server.close();
  }
}
