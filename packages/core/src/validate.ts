/**
 * The fast path of reading a continuation: one walk over a parsed JSON value that answers whether
 * the full pipeline (the JSON walk of `checkJson`, the header check, the zod schema of `format.ts`)
 * would accept it, visiting each value once and allocating nothing. It only says yes or no: on a
 * no, the reader runs the full pipeline, whose error says what is wrong and where, so every error
 * code and message stays the schema's. A yes must never be given where the schema says no (a
 * property test holds the two together); a no where the schema says yes only costs time.
 *
 * The value must be what `JSON.parse` makes (plain objects and arrays, no `undefined`): text that
 * was parsed, or an in-memory value after it was checked and copied through JSON.
 */
import { PAYLOAD_KEYS } from './canonical';
import { CURRENT_VERSION, FORMAT } from './format';
import { MAX_JSON_DEPTH } from './json';

/**
 * An ISO date-time with seconds and a `Z` or `±hh:mm` offset, a real calendar date (February 29
 * only in leap years): what `z.iso.datetime({ offset: true })` accepts.
 */
const DATE_TIME = new RegExp(
  '^(?:' +
    // February 29 of a leap year: divisible by 4 and not by 100, or by 400.
    '(?:\\d\\d(?:[2468][048]|[13579][26]|0[48])|(?:[02468][048]|[13579][26])00)-02-29' +
    '|\\d{4}-(?:' +
    '(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])' +
    '|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)' +
    '|02-(?:0[1-9]|1\\d|2[0-8])' +
    '))' +
    'T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?' +
    '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$',
);

let visits = 0;

/**
 * How many values the fast path has visited since the process started: a count that grows with
 * the work done, for tests that guard the walk's complexity. Internal.
 */
export function validationVisits(): number {
  return visits;
}

type Record_ = Record<string, unknown>;

function isRecord(value: unknown): value is Record_ {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Whether `value` is JSON the reader accepts at `depth`: finite numbers, nesting within
 * {@link MAX_JSON_DEPTH}; outside the user's data (`data` false) a `__proto__` key is refused.
 * Recursive, but never past the depth bound.
 */
function isJson(value: unknown, depth: number, data: boolean): boolean {
  visits++;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isJson(value[i], depth + 1, data)) return false;
    return true;
  }
  const record = value as Record_;
  for (const key of Object.keys(record)) {
    if (!data && key === '__proto__') return false;
    if (!isJson(record[key], depth + 1, data || PAYLOAD_KEYS.has(key))) return false;
  }
  return true;
}

/** A JSON object (the schema's `record`): not an array, not null. */
function isJsonObject(value: unknown, depth: number): boolean {
  return isRecord(value) && isJson(value, depth, true);
}

/** A part of a user message (text, image, file) or of an assistant's (text, file, reasoning, tool call). */
function isPart(value: unknown, depth: number, assistant: boolean): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  const type = value.type;
  let seen = 0;
  for (const key of Object.keys(value)) {
    const member = value[key];
    switch (key) {
      case 'type':
        break;
      case 'providerMetadata':
        if (!isJsonObject(member, depth + 1)) return false;
        break;
      case 'text':
        if ((type !== 'text' && type !== 'reasoning') || typeof member !== 'string') return false;
        seen++;
        break;
      case 'image':
        if (type !== 'image' || typeof member !== 'string') return false;
        seen++;
        break;
      case 'data':
        if (type !== 'file' || typeof member !== 'string') return false;
        seen++;
        break;
      case 'mediaType':
        if ((type !== 'file' && type !== 'image') || typeof member !== 'string') return false;
        if (type === 'file') seen++;
        break;
      case 'filename':
        if (type !== 'file' || typeof member !== 'string') return false;
        break;
      case 'toolCallId':
      case 'toolName':
        if ((type !== 'tool-call' && type !== 'tool-result') || !isId(member)) return false;
        seen++;
        break;
      case 'args':
        if (type !== 'tool-call' || !isJson(member, depth + 1, true)) return false;
        seen++;
        break;
      case 'output':
        if (type !== 'tool-result' || !isJson(member, depth + 1, true)) return false;
        seen++;
        break;
      case 'isError':
        if (type !== 'tool-result' || typeof member !== 'boolean') return false;
        break;
      default:
        return false;
    }
  }
  switch (type) {
    case 'text':
      return seen === 1;
    case 'image':
      return !assistant && seen === 1;
    case 'file':
      return seen === 2;
    case 'reasoning':
      return assistant && seen === 1;
    case 'tool-call':
      return assistant && seen === 3;
    case 'tool-result':
      // Only a tool message holds results; it checks them itself.
      return false;
    default:
      return false;
  }
}

function isToolResult(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH || value.type !== 'tool-result') return false;
  let seen = 0;
  for (const key of Object.keys(value)) {
    const member = value[key];
    switch (key) {
      case 'type':
        break;
      case 'toolCallId':
      case 'toolName':
        if (!isId(member)) return false;
        seen++;
        break;
      case 'output':
        if (!isJson(member, depth + 1, true)) return false;
        seen++;
        break;
      case 'isError':
        if (typeof member !== 'boolean') return false;
        break;
      case 'providerMetadata':
        if (!isJsonObject(member, depth + 1)) return false;
        break;
      default:
        return false;
    }
  }
  return seen === 3;
}

function isMessage(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  const role = value.role;
  if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') return false;
  let content = false;
  for (const key of Object.keys(value)) {
    const member = value[key];
    switch (key) {
      case 'role':
        break;
      case 'providerMetadata':
        if (!isJsonObject(member, depth + 1)) return false;
        break;
      case 'content':
        if (!isContent(role, member, depth + 1)) return false;
        content = true;
        break;
      default:
        return false;
    }
  }
  return content;
}

function isContent(role: string, value: unknown, depth: number): boolean {
  if (typeof value === 'string') return role !== 'tool';
  if (!Array.isArray(value) || role === 'system' || depth > MAX_JSON_DEPTH) return false;
  if (role === 'tool') {
    for (let i = 0; i < value.length; i++) if (!isToolResult(value[i], depth + 1)) return false;
    return true;
  }
  const assistant = role === 'assistant';
  for (let i = 0; i < value.length; i++) {
    if (!isPart(value[i], depth + 1, assistant)) return false;
  }
  return true;
}

function isPending(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  const kind = value.kind;
  if (kind !== 'approval' && kind !== 'input' && kind !== 'agent') return false;
  let seen = 0;
  for (const key of Object.keys(value)) {
    const member = value[key];
    switch (key) {
      case 'kind':
        break;
      case 'toolCallId':
      case 'toolName':
        if (!isId(member)) return false;
        seen++;
        break;
      case 'args':
        if (!isJson(member, depth + 1, true)) return false;
        seen++;
        break;
      case 'approved':
        if (typeof member !== 'boolean') return false;
        break;
      case 'journal':
        if (!Array.isArray(member) || !isJson(member, depth + 1, true)) return false;
        break;
      case 'deadline':
        if (typeof member !== 'string' || !DATE_TIME.test(member)) return false;
        break;
      case 'request':
        if (kind !== 'input' || !isJson(member, depth + 1, true)) return false;
        seen++;
        break;
      case 'child':
        if (kind !== 'agent' || !isLevel(member, depth + 1)) return false;
        seen++;
        break;
      default:
        return false;
    }
  }
  return seen === (kind === 'approval' ? 3 : 4);
}

function isDone(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  let seen = 0;
  for (const key of Object.keys(value)) {
    const member = value[key];
    switch (key) {
      case 'toolCallId':
      case 'toolName':
        if (!isId(member)) return false;
        seen++;
        break;
      case 'output':
        if (!isJson(member, depth + 1, true)) return false;
        seen++;
        break;
      case 'isError':
        if (typeof member !== 'boolean') return false;
        break;
      default:
        return false;
    }
  }
  return seen === 3;
}

const AUDIT_TYPES: ReadonlySet<unknown> = new Set(['approve', 'reject', 'input']);

function isAudit(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  let seen = 0;
  for (const key of Object.keys(value)) {
    const member = value[key];
    switch (key) {
      case 'actionId':
      case 'toolName':
      case 'toolCallId':
        if (!isId(member)) return false;
        seen++;
        break;
      case 'type':
        if (!AUDIT_TYPES.has(member)) return false;
        seen++;
        break;
      case 'at':
        if (typeof member !== 'string') return false;
        seen++;
        break;
      case 'by':
      case 'reason':
        if (typeof member !== 'string') return false;
        break;
      case 'args':
      case 'editedArgs':
      case 'value':
        if (!isJson(member, depth + 1, true)) return false;
        break;
      default:
        return false;
    }
  }
  return seen === 5;
}

function isAgentRef(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  let seen = 0;
  for (const key of Object.keys(value)) {
    const member = value[key];
    switch (key) {
      case 'name':
      case 'framework':
        if (!isId(member)) return false;
        seen++;
        break;
      case 'fingerprint':
        if (typeof member !== 'string') return false;
        break;
      default:
        return false;
    }
  }
  return seen === 2;
}

/** Usage is the one open object of the format: unknown members are allowed (and left as they are). */
function isUsage(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  if (!isCount(value.inputTokens) || !isCount(value.outputTokens) || !isCount(value.totalTokens))
    return false;
  for (const key of Object.keys(value)) {
    if (key === 'inputTokens' || key === 'outputTokens' || key === 'totalTokens') continue;
    if (key === '__proto__' || !isJson(value[key], depth + 1, PAYLOAD_KEYS.has(key))) return false;
  }
  return true;
}

const PENDING_KINDS: ReadonlySet<unknown> = new Set(['approval', 'input', 'agent']);

function isSuspendReason(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  const type = value.type;
  let list: unknown;
  for (const key of Object.keys(value)) {
    if (key === 'type') continue;
    if ((key === 'kinds' && type === 'actions') || (key === 'predicates' && type === 'predicate')) {
      list = value[key];
      continue;
    }
    return false;
  }
  if (type === 'checkpoint') return true;
  if (type !== 'actions' && type !== 'predicate') return false;
  if (!Array.isArray(list) || depth + 1 > MAX_JSON_DEPTH) return false;
  for (const item of list) {
    visits++;
    if (type === 'actions' ? !PENDING_KINDS.has(item) : typeof item !== 'string') return false;
  }
  return true;
}

function isSeal(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  let seen = 0;
  for (const key of Object.keys(value)) {
    const member = value[key];
    switch (key) {
      case 'alg':
        if (member !== 'HMAC-SHA256') return false;
        seen++;
        break;
      case 'mac':
        if (!isId(member)) return false;
        seen++;
        break;
      case 'keyId':
        if (typeof member !== 'string') return false;
        break;
      default:
        return false;
    }
  }
  return seen === 2;
}

/** Every item of `list` passes `check` one level below the array. */
function isListOf(list: unknown, depth: number, check: (item: unknown, depth: number) => boolean): boolean {
  if (!Array.isArray(list) || depth > MAX_JSON_DEPTH) return false;
  for (let i = 0; i < list.length; i++) if (!check(list[i], depth + 1)) return false;
  return true;
}

/** Members a continuation must have, each counted once when valid. */
const REQUIRED = 14;

function isLevel(value: unknown, depth: number): boolean {
  visits++;
  if (!isRecord(value) || depth > MAX_JSON_DEPTH) return false;
  // The header first, as the full pipeline does: another format or version is never valid here.
  if (value.format !== FORMAT || value.version !== CURRENT_VERSION) return false;
  let seen = 0;
  for (const key of Object.keys(value)) {
    const member = value[key];
    let ok: boolean;
    switch (key) {
      case 'format':
      case 'version':
        ok = true;
        break;
      case 'id':
      case 'runId':
        ok = isId(member);
        break;
      case 'agent':
        ok = isAgentRef(member, depth + 1);
        break;
      case 'messages':
        ok = isListOf(member, depth + 1, isMessage);
        break;
      case 'pending':
        ok = isListOf(member, depth + 1, isPending);
        break;
      case 'done':
        ok = isListOf(member, depth + 1, isDone);
        break;
      case 'step':
        ok = isCount(member);
        break;
      case 'usage':
        ok = isUsage(member, depth + 1);
        break;
      case 'suspendedBy':
        ok = isSuspendReason(member, depth + 1);
        break;
      case 'metadata':
        ok = isJsonObject(member, depth + 1);
        break;
      case 'decisions':
        ok = isListOf(member, depth + 1, isAudit);
        break;
      case 'createdAt':
        ok = typeof member === 'string' && DATE_TIME.test(member);
        break;
      case 'state':
        if (!isJson(member, depth + 1, true)) return false;
        continue;
      case 'seal':
        if (!isSeal(member, depth + 1)) return false;
        continue;
      default:
        return false;
    }
    if (!ok) return false;
    seen++;
  }
  return seen === REQUIRED;
}

/**
 * Whether the reader's full pipeline would accept `value` (a parsed JSON value) as a continuation
 * of the current version, at every depth. See the module comment.
 *
 * @example
 * ```ts
 * const value = JSON.parse(text);
 * if (!isValidContinuation(value)) fullCheck(value); // throws the precise error
 * ```
 */
export function isValidContinuation(value: unknown): boolean {
  return isLevel(value, 0);
}
