/**
 * Mixed nesting: a root agent of one framework calls a middle agent of another, which calls a leaf
 * of a third. In one model turn the middle calls the leaf (which asks approval for `transfer`) and
 * its own `refund` (which asks approval too); the root ran `lookup_account` beside it.
 */
import type { ContinuableAgent } from '@agent-continuations/core';
import { type Counts, reportResults, type Script } from '@agent-continuations/testing';
import { z } from 'zod';
import { countedTool, lookupAccount, transfer } from './counted-tools';
import { type AgentSpec, buildAgent, type Framework } from './frameworks';

/** A chain of three frameworks, root first. */
export interface Chain {
  id: string;
  levels: readonly [Framework, Framework, Framework];
}

/** Six chains that put every adapter at every level, and an OpenAI Agents level at each position. */
export const CHAINS: readonly Chain[] = [
  { id: 'lg-ai-oc', levels: ['langgraph', 'vercel-ai', 'openai-chat'] },
  { id: 'or-lg-ai', levels: ['openai-responses', 'langgraph', 'vercel-ai'] },
  { id: 'ai-oc-lg', levels: ['vercel-ai', 'openai-chat', 'langgraph'] },
  { id: 'oa-lg-or', levels: ['openai-agents', 'langgraph', 'openai-responses'] },
  { id: 'ai-oa-lg', levels: ['vercel-ai', 'openai-agents', 'langgraph'] },
  { id: 'oc-ai-oa', levels: ['openai-chat', 'vercel-ai', 'openai-agents'] },
];

/** The same chain with every level built in the framework of the level above it (the root in the leaf's). */
export function rotated(chain: Chain): Chain {
  const [root, middle, leaf] = chain.levels;
  return { id: chain.id, levels: [middle, leaf, root] };
}

/** The scripts of a chain's three agents, by model name (the agent's name). */
export function chainScripts(chain: Chain): Record<string, Script> {
  return {
    [`${chain.id}-root`]: [
      {
        toolCalls: [
          { name: 'lookup_account', args: { account: 'A-1' } },
          { name: 'ask_middle', args: { input: 'refund order O-7 and pay Bob 50' } },
        ],
      },
      reportResults,
    ],
    [`${chain.id}-middle`]: [
      {
        toolCalls: [
          { name: 'ask_leaf', args: { input: 'pay Bob 50' } },
          { name: 'refund', args: { order: 'O-7', amount: 20 } },
        ],
      },
      reportResults,
    ],
    [`${chain.id}-leaf`]: [
      { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
      reportResults,
    ],
  };
}

/** Build the chain's root agent (and below it the middle and the leaf) with counted tools. */
export function buildChain(chain: Chain, counts: Counts, baseURL: string): ContinuableAgent<string, string> {
  const [rootKind, middleKind, leafKind] = chain.levels;
  const leaf: AgentSpec = {
    name: `${chain.id}-leaf`,
    model: `${chain.id}-leaf`,
    instructions: 'You move money.',
    tools: [transfer(counts)],
  };
  const refund = countedTool(
    counts,
    {
      name: 'refund',
      description: 'Refund an order',
      parameters: z.object({ order: z.string(), amount: z.number().positive() }),
      needsApproval: true,
    },
    ({ order, amount }) => ({ ok: true, order, amount }),
  );
  const middle: AgentSpec = {
    name: `${chain.id}-middle`,
    model: `${chain.id}-middle`,
    instructions: 'You handle refunds and delegate payments.',
    tools: [
      {
        kind: 'agent',
        name: 'ask_leaf',
        description: 'Delegate a payment',
        agent: buildAgent(leafKind, leaf, baseURL),
      },
      refund,
    ],
  };
  const root: AgentSpec = {
    name: `${chain.id}-root`,
    model: `${chain.id}-root`,
    instructions: 'You run customer cases.',
    tools: [
      lookupAccount(counts),
      {
        kind: 'agent',
        name: 'ask_middle',
        description: 'Delegate a customer case',
        agent: buildAgent(middleKind, middle, baseURL),
      },
    ],
  };
  return buildAgent(rootKind, root, baseURL);
}

/** The leaf's, the middle's and the root's final answers once both approvals ran. */
export function expectedOutputs(): { leaf: string; middle: string; root: string } {
  const leaf = 'done: transfer={"ok":true,"to":"bob","amount":50}';
  const middle = `done: ask_leaf=${JSON.stringify(leaf)} | refund={"ok":true,"order":"O-7","amount":20}`;
  const root = `done: lookup_account={"account":"A-1","balance":120} | ask_middle=${JSON.stringify(middle)}`;
  return { leaf, middle, root };
}
