/**
 * @agent-continuations/console: a web approval inbox over any continuation store, as a standard
 * `fetch` handler.
 */
export {
  type Access,
  type ActionPolicy,
  type Console,
  type ConsoleOptions,
  createConsole,
  type DecisionChoice,
  type Identity,
} from './console';
export { checkSchema } from './schema-form';
