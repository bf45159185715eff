/**
 * @agent-continuations/console: a web approval inbox over any continuation store, as a standard
 * `fetch` handler.
 */
export {
  type Access,
  type Console,
  type ConsoleOptions,
  createConsole,
  type DecisionChoice,
  type Identity,
  type RunInfo,
} from './console';
export { DEFAULT_MAX_ARGS_BYTES, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_REASON_LENGTH } from './context';
export { checkSchema } from './schema-form';
