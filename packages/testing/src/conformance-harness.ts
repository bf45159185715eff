/**
 * What an adapter hands the conformance suite: a way to build an agent of its framework from a
 * neutral description (a script for the model, and tools).
 */
import type { ContinuableAgent, JsonValue, SealConfig, SuspendWhen } from '@agent-continuations/core';
import type { z } from 'zod';
import type { Script } from './scripted-model';

/** What a conformance tool's `execute` may use; adapters map it to their framework's mechanism. */
export interface ConformanceToolContext {
  /** Ask a human and wait (the run suspends; the tool runs again from its start on resume). */
  requestInput(request: JsonValue): Promise<JsonValue>;
  /** `runId` + tool-call id. */
  idempotencyKey: string;
}

/** A tool, described neutrally; the adapter builds its framework's tool from it. */
export type ConformanceTool =
  | {
      kind: 'function';
      name: string;
      description: string;
      parameters: z.ZodObject;
      needsApproval?: boolean | ((args: any) => boolean);
      /** `false`: the tool must never run twice (the core's `ToolDefinition.idempotent`). */
      idempotent?: boolean;
      execute(args: any, ctx: ConformanceToolContext): Promise<JsonValue>;
    }
  | {
      /** No execute: the human's answer (validated by `response`) is the result. */
      kind: 'human';
      name: string;
      description: string;
      parameters: z.ZodObject;
      response: z.ZodType;
    }
  | {
      /** A sub-agent as a tool (the adapter's `agentTool`), taking `{ input: string }`. */
      kind: 'agent';
      name: string;
      description: string;
      agent: ContinuableAgent<any, any>;
    };

/** An agent, described neutrally. */
export interface ConformanceAgentSpec {
  name: string;
  instructions: string;
  /** What the model says; tool-call ids follow `call_<turn>_<index>`. */
  script: Script;
  tools: ConformanceTool[];
  suspendWhen?: SuspendWhen[];
  onReject?: 'continue' | 'end';
  /** The agent seals what it emits and refuses unsealed or altered continuations. */
  seal?: SealConfig;
}

/** Handed to `runConformanceSuite` by each adapter's test file. */
export interface ConformanceHarness {
  /** A label for the describe block, e.g. `openai (chat)`. */
  name: string;
  /** Build a fresh agent (a "new process" builds a new one from the same spec). */
  createAgent(
    spec: ConformanceAgentSpec,
  ): ContinuableAgent<string, any> | Promise<ContinuableAgent<string, any>>;
  /** Features the adapter cannot offer; their scenarios are skipped with the reason. */
  unsupported?: Partial<
    Record<'predicates' | 'requestInput' | 'humanTool' | 'editArgs' | 'rejectEnd' | 'seal', string>
  >;
  /** Called after each test, e.g. to close servers. */
  cleanup?(): void | Promise<void>;
}
