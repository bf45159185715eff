/**
 * @agent-continuations/testing: deterministic scripted models, the adapter conformance suite and
 * the store contract suite.
 */
export {
  firstUserText,
  lastToolResults,
  SCRIPTED_USAGE,
  type Script,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptedTurn,
  scriptedModel,
  toResponse,
} from './scripted-model';
