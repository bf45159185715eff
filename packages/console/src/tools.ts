/**
 * Finding an action's tool (its JSON Schema, its sub-agent) among the agents the console was given:
 * through the root agent's tools down the action's path, or by the owning agent's name.
 */
import type {
  Action,
  ContinuableAgent,
  Continuation,
  JsonSchema,
  JsonValue,
  PendingEntry,
} from '@agent-continuations/core';
import { isRecord } from './schema-form';

/** The agent of a name, when the console knows it. */
export type AgentsByName = (name: string) => ContinuableAgent<any, unknown> | undefined;

interface ToolLike {
  description?: unknown;
  inputSchema?: unknown;
  /** Core human tools (`humanTool({ response })`): JSON Schema of the answer. */
  responseSchema?: unknown;
  /** AI SDK tools: the schema of the result; a tool without `execute` is answered by a person. */
  outputSchema?: unknown;
  execute?: unknown;
  agent?: ContinuableAgent<any, unknown>;
}

/** The tools of an agent, if it exposes them (core agents: a Map; AI SDK agents: a record). */
function toolsOf(agent: unknown): ((name: string) => ToolLike | undefined) | undefined {
  if (!isRecord(agent)) return undefined;
  const tools = (agent as { tools?: unknown }).tools;
  if (tools instanceof Map) return (name) => tools.get(name) as ToolLike | undefined;
  if (isRecord(tools)) {
    return (name) => (Object.hasOwn(tools, name) ? (tools[name] as ToolLike) : undefined);
  }
  return undefined;
}

/**
 * A JSON Schema from a tool's schema: plain JSON Schema, an AI SDK schema wrapper (`jsonSchema()`),
 * or a schema library that describes itself as JSON Schema (Standard JSON Schema, e.g. zod 4).
 */
function jsonSchemaOf(value: unknown): JsonSchema | undefined {
  if (!isRecord(value)) return undefined;
  const wrapped = (value as { jsonSchema?: unknown }).jsonSchema;
  // A lazy wrapper may resolve to a promise: the form then falls back to JSON.
  if (isRecord(wrapped) && typeof (wrapped as { then?: unknown }).then !== 'function') {
    return wrapped as JsonSchema;
  }
  const standard = (value as { '~standard'?: unknown })['~standard'];
  if (isRecord(standard)) {
    const describe = isRecord(standard.jsonSchema) ? standard.jsonSchema.input : undefined;
    if (typeof describe !== 'function') return undefined;
    try {
      const described: unknown = describe.call(standard.jsonSchema, { target: 'draft-07' });
      if (!isRecord(described)) return undefined;
      const { $schema: _, ...schema } = described;
      return schema;
    } catch {
      return undefined;
    }
  }
  if (typeof value.type === 'string' || isRecord(value.properties)) return value as JsonSchema;
  return undefined;
}

/** The tool of `action` among `agents`: down the action's path, else by the owning agent's name. */
function actionTool(
  agents: AgentsByName,
  continuation: Continuation,
  action: Action,
  usable: (tool: ToolLike) => boolean,
): ToolLike | undefined {
  let agent: unknown = agents(continuation.agent.name);
  for (const [index, segment] of action.path.entries()) {
    const tool = toolsOf(agent)?.(segment.toolName);
    if (index === action.path.length - 1) {
      if (tool && usable(tool)) return tool;
      break;
    }
    agent = tool?.agent;
  }
  const tool = toolsOf(agents(action.agent))?.(action.toolName);
  return tool && usable(tool) ? tool : undefined;
}

/** The JSON Schema of the arguments of `action`'s tool, when the console can find it. */
export function actionSchema(
  agents: AgentsByName,
  continuation: Continuation,
  action: Action,
): JsonSchema | undefined {
  const tool = actionTool(agents, continuation, action, (each) => !!jsonSchemaOf(each.inputSchema));
  return tool ? jsonSchemaOf(tool.inputSchema) : undefined;
}

/**
 * The JSON Schema of the answer to `action`, an input request, when its tool is a human tool that
 * declares one: the core's `responseSchema` (`humanTool({ response })`), or an AI SDK tool's
 * `outputSchema` when it has no `execute`. An input asked from inside a running tool
 * (`ctx.requestInput`) has none.
 */
export function actionResponseSchema(
  agents: AgentsByName,
  continuation: Continuation,
  action: Action,
): JsonSchema | undefined {
  if (action.kind !== 'input') return undefined;
  const tool = actionTool(agents, continuation, action, (each) => !!responseSchemaOf(each));
  return tool ? responseSchemaOf(tool) : undefined;
}

/** The description of `action`'s tool, when the console can find the tool. */
export function actionDescription(
  agents: AgentsByName,
  continuation: Continuation,
  action: Action,
): string | undefined {
  const tool = actionTool(agents, continuation, action, (each) => typeof each.description === 'string');
  return typeof tool?.description === 'string' && tool.description ? tool.description : undefined;
}

function responseSchemaOf(tool: ToolLike): JsonSchema | undefined {
  if (tool.execute !== undefined || tool.agent !== undefined) return undefined;
  return jsonSchemaOf(tool.responseSchema) ?? jsonSchemaOf(tool.outputSchema);
}

/** One level of an action's chain: the agent, the tool it called, with which arguments. */
export interface ChainLevel {
  agent: string;
  toolName: string;
  toolCallId: string;
  args: JsonValue;
}

/** The chain from the root agent to `action`, with the arguments of the tool call at each level. */
export function actionChain(continuation: Continuation, action: Action): ChainLevel[] {
  const levels: ChainLevel[] = [];
  let current: Continuation | undefined = continuation;
  for (const segment of action.path) {
    const entry: PendingEntry | undefined = current?.pending.find(
      (pending) => pending.toolCallId === segment.toolCallId,
    );
    levels.push({
      agent: segment.agent,
      toolName: segment.toolName,
      toolCallId: segment.toolCallId,
      args: entry ? entry.args : null,
    });
    current = entry?.kind === 'agent' ? entry.child : undefined;
  }
  return levels;
}

/** The continuations of the pending sub-agents, depth first, with the path that leads to each. */
export function subAgentRuns(
  continuation: Continuation,
  path: string[] = [],
): Array<{ path: string[]; continuation: Continuation }> {
  const found: Array<{ path: string[]; continuation: Continuation }> = [];
  for (const entry of continuation.pending) {
    if (entry.kind !== 'agent') continue;
    const here = [...path, `${continuation.agent.name} › ${entry.toolName}`];
    found.push({ path: here, continuation: entry.child });
    found.push(...subAgentRuns(entry.child, here));
  }
  return found;
}

/** What the agent that owns `action` was asked: the first user message of its run, as text. */
export function actionRequest(continuation: Continuation, action: Action): string | undefined {
  let current: Continuation | undefined = continuation;
  for (const segment of action.path.slice(0, -1)) {
    const entry: PendingEntry | undefined = current?.pending.find(
      (pending) => pending.toolCallId === segment.toolCallId,
    );
    current = entry?.kind === 'agent' ? entry.child : undefined;
  }
  const message = current?.messages.find((each) => each.role === 'user');
  if (!message) return undefined;
  if (typeof message.content === 'string') return message.content;
  const parts = message.content as Array<{ type: string; text?: unknown }>;
  const text = parts
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
  return text || undefined;
}
