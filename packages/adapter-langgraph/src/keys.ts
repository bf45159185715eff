/**
 * The private keys this adapter passes through LangGraph's `configurable`, and the tag its own
 * interrupt payloads carry. Keys start with `__` so LangGraph keeps them out of checkpoint metadata.
 */

/** Tool-call id -> recorded tool result: calls that already ran and must not run again. */
export const DONE_KEY = '__ac_done';
/** Tool-call id -> the suspended child continuation (and decisions for it) of an `agentTool` call. */
export const CHILDREN_KEY = '__ac_children';
/**
 * Tool-call id -> the answer to this adapter's own approval or input wrapper, for a continuation
 * rebuilt from neutral messages (the graph never asked, so there is no interrupt to resume);
 * each answer is taken once.
 */
export const ANSWERS_KEY = '__ac_answers';
/** Tool-call id -> result, filled while the graph runs, read when it suspends. */
export const CAPTURE_KEY = '__ac_capture';
/** Run options that reach sub-agents run by `agentTool` (`allowChangedAgent`, inherited predicates, `deadlines`). */
export const CHILD_OPTIONS_KEY = '__ac_child_options';
/** `(call, event)`: a sub-agent's run event, forwarded to this run's observers and stream. */
export const EVENTS_KEY = '__ac_events';
/** Tool-call id -> the arguments a human edited it to run with, from the run's audit trail. */
export const EDITS_KEY = '__ac_edits';
/** The state key of the graph's messages channel. */
export const MESSAGES_KEY = '__ac_messages_key';
/** The run id, so nested agents derive theirs from it. */
export const RUN_ID_KEY = '__ac_run_id';
/** The run's `beforeStart`, awaited before each tool a tool node starts (a stored resume checks its lease there). */
export const BEFORE_START_KEY = '__ac_before_start';
/**
 * The start of the tool call a tool node is running: the run's `beforeStart` for it, awaited by the
 * tool's own `_call` right before its body, so that nothing runs between the lease check and the body.
 */
export const START_KEY = '__ac_start';
/** On an approval wrapper (`requireApproval`): the tool it wraps, whose body runs once approved. */
export const WRAPS = Symbol.for('agent-continuations.langgraph.wraps');

/** The tag on interrupt payloads made by this adapter's wrappers. */
export const MARK = 'agentContinuation';
