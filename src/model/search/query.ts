import { TASK_STATUSES } from '../../../contract/task';
import type { HistoryEntry } from '../history/history-types';
import type { Judgement, Judgements } from '../history/judgements';
import { indexOfKey, outputKey, taskIdOfKey } from '../history/output-key';
import { facetKeys, haystackOf, numberOf, ratioNumber, type Facet } from './entry-facets';

// The History's and the Gallery's search language (pure, no DOM). A query is terms separated by
// whitespace, all of which must hold:
// - a free word or a "quoted phrase" is found, case-insensitively, in the prompt, the negative prompt or
//   the task's title (as a substring, as the search always did: "ox" finds "fox");
// - `field<op>value` compares a field: model:, version:, category:, status:, media:, by:, seed:, ratio:,
//   the dates after:, before:, on:, the output's rating and tag, is:starred (the output starred, as the
//   Gallery's Starred filter keeps it), or any request param by its id
//   (steps:30, guidance>=7, style:anime). Operators `:` `=` `>=` `<=` `>` `<`; `rating:>=4` reads as
//   `rating>=4`. For text, `:` is "contains" and `=` "equals"; numbers compare as numbers;
// - a leading `-` negates a term (-tag:draft, -fox); a value with spaces is quoted (model:"Aurora XL"),
//   with \" and \\ inside quotes for a quote and a backslash. A quote left open runs to the end (the
//   user is still typing it).
// A malformed term (rating>=x, after:2026-13-01, model>3, status:nope, a field with no value) never
// throws and never matches everything in disguise: parseQuery reports it with a `problem` code (the UI
// shows its chip in an error style) and the search leaves it out, as if it were not typed. A word that
// looks like a field but is not one is a param id: `foo:bar` matches tasks whose param foo holds "bar",
// so a prompt's (word:1.2) is found quoted: "word:1.2". A word that starts with a digit (16:9) is text.

/** @internal The operators, longest first where one begins another (exported for its unit test). */
export const SEARCH_OPS = [':', '=', '>=', '<=', '>', '<'] as const;
type SearchOp = (typeof SEARCH_OPS)[number];

/** Why a term is left out of the search (the UI shows it; codes, not sentences). */
export type QueryProblem =
  /** Nothing after the operator, a lone "-", or "". */
  | 'empty-value'
  /** A comparison (or rating) needs a number: rating>=x, steps>lots. */
  | 'not-a-number'
  /** Not a real day or month: after:2026-13-01, on:yesterday. */
  | 'bad-date'
  /** The field does not take that operator: model>3, after>=2026-01-01, tag<2. */
  | 'bad-operator'
  /** status:, media: and is: take one of their values (or its start): status:nope. */
  | 'unknown-value';

/**
 * @internal A term as the UI builds one (a suggestion, a chip): termText writes it (the search box's
 * suggestions will; today its unit test).
 */
export type SearchTerm =
  | { kind: 'text'; value: string; negated: boolean }
  | {
      kind: 'field';
      /** In lowercase: a SEARCH_FIELDS id or a param id. */
      field: string;
      op: SearchOp;
      value: string;
      negated: boolean;
    };

/** A term as typed: where it is in the text (`start` inclusive, `end` exclusive) and what is wrong with it. */
export type ParsedTerm = SearchTerm & { raw: string; start: number; end: number; problem?: QueryProblem };

/** How a field's value is written: what the UI suggests after the operator. */
type FieldValues = 'text' | 'number' | 'ratio' | 'day' | 'member' | 'choice';

export interface SearchField {
  /** What is typed before the operator; also the key of its label in the UI. */
  id: string;
  /** 'output': matched on each output (the Gallery keeps only the matching tiles; the History, tasks with one). */
  level: 'task' | 'output';
  values: FieldValues;
  ops: readonly SearchOp[];
  /** For 'choice' fields, every value. */
  choices?: readonly string[];
  example: string;
}

const TEXT_OPS: readonly SearchOp[] = [':', '='];
const DAY_OPS: readonly SearchOp[] = [':', '='];
const MEDIA = ['image', 'video', 'audio'] as const;
/** What `is:` asks of an output. */
const IS = ['starred'] as const;

/** The fields the UI can suggest; any other `id:` is a request param (steps:30, style:anime). */
/* eslint-disable lingui/no-unlocalized-strings -- the examples are the search language itself, typed the same in every language */
export const SEARCH_FIELDS: readonly SearchField[] = [
  { id: 'model', level: 'task', values: 'text', ops: TEXT_OPS, example: 'model:"Aurora XL"' },
  { id: 'version', level: 'task', values: 'text', ops: TEXT_OPS, example: 'version:v2' },
  { id: 'category', level: 'task', values: 'text', ops: TEXT_OPS, example: 'category:image' },
  {
    id: 'status',
    level: 'task',
    values: 'choice',
    ops: TEXT_OPS,
    choices: TASK_STATUSES,
    example: 'status:failed',
  },
  { id: 'media', level: 'task', values: 'choice', ops: TEXT_OPS, choices: MEDIA, example: 'media:video' },
  { id: 'by', level: 'task', values: 'member', ops: TEXT_OPS, example: 'by:me' },
  { id: 'seed', level: 'task', values: 'number', ops: SEARCH_OPS, example: 'seed:42' },
  { id: 'ratio', level: 'task', values: 'ratio', ops: SEARCH_OPS, example: 'ratio:16:9' },
  { id: 'rating', level: 'output', values: 'number', ops: SEARCH_OPS, example: 'rating>=4' },
  { id: 'tag', level: 'output', values: 'text', ops: TEXT_OPS, example: 'tag:hero' },
  { id: 'is', level: 'output', values: 'choice', ops: TEXT_OPS, choices: IS, example: 'is:starred' },
  { id: 'after', level: 'task', values: 'day', ops: DAY_OPS, example: 'after:2026-03-01' },
  { id: 'before', level: 'task', values: 'day', ops: DAY_OPS, example: 'before:2026-03-01' },
  { id: 'on', level: 'task', values: 'day', ops: DAY_OPS, example: 'on:2026-03' },
];
/* eslint-enable lingui/no-unlocalized-strings */

// ---- parsing ------------------------------------------------------------------------------------

const SPACE = /\s/;
const FIELD_NAME = /[A-Za-z_][\w.-]*/y;
const COMPARISONS = ['>=', '<=', '>', '<'] as const;

/** The terms of a query, in order, malformed ones included (each with its `problem`). Never throws. */
export function parseQuery(text: string): ParsedTerm[] {
  const terms: ParsedTerm[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && SPACE.test(text[i]!)) i++;
    if (i >= n) break;
    const start = i;
    const negated = text[i] === '-';
    if (negated) i++;
    FIELD_NAME.lastIndex = i;
    const name = FIELD_NAME.exec(text);
    const opAt = name ? i + name[0].length : -1;
    const op = name ? SEARCH_OPS.find((o) => text.startsWith(o, opAt)) : undefined;
    let term: SearchTerm;
    if (name && op) {
      let at = opAt + op.length;
      let finalOp: SearchOp = op;
      // rating:>=4 is rating>=4 (GitHub's way of writing it).
      const inner = op === ':' ? COMPARISONS.find((c) => text.startsWith(c, at)) : undefined;
      if (inner) {
        finalOp = inner;
        at += inner.length;
      }
      const { value, end } = readValue(text, at);
      i = end;
      term = { kind: 'field', field: name[0].toLowerCase(), op: finalOp, value, negated };
    } else {
      const { value, end } = readValue(text, i);
      i = end;
      term = { kind: 'text', value, negated };
    }
    const parsed: ParsedTerm = { ...term, raw: text.slice(start, i), start, end: i };
    const compiled = compileTerm(term);
    if ('problem' in compiled) parsed.problem = compiled.problem;
    terms.push(parsed);
  }
  return terms;
}

/** A value at `at`: "quoted" (with \" and \\; an open quote runs to the end) or up to the next whitespace. */
function readValue(text: string, at: number): { value: string; end: number } {
  const n = text.length;
  if (text[at] !== '"') {
    let j = at;
    while (j < n && !SPACE.test(text[j]!)) j++;
    return { value: text.slice(at, j), end: j };
  }
  let value = '';
  let j = at + 1;
  while (j < n && text[j] !== '"') {
    if (text[j] === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) {
      value += text[j + 1];
      j += 2;
    } else value += text[j++];
  }
  return { value, end: j < n ? j + 1 : n };
}

const sameTerm = (a: SearchTerm, b: SearchTerm) =>
  a.kind === b.kind &&
  a.value === b.value &&
  a.negated === b.negated &&
  (a.kind === 'text' || (b.kind === 'field' && a.field === b.field && a.op === b.op));

/**
 * @internal The text of a term, quoting its value when it must be, so parseQuery(termText(t)) gives `t`
 * back (for the search box's suggestions; today its unit test).
 */
export function termText(term: SearchTerm): string {
  const head =
    (term.negated ? '-' : '') + (term.kind === 'field' ? `${term.field.toLowerCase()}${term.op}` : '');
  const bare = head + term.value;
  const again = parseQuery(bare);
  if (term.value !== '' && again.length === 1 && sameTerm(again[0]!, term)) return bare;
  return `${head}"${term.value.replace(/[\\"]/g, '\\$&')}"`;
}

/** The text without its `index`th term (as parseQuery counts them), the whitespace where it was tidied. */
export function removeTerm(text: string, index: number): string {
  const term = parseQuery(text)[index];
  if (!term) return text;
  const before = text.slice(0, term.start).replace(/\s+$/, '');
  const after = text.slice(term.end).replace(/^\s+/, '');
  return (before && after ? `${before} ${after}` : before + after).trim();
}

// ---- compiling: what each term tests -------------------------------------------------------------

/**
 * What the index looks up for a term: the tasks with a key of `facet` passing `test` (`num` is the key
 * as a number, or null). Every task the term matches is among them; for a single word or a field they
 * are exactly the term's matches.
 */
export interface Narrowing {
  readonly facet: Facet;
  /** Whether `test` reads `num` (the index then keeps the key's number). */
  readonly numeric: boolean;
  readonly test: (key: string, num: number | null) => boolean;
}

/** A term matched on the task (everything but the output terms: rating, tag, is:). */
export interface TaskTerm {
  readonly negated: boolean;
  /** Whether its one narrowing finds exactly the tasks it matches (a word, a field; not a phrase). */
  readonly exact: boolean;
  /** All must find the task for it to match (negation aside). */
  readonly narrow: readonly Narrowing[];
  /** Whether the entry matches, negation aside: the direct scan, and the check of the index's candidates. */
  readonly test: (entry: HistoryEntry) => boolean;
}

/** A term matched on each output: its judgement (rating, star), the tags the caller keeps for it. */
export interface OutputTerm {
  readonly negated: boolean;
  readonly field: 'rating' | 'tag' | 'is';
  /** What an output must have for `test` to pass: its star, a rating, a tag (an unmarked output fails it). */
  readonly needs: 'star' | 'rating' | 'tag';
  readonly test: (judgement: Judgement | undefined, tags: readonly string[] | undefined) => boolean;
}

/** Each output's tags by output key (`${taskId}#${index}`), as the caller keeps them. */
export type OutputTags = ReadonlyMap<string, readonly string[]>;

export interface CompiledQuery {
  readonly text: string;
  /** Every term as parsed, malformed ones too (with their problem): what the UI shows as chips. */
  readonly terms: readonly ParsedTerm[];
  /** The well-formed terms matched on tasks. */
  readonly taskTerms: readonly TaskTerm[];
  /** The well-formed rating, tag and is: terms, matched on each output. */
  readonly outputTerms: readonly OutputTerm[];
}

type Compiled = { problem: QueryProblem } | { task: TaskTerm } | { output: OutputTerm };

function compare(a: number, op: SearchOp, b: number): boolean {
  switch (op) {
    case ':':
    case '=':
      return a === b;
    case '>=':
      return a >= b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '<':
      return a < b;
  }
}

const INTEGER = /^[+-]?\d+$/;
const canonical = (s: string) => s.replace(/^\+/, '').replace(/^(-?)0+(?=\d)/, '$1');

/** Equal as numbers; long integers (seeds past 2^53) compared digit by digit, not as rounded doubles. */
function sameNumber(key: string, keyNum: number, value: string, valueNum: number): boolean {
  if ((key.length > 15 || value.length > 15) && INTEGER.test(key) && INTEGER.test(value))
    return canonical(key) === canonical(value);
  return keyNum === valueNum;
}

/** A field term on one facet: the key test is the whole term. */
function onFacet(
  facet: Facet,
  negated: boolean,
  test: (key: string, num: number | null) => boolean,
  numeric = false,
): Compiled {
  const narrowing: Narrowing = { facet, numeric, test };
  return {
    task: {
      negated,
      exact: true,
      narrow: [narrowing],
      test: (entry) => facetKeys(entry, facet).some((key) => test(key, numeric ? numberOf(key) : null)),
    },
  };
}

function textTest(op: SearchOp, value: string): (key: string) => boolean {
  const q = value.toLowerCase();
  return op === '=' ? (key) => key === q : (key) => key.includes(q);
}

/** The test of a choice (status:, media:, is:): one of them, or with `:` the start of one. */
function choiceTest(op: SearchOp, value: string): (key: string) => boolean {
  const q = value.toLowerCase();
  return op === '=' ? (key: string) => key === q : (key: string) => key.startsWith(q);
}

/** status: and media: — one of `choices`, or with `:` the start of one. */
function choiceTerm(facet: Facet, choices: readonly string[], op: SearchOp, value: string, negated: boolean) {
  const test = choiceTest(op, value);
  if (!choices.some(test)) return { problem: 'unknown-value' as const };
  return onFacet(facet, negated, test);
}

const DAY = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;

/** A real local day "2026-03-01" or month "2026-03", or null. */
function dayOrMonth(value: string): string | null {
  const m = DAY.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  const d = new Date(year, month - 1, day);
  return d.getFullYear() === year && d.getMonth() === month - 1 && d.getDate() === day ? value : null;
}

function dayTerm(field: 'after' | 'before' | 'on', value: string, negated: boolean): Compiled {
  const when = dayOrMonth(value);
  if (!when) return { problem: 'bad-date' };
  // Keys are local days, "YYYY-MM-DD", which sort as text in day order; a month is their first 7.
  const of = (key: string) => (when.length === 7 ? key.slice(0, 7) : key);
  const test =
    field === 'after'
      ? (key: string) => of(key) > when
      : field === 'before'
        ? (key: string) => of(key) < when
        : (key: string) => of(key) === when;
  return onFacet('day', negated, test);
}

function memberTerm(op: SearchOp, value: string, negated: boolean): Compiled {
  const q = value.toLowerCase();
  if (q === 'me') return onFacet('by', negated, (key) => key === 'me');
  const name = textTest(op, q);
  return onFacet(
    'by',
    negated,
    (key) => (key.startsWith('name:') && name(key.slice(5))) || key === `id:${value}`,
  );
}

function ratioTerm(op: SearchOp, value: string, negated: boolean): Compiled {
  const q = ratioNumber(value);
  if (q === null) {
    if (op !== ':' && op !== '=') return { problem: 'not-a-number' };
    const text = value.toLowerCase();
    return onFacet('ratio', negated, (key, num) => num === null && key === text, true);
  }
  const near = (a: number) => Math.abs(a - q) <= 1e-9 * Math.max(1, Math.abs(q));
  return onFacet(
    'ratio',
    negated,
    (_key, num) => num !== null && (op === ':' || op === '=' ? near(num) : compare(num, op, q)),
    true,
  );
}

/** Any request param: numbers compare as numbers, else text (`:` contains, `=` equals); arrays by any element. */
function paramTerm(id: string, op: SearchOp, value: string, negated: boolean): Compiled {
  const q = value.toLowerCase();
  const qNum = numberOf(q);
  const comparing = op !== ':' && op !== '=';
  if (comparing && qNum === null) return { problem: 'not-a-number' };
  const text = textTest(op, q);
  return onFacet(
    `param:${id}`,
    negated,
    (key, num) => {
      if (qNum !== null && num !== null)
        return comparing ? compare(num, op, qNum) : sameNumber(key, num, q, qNum);
      return !comparing && text(key);
    },
    true,
  );
}

function outputTerm(field: 'rating' | 'tag' | 'is', op: SearchOp, value: string, negated: boolean): Compiled {
  if (field === 'is') {
    if (!IS.some(choiceTest(op, value))) return { problem: 'unknown-value' };
    // is:starred: the output's own star, exactly what the Gallery's Starred filter keeps (gallery-filter.ts).
    return { output: { negated, field, needs: 'star', test: (j) => j?.starred === true } };
  }
  if (field === 'tag') {
    if (op !== ':' && op !== '=') return { problem: 'bad-operator' };
    // Tags are kept trimmed, in lowercase, a run of spaces as one '-' (tags.ts): tag:"client a" is client-a.
    const test = textTest(op, value.trim().replace(/\s+/g, '-'));
    return {
      output: {
        negated,
        field,
        needs: 'tag',
        test: (_j, tags) => !!tags?.some((t) => test(t.toLowerCase())),
      },
    };
  }
  const q = numberOf(value);
  if (q === null) return { problem: 'not-a-number' };
  // An output without a rating has none to compare: rating<3 is the outputs rated 1 or 2; -rating>0 the unrated.
  return {
    output: { negated, field, needs: 'rating', test: (j) => j?.rating != null && compare(j.rating, op, q) },
  };
}

/** What a term tests, or why it is left out. */
function compileTerm(term: SearchTerm): Compiled {
  const { value, negated } = term;
  if (value.trim() === '') return { problem: 'empty-value' };
  if (term.kind === 'text') {
    const q = value.toLowerCase();
    // A phrase narrows by each of its words; the haystack then must hold it whole.
    const words = q.split(/\s+/).filter(Boolean);
    return {
      task: {
        negated,
        exact: words.length === 1 && words[0] === q,
        narrow: words.map((w) => ({ facet: 'text', numeric: false, test: (key: string) => key.includes(w) })),
        test: (entry) => haystackOf(entry).includes(q),
      },
    };
  }
  const { field, op } = term;
  const textOnly = op === ':' || op === '=';
  switch (field) {
    case 'model':
    case 'version':
    case 'category':
    case 'status':
    case 'media':
    case 'by':
    case 'after':
    case 'before':
    case 'on':
    case 'is':
      if (!textOnly) return { problem: 'bad-operator' };
  }
  switch (field) {
    case 'model':
    case 'version':
      return onFacet(field, negated, textTest(op, value));
    case 'category': {
      const q = value.toLowerCase();
      // "image" is every image/… category; "image/default" that one.
      return onFacet('category', negated, (key) => key === q || (op === ':' && key.startsWith(`${q}/`)));
    }
    case 'status':
      return choiceTerm('status', TASK_STATUSES, op, value, negated);
    case 'media':
      return choiceTerm('media', MEDIA, op, value, negated);
    case 'by':
      return memberTerm(op, value, negated);
    case 'ratio':
      return ratioTerm(op, value, negated);
    case 'after':
    case 'before':
    case 'on':
      return dayTerm(field, value, negated);
    case 'rating':
    case 'tag':
    case 'is':
      return outputTerm(field, op, value, negated);
    default:
      return paramTerm(field, op, value, negated);
  }
}

const cache = new Map<string, CompiledQuery>();

/** The query ready to match (the last few are kept: the History and the Gallery compile the same text). */
export function compileQuery(text: string): CompiledQuery {
  const cached = cache.get(text);
  if (cached) return cached;
  const terms = parseQuery(text);
  const taskTerms: TaskTerm[] = [];
  const outputTerms: OutputTerm[] = [];
  for (const term of terms) {
    const compiled = compileTerm(term);
    if ('task' in compiled) taskTerms.push(compiled.task);
    else if ('output' in compiled) outputTerms.push(compiled.output);
  }
  const query: CompiledQuery = { text, terms, taskTerms, outputTerms };
  if (cache.size >= 8) cache.delete(cache.keys().next().value!);
  cache.set(text, query);
  return query;
}

/** Whether the query restricts nothing: blank, or only malformed terms (which are left out). */
export function isEmptyQuery(query: CompiledQuery | string): boolean {
  const q = typeof query === 'string' ? compileQuery(query) : query;
  return q.taskTerms.length === 0 && q.outputTerms.length === 0;
}

// ---- matching without an index -------------------------------------------------------------------

/** Whether the entry passes every task-level term (the output terms aside). */
export function matchEntry(query: CompiledQuery, entry: HistoryEntry): boolean {
  for (const term of query.taskTerms) if (term.test(entry) === term.negated) return false;
  return true;
}

/** Whether one output passes every rating, tag and is: term (true when there are none). */
export function outputMatches(
  query: CompiledQuery,
  key: string,
  judgements: Judgements,
  tags: OutputTags | undefined,
): boolean {
  if (query.outputTerms.length === 0) return true;
  return outputPasses(query, judgements.get(key), tags?.get(key));
}

/** Whether an output with this judgement and these tags passes every rating, tag and is: term. */
export function outputPasses(
  query: CompiledQuery,
  judgement: Judgement | undefined,
  tags: readonly string[] | undefined,
): boolean {
  for (const term of query.outputTerms) if (term.test(judgement, tags) === term.negated) return false;
  return true;
}

/**
 * The output keys that can pass the output terms (rating, tag, is:), found through the judgements and the tags
 * (far fewer than the outputs): null when no term asks for something an output has (only negated
 * ones, or none), so every output must be checked.
 */
export function outputCandidates(
  query: CompiledQuery,
  judgements: Judgements,
  tags: OutputTags | undefined,
): ReadonlySet<string> | null {
  let keys = null as Set<string> | null;
  for (const term of query.outputTerms) {
    if (term.negated) continue;
    const found = new Set<string>();
    if (term.needs !== 'tag') {
      for (const [key, j] of judgements) if (term.test(j, undefined)) found.add(key);
    } else if (tags) {
      for (const [key, list] of tags) if (term.test(undefined, list)) found.add(key);
    }
    const before = keys;
    keys = before === null ? found : new Set([...before].filter((k) => found.has(k)));
  }
  return keys;
}

/**
 * The History's per-task check of the output terms: whether one of the entry's outputs (its
 * tile's key, #0, when it has none) passes them all. With `candidates` (byTask of outputCandidates), only
 * the entry's candidate outputs are looked at.
 */
export function anyOutputMatches(
  query: CompiledQuery,
  entry: HistoryEntry,
  judgements: Judgements,
  tags: OutputTags | undefined,
  candidates?: ReadonlyMap<string, readonly string[]> | null,
): boolean {
  if (query.outputTerms.length === 0) return true;
  const count = Math.max(1, entry.outputs.length);
  if (candidates) {
    for (const key of candidates.get(entry.taskId) ?? [])
      if (indexOfKey(key) < count && outputMatches(query, key, judgements, tags)) return true;
    return false;
  }
  for (let i = 0; i < count; i++)
    if (outputMatches(query, outputKey(entry.taskId, i), judgements, tags)) return true;
  return false;
}

/** Output keys (outputCandidates') by task id, or null for null. */
export function byTask(keys: ReadonlySet<string> | null): Map<string, string[]> | null {
  if (keys === null) return null;
  const tasks = new Map<string, string[]>();
  for (const key of keys) {
    const taskId = taskIdOfKey(key);
    const list = tasks.get(taskId);
    if (list) list.push(key);
    else tasks.set(taskId, [key]);
  }
  return tasks;
}
