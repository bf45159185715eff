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

/** The agents the console resumes, by name. */
export type AgentsByName = Record<string, ContinuableAgent<any, unknown>>;

interface ToolLike {
  inputSchema?: unknown;
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

/** A JSON Schema from a tool's `inputSchema`: plain JSON Schema, or an AI SDK schema wrapper. */
function jsonSchemaOf(value: unknown): JsonSchema | undefined {
  if (!isRecord(value)) return undefined;
  if (isRecord((value as { jsonSchema?: unknown }).jsonSchema)) {
    return (value as { jsonSchema: JsonSchema }).jsonSchema;
  }
  if (typeof value.type === 'string' || isRecord(value.properties)) return value as JsonSchema;
  return undefined;
}

/** The JSON Schema of the arguments of `action`'s tool, when the console can find it. */
export function actionSchema(
  agents: AgentsByName | undefined,
  continuation: Continuation,
  action: Action,
): JsonSchema | undefined {
  if (!agents) return undefined;
  let agent: unknown = Object.hasOwn(agents, continuation.agent.name)
    ? agents[continuation.agent.name]
    : undefined;
  for (const [index, segment] of action.path.entries()) {
    const tool = toolsOf(agent)?.(segment.toolName);
    if (index === action.path.length - 1) {
      const found = jsonSchemaOf(tool?.inputSchema);
      if (found) return found;
      break;
    }
    agent = tool?.agent;
  }
  const owner = Object.hasOwn(agents, action.agent) ? agents[action.agent] : undefined;
  return jsonSchemaOf(toolsOf(owner)?.(action.toolName)?.inputSchema);
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
