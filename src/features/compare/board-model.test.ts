import { afterEach, describe, expect, it } from 'vitest';
import type { Model } from '../../../contract/catalog';
import type { ParamDef } from '../../../contract/param';
import type { BoardSetup, Row } from '../../model/compare/boards';
import { speak, speakEnglish } from '../../test/i18n-test-utils';
import {
  blindLabel,
  identifyingNames,
  scrubNames,
  urlNamesModel,
  cellProblem,
  cellRequest,
  needsRun,
  planCells,
  resolveColumns,
  splitParams,
  sumQuotes,
  type BoardColumn,
  type CellRunState,
  type PlannedCell,
} from './board-model';
import { blindOrder } from './blind-order';

const def = (id: string, type: string, extra: Partial<ParamDef> = {}): ParamDef => ({
  id,
  type,
  required: false,
  ...extra,
});

const model = (id: string, params: ParamDef[], extra: Partial<Model> = {}): Model => ({
  id,
  name: id.toUpperCase(),
  type: 'image',
  subType: 'default',
  description: '',
  brand: { id: 'brand', name: 'Brand' },
  promptRequired: false,
  params,
  versions: [
    { id: 'v1', name: 'Version 1' },
    { id: 'v2', name: 'Version 2' },
  ],
  tags: [],
  ...extra,
});

const PROMPT = def('prompt', 'long_text');

/** Alpha: prompt, aspect_ratio, style (enum), seed (text), num_images. */
const alpha = model('alpha', [
  PROMPT,
  def('aspect_ratio', 'aspect_ratio'),
  def('style', 'enum', { enumValues: ['photo', 'anime'] }),
  def('seed', 'text'),
  def('num_images', 'enum', { options: [{ value: 1 }, { value: 2 }] }),
]);
/** Beta: prompt, aspect_ratio (same type), style (other type), negative (own). */
const beta = model('beta', [
  PROMPT,
  def('aspect_ratio', 'aspect_ratio'),
  def('style', 'text'),
  def('negative', 'long_text'),
]);
/** Gamma: aspect_ratio only, no prompt param at all. */
const gamma = model('gamma', [def('aspect_ratio', 'aspect_ratio'), def('seed', 'text')]);

const setupOf = (patch: Partial<BoardSetup> = {}): BoardSetup => ({
  category: 'image/default',
  columns: [],
  rows: [{ id: 'r1', prompt: 'a lighthouse' }],
  shared: {},
  perColumn: {},
  ...patch,
});

const col = (m: Model, versionId = 'v1'): BoardColumn => ({
  key: `${m.id}@${versionId}`,
  column: { modelId: m.id, versionId },
  model: m,
  versionName: m.versions.find((v) => v.id === versionId)!.name,
});

const row = (prompt: string, id = 'r1'): Row => ({ id, prompt });

describe('resolveColumns', () => {
  it('keeps the columns whose model and version are in the catalog, in order, with keys and version names', () => {
    const setup = setupOf({
      columns: [
        { modelId: 'beta', versionId: 'v2' },
        { modelId: 'ghost', versionId: 'v1' },
        { modelId: 'alpha', versionId: 'v9' },
        { modelId: 'alpha', versionId: 'v1' },
      ],
    });
    const resolved = resolveColumns(setup, [alpha, beta]);
    expect(resolved.map((c) => [c.key, c.model.id, c.versionName])).toEqual([
      ['beta@v2', 'beta', 'Version 2'],
      ['alpha@v1', 'alpha', 'Version 1'],
    ]);
    expect(resolved[0]!.column).toEqual({ modelId: 'beta', versionId: 'v2' });
  });

  it('resolves nothing against an empty catalog', () => {
    expect(resolveColumns(setupOf({ columns: [{ modelId: 'alpha', versionId: 'v1' }] }), [])).toEqual([]);
  });
});

describe('splitParams', () => {
  const ids = (defs: readonly ParamDef[] | undefined) => defs?.map((d) => d.id);

  it('shares the params every model has with the same id and type; the rest are each model’s own', () => {
    const { shared, own } = splitParams([col(alpha), col(beta)]);
    expect(ids(shared)).toEqual(['aspect_ratio']);
    // style exists in both but as enum vs text: not shared, so it is each one's own.
    expect(ids(own.get('alpha@v1'))).toEqual(['style', 'seed', 'num_images']);
    expect(ids(own.get('beta@v1'))).toEqual(['style', 'negative']);
    expect([...own.keys()]).toEqual(['alpha@v1', 'beta@v1']);
  });

  it('needs a param in every model to share it', () => {
    const { shared, own } = splitParams([col(alpha), col(beta), col(gamma)]);
    expect(ids(shared)).toEqual(['aspect_ratio']);
    // seed is in alpha and gamma but not beta.
    expect(ids(own.get('alpha@v1'))).toContain('seed');
    expect(ids(own.get('gamma@v1'))).toEqual(['seed']);
    const pair = splitParams([col(alpha), col(gamma)]);
    expect(ids(pair.shared)).toEqual(['aspect_ratio', 'seed']);
    expect(ids(pair.own.get('gamma@v1'))).toEqual([]);
  });

  it('never lists the prompt, shared or own', () => {
    const { shared, own } = splitParams([col(alpha), col(beta)]);
    expect(ids(shared)).not.toContain('prompt');
    for (const defs of own.values()) expect(ids(defs)).not.toContain('prompt');
    expect(ids(splitParams([col(alpha)]).shared)).not.toContain('prompt');
  });

  it('shares all params between versions of one model', () => {
    const { shared, own } = splitParams([col(alpha, 'v1'), col(alpha, 'v2')]);
    expect(ids(shared)).toEqual(['aspect_ratio', 'style', 'seed', 'num_images']);
    expect(own.get('alpha@v1')).toEqual([]);
    expect(own.get('alpha@v2')).toEqual([]);
  });

  it('splits nothing without columns', () => {
    const { shared, own } = splitParams([]);
    expect(shared).toEqual([]);
    expect(own.size).toBe(0);
  });
});

describe('cellRequest', () => {
  it('sends the prompt, the shared values and the column’s own values, with interfaceId and versionId', () => {
    const setup = setupOf({
      shared: { aspect_ratio: '16:9' },
      perColumn: { 'alpha@v2': { style: 'anime', num_images: 2 }, 'beta@v1': { negative: 'blur' } },
    });
    expect(cellRequest(setup, col(alpha, 'v2'), row('a lighthouse'))).toEqual({
      interfaceId: 'alpha',
      versionId: 'v2',
      params: { prompt: 'a lighthouse', aspect_ratio: '16:9', style: 'anime', num_images: 2 },
    });
    expect(cellRequest(setup, col(beta), row('a lighthouse'))).toEqual({
      interfaceId: 'beta',
      versionId: 'v1',
      params: { prompt: 'a lighthouse', aspect_ratio: '16:9', negative: 'blur' },
    });
  });

  it('keeps the prompt exactly as typed when it is not blank, and leaves it out when it is', () => {
    const setup = setupOf();
    expect(cellRequest(setup, col(alpha), row('  padded  ')).params).toEqual({ prompt: '  padded  ' });
    expect(cellRequest(setup, col(alpha), row('')).params).toEqual({});
    expect(cellRequest(setup, col(alpha), row(' \n\t ')).params).not.toHaveProperty('prompt');
  });

  it('sends shared and per-column values only for params the model has', () => {
    const setup = setupOf({
      shared: { aspect_ratio: '1:1', seed: '42', negative: 'blur' },
      perColumn: { 'gamma@v1': { style: 'anime', seed: '7' } },
    });
    expect(cellRequest(setup, col(gamma), row('p')).params).toEqual({
      prompt: 'p',
      aspect_ratio: '1:1',
      seed: '7',
    });
    expect(cellRequest(setup, col(beta), row('p')).params).toEqual({
      prompt: 'p',
      aspect_ratio: '1:1',
      negative: 'blur',
    });
  });

  it('uses only this column’s values, not those of another version of the same model', () => {
    const setup = setupOf({ perColumn: { 'alpha@v1': { style: 'photo' }, 'alpha@v2': { style: 'anime' } } });
    expect(cellRequest(setup, col(alpha, 'v1'), row('p')).params.style).toBe('photo');
    expect(cellRequest(setup, col(alpha, 'v2'), row('p')).params.style).toBe('anime');
  });

  it('a column’s own value wins over a shared one for the same param', () => {
    const setup = setupOf({
      shared: { aspect_ratio: '1:1' },
      perColumn: { 'alpha@v1': { aspect_ratio: '9:16' } },
    });
    expect(cellRequest(setup, col(alpha), row('p')).params.aspect_ratio).toBe('9:16');
  });

  it('leaves out empty strings and empty arrays so model defaults apply, but keeps false and 0', () => {
    const withImages = model('delta', [
      PROMPT,
      def('refs', 'image_urls'),
      def('flag', 'enum'),
      def('n', 'enum'),
    ]);
    const setup = setupOf({
      shared: { refs: [], flag: false },
      perColumn: { 'delta@v1': { n: 0, refs: [] }, 'alpha@v1': { style: '', seed: '' } },
    });
    expect(cellRequest(setup, col(withImages), row('p')).params).toEqual({ prompt: 'p', flag: false, n: 0 });
    expect(cellRequest(setup, col(alpha), row('p')).params).toEqual({ prompt: 'p' });
    const filled = setupOf({ perColumn: { 'delta@v1': { refs: ['https://cdn/a.png'] } } });
    expect(cellRequest(filled, col(withImages), row('p')).params.refs).toEqual(['https://cdn/a.png']);
  });

  it('does not let a shared or per-column "prompt" value replace or stand in for the row’s prompt', () => {
    // The prompt is never a shared/own param, so a stale value under that id must not be sent.
    const setup = setupOf({
      shared: { prompt: 'stale shared' },
      perColumn: { 'alpha@v1': { prompt: 'stale own' } },
    });
    expect(cellRequest(setup, col(alpha), row('row prompt')).params.prompt).toBe('row prompt');
    expect(cellRequest(setup, col(alpha), row('')).params).not.toHaveProperty('prompt');
  });
});

afterEach(speakEnglish);

describe('cellProblem', () => {
  const needsPrompt = model('needs-prompt', [PROMPT], { promptRequired: true, promptMaxLength: 10 });

  it('asks for a prompt when the model requires one and it is blank', () => {
    const setup = setupOf();
    const c = col(needsPrompt);
    expect(cellProblem(c, cellRequest(setup, c, row('')))).toBe('Needs a prompt');
    expect(cellProblem(c, cellRequest(setup, c, row('   ')))).toBe('Needs a prompt');
    expect(cellProblem(c, cellRequest(setup, c, row('ok')))).toBeNull();
  });

  it('does not ask for a prompt when the model does not require one', () => {
    const c = col(alpha);
    expect(cellProblem(c, cellRequest(setupOf(), c, row('')))).toBeNull();
  });

  it('flags a prompt over promptMaxLength, and accepts one exactly at it', () => {
    const c = col(needsPrompt);
    expect(cellProblem(c, cellRequest(setupOf(), c, row('x'.repeat(10))))).toBeNull();
    expect(cellProblem(c, cellRequest(setupOf(), c, row('x'.repeat(11))))).toBe('Prompt over 10 characters');
  });

  it('names a required param without default that is missing, by display name or else by id', () => {
    const strict = model('strict', [
      PROMPT,
      def('image', 'image', { required: true, displayName: 'Source image' }),
      def('mask', 'mask_url', { required: true, displayName: '   ' }),
      def('strength', 'enum', { required: true, default: 0.5 }),
    ]);
    const c = col(strict);
    const run = (perColumn: BoardSetup['perColumn']) =>
      cellProblem(c, cellRequest(setupOf({ perColumn }), c, row('p')));
    expect(run({})).toBe('Needs Source image');
    expect(run({ 'strict@v1': { image: '' } })).toBe('Needs Source image');
    expect(run({ 'strict@v1': { image: 'https://cdn/a.png' } })).toBe('Needs mask');
    // The required param with a default is never reported missing.
    expect(run({ 'strict@v1': { image: 'https://cdn/a.png', mask: 'https://cdn/m.png' } })).toBeNull();
  });

  it('counts a shared value as filling a required param', () => {
    const strict = model('strict', [PROMPT, def('aspect_ratio', 'aspect_ratio', { required: true })]);
    const c = col(strict);
    expect(cellProblem(c, cellRequest(setupOf(), c, row('p')))).toBe('Needs aspect_ratio');
    expect(cellProblem(c, cellRequest(setupOf({ shared: { aspect_ratio: '1:1' } }), c, row('p')))).toBeNull();
  });

  it('an empty required array is missing', () => {
    const strict = model('strict', [
      PROMPT,
      def('refs', 'image_urls', { required: true, displayName: 'References' }),
    ]);
    const c = col(strict);
    const setup = setupOf({ perColumn: { 'strict@v1': { refs: [] } } });
    expect(cellProblem(c, cellRequest(setup, c, row('p')))).toBe('Needs References');
  });

  it('says why in the studio’s language, naming the param as the service does', () => {
    speak({ 'Needs a prompt': 'Il manque le prompt', 'Needs {param}': 'Il manque « {param} »' });
    const strict = model(
      'strict',
      [PROMPT, def('image', 'image', { required: true, displayName: 'Source image' })],
      {
        promptRequired: true,
      },
    );
    const c = col(strict);
    expect(cellProblem(c, cellRequest(setupOf(), c, row('')))).toBe('Il manque le prompt');
    expect(cellProblem(c, cellRequest(setupOf(), c, row('p')))).toBe('Il manque « Source image »');
  });
});

describe('planCells', () => {
  const setup = setupOf({
    rows: [row('first', 'r1'), row('', 'r2')],
    shared: { aspect_ratio: '4:3' },
  });
  const needsPrompt = model('needs-prompt', [PROMPT, def('aspect_ratio', 'aspect_ratio')], {
    promptRequired: true,
  });
  const columns = [col(alpha), col(needsPrompt)];

  it('plans every cell row by row, keyed by row and column, with its body and problem', () => {
    const cells = planCells(setup, columns);
    expect(cells.map((c) => c.key)).toEqual([
      'r1|alpha@v1',
      'r1|needs-prompt@v1',
      'r2|alpha@v1',
      'r2|needs-prompt@v1',
    ]);
    expect(cells.map((c) => [c.row.id, c.col.key])).toEqual([
      ['r1', 'alpha@v1'],
      ['r1', 'needs-prompt@v1'],
      ['r2', 'alpha@v1'],
      ['r2', 'needs-prompt@v1'],
    ]);
    expect(cells.map((c) => c.problem)).toEqual([null, null, null, 'Needs a prompt']);
    for (const cell of cells) {
      expect(cell.request).toEqual(cellRequest(setup, cell.col, cell.row));
      expect(cell.body).toBe(JSON.stringify(cell.request));
    }
    expect(JSON.parse(cells[0]!.body)).toEqual({
      interfaceId: 'alpha',
      versionId: 'v1',
      params: { prompt: 'first', aspect_ratio: '4:3' },
    });
  });

  it('gives a different body when an input changes, and the same one otherwise', () => {
    const before = planCells(setup, columns);
    expect(planCells(setup, columns).map((c) => c.body)).toEqual(before.map((c) => c.body));
    const after = planCells({ ...setup, shared: { aspect_ratio: '1:1' } }, columns);
    expect(after[0]!.body).not.toBe(before[0]!.body);
  });

  it('does not send a shared value left over once a param is no longer shared', () => {
    // Two versions of alpha shared "style" (an enum); beta's "style" is text, so it is shared no more.
    const stale = setupOf({ shared: { style: 'anime', aspect_ratio: '1:1' } });
    const cells = planCells(stale, [col(alpha, 'v1'), col(alpha, 'v2'), col(beta)]);
    for (const cell of cells) {
      expect(cell.request.params).not.toHaveProperty('style');
      expect(cell.request.params.aspect_ratio).toBe('1:1');
    }
  });

  it('plans nothing without columns', () => {
    expect(planCells(setup, [])).toEqual([]);
  });
});

describe('needsRun', () => {
  it('runs cells never run, changed since, or failed; not active or succeeded ones', () => {
    const states: CellRunState[] = ['never', 'changed', 'active', 'succeeded', 'failed'];
    expect(states.filter(needsRun)).toEqual(['never', 'changed', 'failed']);
  });
});

describe('sumQuotes', () => {
  const needsPrompt = model('needs-prompt', [PROMPT], { promptRequired: true });
  const columns = [col(alpha), col(beta), col(needsPrompt)];
  const cells = planCells(setupOf({ rows: [row('one', 'r1'), row('', 'r2')] }), columns);
  const byKey = (quotes: Record<string, number>) => (cell: PlannedCell) => quotes[cell.key];

  it('sums the quotes in total and per column, skipping cells with a problem', () => {
    const quotes = {
      'r1|alpha@v1': 3,
      'r1|beta@v1': 5,
      'r1|needs-prompt@v1': 7,
      'r2|alpha@v1': 2,
      'r2|beta@v1': 0,
      'r2|needs-prompt@v1': 1000, // has a problem (no prompt): not counted
    };
    const { total, byColumn } = sumQuotes(cells, byKey(quotes));
    expect(total).toBe(17);
    expect([...byColumn]).toEqual([
      ['alpha@v1', 5],
      ['beta@v1', 5],
      ['needs-prompt@v1', 7],
    ]);
  });

  it('is null while any runnable cell is unquoted, only for that cell’s column', () => {
    const quotes = { 'r1|alpha@v1': 3, 'r1|beta@v1': 5, 'r1|needs-prompt@v1': 7, 'r2|beta@v1': 1 };
    const { total, byColumn } = sumQuotes(cells, byKey(quotes));
    expect(total).toBeNull();
    expect(byColumn.get('alpha@v1')).toBeNull();
    expect(byColumn.get('beta@v1')).toBe(6);
    expect(byColumn.get('needs-prompt@v1')).toBe(7);
  });

  it('stays null for a column once one of its cells is unquoted, even if a later one is quoted', () => {
    const quotes = { 'r2|alpha@v1': 4, 'r1|beta@v1': 1, 'r2|beta@v1': 1, 'r1|needs-prompt@v1': 1 };
    const { total, byColumn } = sumQuotes(cells, byKey(quotes));
    expect(total).toBeNull();
    expect(byColumn.get('alpha@v1')).toBeNull();
  });

  it('does not ask for the quote of a cell with a problem, and totals 0 for nothing runnable', () => {
    const asked: string[] = [];
    sumQuotes(cells, (cell) => {
      asked.push(cell.key);
      return 1;
    });
    expect(asked).not.toContain('r2|needs-prompt@v1');
    expect(asked).toHaveLength(5);
    const onlyProblems = cells.filter((c) => c.problem);
    expect(sumQuotes(onlyProblems, () => undefined)).toEqual({ total: 0, byColumn: new Map() });
    expect(sumQuotes([], () => undefined)).toEqual({ total: 0, byColumn: new Map() });
  });
});

describe('blind comparison', () => {
  const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

  it('shuffles each row deterministically: the same board and row give the same order', () => {
    const first = blindOrder('board-1', 'row-1', keys);
    expect(blindOrder('board-1', 'row-1', keys)).toEqual(first);
    expect([...first].sort()).toEqual(keys);
    expect(keys).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']); // the input is left alone
  });

  it('rows and boards get their own orders, and the columns really move', () => {
    const orders = new Set<string>();
    for (let r = 0; r < 20; r++) orders.add(blindOrder('board-1', `row-${r}`, keys).join(''));
    expect(orders.size).toBeGreaterThan(15);
    expect(blindOrder('board-2', 'row-1', keys)).not.toEqual(blindOrder('board-1', 'row-1', keys));
    // Over many rows, the first column is not left first.
    let stayed = 0;
    for (let r = 0; r < 200; r++) if (blindOrder('b', `r${r}`, keys)[0] === 'a') stayed++;
    expect(stayed).toBeLessThan(60);
  });

  it('names cells by place', () => {
    expect([0, 1, 7].map(blindLabel)).toEqual(['Candidate A', 'Candidate B', 'Candidate H']);
  });

  it('names cells by place in the studio’s language', () => {
    speak({ 'Candidate {letter}': 'Candidat {letter}' });
    expect([0, 2].map(blindLabel)).toEqual(['Candidat A', 'Candidat C']);
  });

  const cols = [
    col(model('alpha', [], { name: 'Lumen Canvas', brand: { id: 'b', name: 'Lumenworks' } })),
    col(model('beta', [], { name: 'Aurora XL' }), 'v2'),
  ];

  it('knows every string that names a model, longest first, ignoring very short ones', () => {
    const names = identifyingNames(cols);
    expect(names).toEqual(
      expect.arrayContaining([
        'Lumen Canvas',
        'alpha',
        'Lumenworks',
        'Aurora XL',
        'beta',
        'Version 1',
        'Version 2',
        'Brand',
      ]),
    );
    expect(names).not.toContain('v1');
    expect(names[0]!.length).toBeGreaterThanOrEqual(names[names.length - 1]!.length);
  });

  it('scrubs the names out of a message, whatever their case', () => {
    const names = identifyingNames(cols);
    expect(scrubNames('LUMEN CANVAS could not run; try aurora xl.', names)).toBe(
      '(hidden) could not run; try (hidden).',
    );
    expect(scrubNames('A plain message', names)).toBe('A plain message');
  });

  it('puts the studio’s word in place of a name as it is written, even with a $ in it', () => {
    // `$&` in a replacement string would put the name itself back.
    speak({ '(hidden)': '($& masqué)' });
    expect(scrubNames('Lumen Canvas could not run.', identifyingNames(cols))).toBe(
      '($& masqué) could not run.',
    );
  });

  it('tells a URL that names its model', () => {
    const names = identifyingNames(cols);
    expect(urlNamesModel('https://cdn.example/outputs/task_123.png', names)).toBe(false);
    expect(urlNamesModel('https://cdn.example/lumen_canvas/123.png', names)).toBe(true);
    expect(urlNamesModel('https://cdn.example/x/Aurora%20XL/1.png', names)).toBe(true);
    expect(urlNamesModel('https://cdn.example/%E0%A4%A/1.png', names)).toBe(false);
  });
});
