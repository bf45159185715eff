/**
 * `list` and `show`: what waits in a store, and one continuation in full.
 */
import {
  type Action,
  type Continuation,
  ContinuationError,
  isContinuationError,
  type ListFilter,
  listActions,
  type RunOutcome,
  type StoredStatus,
  type StoredSummary,
} from '@agent-continuations/core';
import { type Command, type CommandContext, type CommandOutput, stringOption } from './context';
import { json, pendingTree, treeLines } from './tree';
import { UsageError } from './usage-error';

const STATUSES: readonly StoredStatus[] = [
  'suspended',
  'claimed',
  'completed',
  'expired',
  'failed',
  'cancelled',
];
/** Statuses whose record still waits for someone: its actions are listed. */
const WAITING: ReadonlySet<StoredStatus> = new Set(['suspended', 'claimed', 'expired', 'failed']);

/** `list`: the store's continuations (pending ones by default), each with its actions. */
export const list: Command = {
  usage: 'list [--agent NAME] [--status STATUS[,STATUS]|all] [--limit N] [--cursor CURSOR] [--newest-first]',
  summary: 'pending continuations and their actions, oldest first (or newest first)',
  operands: { min: 0, max: 0 },
  options: {
    agent: { type: 'string' },
    status: { type: 'string' },
    limit: { type: 'string' },
    cursor: { type: 'string' },
    'newest-first': { type: 'boolean' },
  },
  async run(context) {
    const store = await context.store();
    const filter: ListFilter = { status: statusFilter(stringOption(context.values, 'status')) };
    if (filter.status === undefined) delete filter.status;
    const agent = stringOption(context.values, 'agent');
    if (agent !== undefined) filter.agentName = agent;
    const limit = stringOption(context.values, 'limit');
    if (limit !== undefined) {
      if (!/^[1-9]\d{0,5}$/.test(limit))
        throw new UsageError(`--limit must be a positive integer, not "${limit}".`);
      filter.limit = Number(limit);
    }
    const cursor = stringOption(context.values, 'cursor');
    if (cursor !== undefined) filter.cursor = cursor;
    const newestFirst = context.values['newest-first'] === true;
    if (newestFirst) filter.order = 'desc';
    const page = await store.list(filter);
    const items = await Promise.all(
      page.items.map(async (summary) => ({ ...summary, ...(await actionsOf(context, summary)) })),
    );
    const lines: string[] = [];
    for (const item of items) {
      lines.push(`${item.id}  ${item.status}  ${item.agentName}  ${item.createdAt}  run ${item.runId}`);
      if (item.error) lines.push(`  error: ${item.error}`);
      if (item.resumedBy)
        lines.push(`  ${item.status === 'cancelled' ? 'cancelled' : 'resumed'} by ${item.resumedBy}`);
      if (item.reason) lines.push(`  reason: ${item.reason}`);
      if (item.actionsError) lines.push(`  actions unavailable: ${item.actionsError}`);
      for (const action of item.actions ?? []) lines.push(`  ${actionLine(action)}`);
    }
    if (items.length === 0) lines.push('No continuations match.');
    if (page.cursor) lines.push(`More: add --cursor ${page.cursor}${newestFirst ? ' --newest-first' : ''}`);
    return { json: { items, ...(page.cursor ? { cursor: page.cursor } : {}) }, text: lines.join('\n') };
  },
};

/** `show <id>`: status, the action tree with arguments at each level, the audit trail. */
export const show: Command = {
  usage: 'show <id>',
  summary: 'one continuation: status, the chain of agents down to each action, the audit trail',
  operands: { min: 1, max: 1 },
  options: {},
  async run(context): Promise<CommandOutput> {
    const id = context.operands[0]!;
    const store = await context.store();
    const stored = await store.load(id);
    if (!stored) throw notFound(id);
    const { continuation, ...summary } = stored;
    const run = (await store.list({ runId: continuation.runId, limit: 100 })).items
      .filter((item) => item.id !== id)
      .map(({ id: other, status, createdAt }) => ({ id: other, status, createdAt }));
    const actions = listActions(continuation);
    const tree = pendingTree(continuation);
    const outcome =
      summary.status === 'suspended' ? undefined : await (await context.runtime()).outcome(stored);
    const decided = outcome?.decisions ?? [];
    const result = {
      ...summary,
      agent: continuation.agent,
      step: continuation.step,
      usage: continuation.usage,
      suspendedBy: continuation.suspendedBy,
      sealed: continuation.seal !== undefined,
      messages: continuation.messages.length,
      actions,
      tree,
      decisions: continuation.decisions,
      decided,
      results: outcome?.results ?? [],
      ...(outcome?.output !== undefined ? { output: outcome.output } : {}),
      run,
    };
    return { json: result, text: showText(result, continuation) };
  },
};

function showText(
  result: Omit<StoredSummary, 'agentName'> & {
    agent: Continuation['agent'];
    step: number;
    usage: Continuation['usage'];
    sealed: boolean;
    messages: number;
    actions: Action[];
    tree: ReturnType<typeof pendingTree>;
    decisions: Continuation['decisions'];
    decided: Continuation['decisions'];
    results: RunOutcome['results'];
    output?: RunOutcome['output'];
    run: Array<{ id: string; status: StoredStatus; createdAt: string }>;
  },
  continuation: Continuation,
): string {
  const lines = [
    `continuation ${result.id}`,
    `  status     ${result.status}${result.status === 'completed' ? ' (already resumed: nothing here is pending)' : ''}`,
    `  run        ${result.runId}`,
    `  agent      ${result.agent.name} (${result.agent.framework})`,
    `  created    ${result.createdAt}${result.expiresAt ? `, expires ${result.expiresAt}` : ''}`,
    `  stopped by ${reason(continuation)}`,
    `  step ${result.step}, ${result.usage.totalTokens} tokens, ${result.messages} messages${result.sealed ? ', sealed' : ''}`,
  ];
  if (result.error) lines.push(`  error      ${result.error}`);
  if (result.resumedBy) lines.push(`  resumed by ${result.resumedBy}`);
  if (Object.keys(result.metadata).length > 0) lines.push(`  metadata   ${json(result.metadata)}`);
  lines.push('', `${result.actions.length} action(s):`);
  lines.push(`${result.agent.name} (${result.agent.framework}), step ${result.step}`);
  lines.push(...treeLines(result.tree));
  lines.push('', 'audit trail:');
  const trail = [...result.decisions, ...result.decided];
  if (trail.length === 0) {
    lines.push(
      result.status === 'suspended'
        ? '  (no decisions yet)'
        : result.resumedBy
          ? `  decided: resumed by ${result.resumedBy} (the store keeps no more of a run that completed)`
          : `  (${result.status}: no decision recorded in the store)`,
    );
  }
  for (const entry of trail) {
    const edited =
      entry.editedArgs === undefined ? '' : ` args ${json(entry.args)} -> ${json(entry.editedArgs)}`;
    const value = entry.value === undefined ? '' : ` value ${json(entry.value)}`;
    lines.push(
      `  ${entry.at}  ${entry.type} ${entry.actionId} (${entry.toolName}) by ${entry.by ?? '(unknown)'}` +
        `${entry.reason ? `: ${entry.reason}` : ''}${edited}${value}`,
    );
  }
  if (result.results.length > 0) {
    lines.push('', 'results of the decided calls:');
    for (const each of result.results)
      lines.push(`  ${each.callId} (${each.toolName}): ${json(each.output)}`);
  }
  if (result.output !== undefined) {
    lines.push(
      '',
      'final answer:',
      `  ${typeof result.output === 'string' ? result.output : json(result.output)}`,
    );
  } else if (result.status === 'completed' && result.results.length === 0) {
    lines.push(
      '',
      'final answer: not kept (the store keeps none of a run that completed; --log reads the checkpoint log)',
    );
  }
  if (result.run.length > 0) {
    lines.push('', 'other continuations of this run:');
    for (const other of result.run) lines.push(`  ${other.id}  ${other.status}  ${other.createdAt}`);
  }
  return lines.join('\n');
}

/** One action on one line: kind, id, the chain of agents, tool and arguments. */
export function actionLine(action: Action): string {
  const chain = action.path.map((segment) => segment.agent).join(' > ');
  const asks = action.kind === 'input' ? ` asks ${json(action.request ?? null)}` : '';
  const due = action.deadline === undefined ? '' : `  due ${action.deadline}`;
  const kind = action.inDoubt
    ? `${action.kind} (in doubt: approve runs it again, answer gives its result)`
    : action.kind;
  return `${kind} ${action.id}  ${chain} > ${action.toolName} ${json(action.args)}${asks}${due}`;
}

/** The error for an id that is not in the store. */
export function notFound(id: string): ContinuationError {
  return new ContinuationError('NOT_FOUND', `No continuation "${id}" in the store.`);
}

function reason(continuation: Continuation): string {
  const by = continuation.suspendedBy;
  if (by.type === 'actions') {
    return `waiting for ${by.kinds.map((kind) => (kind === 'agent' ? 'a sub-agent' : kind)).join(', ')}`;
  }
  if (by.type === 'predicate') return `predicate ${by.predicates.join(', ')} (resume needs no decision)`;
  return 'a checkpoint (resume needs no decision)';
}

async function actionsOf(
  context: CommandContext,
  summary: StoredSummary,
): Promise<{ actions?: Action[]; actionsError?: string }> {
  if (!WAITING.has(summary.status)) return {};
  try {
    const stored = await (await context.store()).load(summary.id);
    return stored ? { actions: listActions(stored.continuation) } : {};
  } catch (error) {
    // One unreadable record (e.g. encrypted with a key this process lacks) must not hide the rest.
    const code = isContinuationError(error) ? `${error.code}: ` : '';
    return { actionsError: `${code}${error instanceof Error ? error.message : String(error)}` };
  }
}

function statusFilter(text: string | undefined): StoredStatus[] | undefined {
  if (text === undefined) return ['suspended'];
  if (text === 'all') return undefined;
  const statuses = text.split(',').map((each) => each.trim());
  for (const status of statuses) {
    if (!STATUSES.includes(status as StoredStatus)) {
      throw new UsageError(`--status "${status}" is not one of ${STATUSES.join(', ')} or all.`);
    }
  }
  return statuses as StoredStatus[];
}
