import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Judgement } from '../history/judgements';
import type { HistoryEntry } from '../history/history-types';
import { makeEntry } from '../../test/gallery-test-utils';
import {
  anyOutputMatches,
  compileQuery,
  isEmptyQuery,
  matchEntry,
  outputCandidates,
  outputMatches,
  parseQuery,
  removeTerm,
  SEARCH_FIELDS,
  SEARCH_OPS,
  termText,
  type SearchTerm,
} from './query';

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();

const entries: HistoryEntry[] = [
  makeEntry('fox', {
    params: {
      prompt: 'A red Fox at dawn, misty harbour',
      negative_prompt: 'blurry, lowres',
      seed: 42,
      steps: 30,
      guidance: 7.5,
      style: 'Anime Ink',
      aspect_ratio: '16:9',
      loras: ['grain', 'film-look'],
      hires: true,
    },
    meta: { title: 'Aurora XL', modelId: 'aurora-xl', versionId: 'aurora-xl-2', subtitle: 'Second light' },
    createdAt: at(2026, 3, 1),
  }),
  makeEntry('whale', {
    status: 'failed',
    outputs: [],
    params: {
      prompt: 'a whale singing',
      negativePrompt: 'text',
      seed: 420,
      steps: 20,
      width: 1920,
      height: 1080,
    },
    meta: { title: 'Lumen Canvas', mediaType: 'image', category: 'image/default' },
    createdAt: at(2026, 2, 28),
  }),
  makeEntry('clip', {
    params: { prompt: 'waves at night', seed: '4', aspectRatio: 'square', style: 'anime' },
    meta: { title: 'Vidra', mediaType: 'video', category: 'video/text-ref', modelId: 'vidra' },
    createdAt: at(2026, 3, 15),
    by: { id: 'key-a', name: 'Ana Lima' },
  }),
  makeEntry('song', {
    status: 'running',
    outputs: [],
    params: { text: 'hello there', width: 512, height: 512 },
    meta: { title: 'Tone Speech', mediaType: 'audio', category: 'audio/tts' },
    createdAt: at(2026, 4, 2),
    by: { id: 'key-b', name: 'Bo' },
  }),
];

const found = (query: string) =>
  entries.filter((e) => matchEntry(compileQuery(query), e)).map((e) => e.taskId);

describe('parseQuery', () => {
  it('splits free words, phrases and fields, with their offsets and raw text', () => {
    const text = ' fox  "red fox" model:"Aurora XL" -tag:draft steps>=30';
    const terms = parseQuery(text);
    expect(terms.map((t) => [t.raw, t.start, t.end])).toEqual([
      ['fox', 1, 4],
      ['"red fox"', 6, 15],
      ['model:"Aurora XL"', 16, 33],
      ['-tag:draft', 34, 44],
      ['steps>=30', 45, 54],
    ]);
    for (const t of terms) expect(text.slice(t.start, t.end)).toBe(t.raw);
    expect(terms[0]).toMatchObject({ kind: 'text', value: 'fox', negated: false });
    expect(terms[1]).toMatchObject({ kind: 'text', value: 'red fox' });
    expect(terms[2]).toMatchObject({ kind: 'field', field: 'model', op: ':', value: 'Aurora XL' });
    expect(terms[3]).toMatchObject({ kind: 'field', field: 'tag', op: ':', value: 'draft', negated: true });
    expect(terms[4]).toMatchObject({ kind: 'field', field: 'steps', op: '>=', value: '30' });
  });

  it('reads every operator, and a comparison written after a colon', () => {
    for (const op of SEARCH_OPS)
      expect(parseQuery(`rating${op}4`)[0]).toMatchObject({ field: 'rating', op, value: '4' });
    expect(parseQuery('rating:>=4')[0]).toMatchObject({ op: '>=', value: '4' });
    expect(parseQuery('steps:<10')[0]).toMatchObject({ op: '<', value: '10' });
  });

  it('lowercases field names, keeps values as typed', () => {
    expect(parseQuery('Model:Aurora')[0]).toMatchObject({ field: 'model', value: 'Aurora' });
  });

  it('reads escapes inside quotes, and an open quote to the end', () => {
    expect(parseQuery('"say \\"hi\\" \\\\ now"')[0]).toMatchObject({ value: 'say "hi" \\ now' });
    const open = parseQuery('fox model:"Aurora X');
    expect(open[1]).toMatchObject({ field: 'model', value: 'Aurora X', end: 19 });
    expect(open[1]!.problem).toBeUndefined();
  });

  it('takes a word that starts with a digit or a symbol as text (16:9, (word:1.2))', () => {
    expect(parseQuery('16:9')[0]).toMatchObject({ kind: 'text', value: '16:9' });
    expect(parseQuery('(masterpiece:1.2)')[0]).toMatchObject({ kind: 'text' });
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab:"\\-=<> \t\n1.'.split('')) }), (text) => {
        const terms = parseQuery(text);
        for (const t of terms) expect(text.slice(t.start, t.end)).toBe(t.raw);
        compileQuery(text);
      }),
      { seed: 41, numRuns: 500 },
    );
  });
});

describe('malformed terms', () => {
  it.each([
    ['rating>=x', 'not-a-number'],
    ['steps>lots', 'not-a-number'],
    ['ratio>wide', 'not-a-number'],
    ['after:2026-13-01', 'bad-date'],
    ['on:2026-02-30', 'bad-date'],
    ['before:yesterday', 'bad-date'],
    ['model>3', 'bad-operator'],
    ['after>=2026-01-01', 'bad-operator'],
    ['tag<2', 'bad-operator'],
    ['status:nope', 'unknown-value'],
    ['is:nope', 'unknown-value'],
    ['is>1', 'bad-operator'],
    ['media=vid', 'unknown-value'],
    ['model:', 'empty-value'],
    ['-', 'empty-value'],
    ['""', 'empty-value'],
  ])('%s is reported as %s and left out of the search', (text, problem) => {
    expect(parseQuery(text)[0]!.problem).toBe(problem);
    expect(isEmptyQuery(text)).toBe(true);
    // Left out: the other terms still filter, this one neither keeps nor drops anything.
    expect(found(`${text} whale`)).toEqual(['whale']);
  });

  it('a well-formed term has no problem', () => {
    const terms = parseQuery('fox model:aurora rating>=4 after:2026-03 on:2026-03-01 status:fail media:vid');
    expect(terms.map((t) => t.problem)).toEqual(Array(7).fill(undefined));
  });
});

describe('free words and phrases', () => {
  it('every word must appear in the prompt, the negative prompt or the title, case-insensitively', () => {
    expect(found('fox DAWN')).toEqual(['fox']);
    expect(found('ox')).toEqual(['fox']);
    expect(found('blurry')).toEqual(['fox']);
    expect(found('text')).toEqual(['whale']);
    expect(found('speech')).toEqual(['song']);
    expect(found('fox whale')).toEqual([]);
  });

  it('a quoted phrase must appear whole', () => {
    expect(found('"red fox"')).toEqual(['fox']);
    expect(found('"fox red"')).toEqual([]);
    expect(found('"aurora xl"')).toEqual(['fox']);
  });

  it('a leading "-" keeps the tasks without it', () => {
    expect(found('-fox')).toEqual(['whale', 'clip', 'song']);
    expect(found('a -"red fox"')).toEqual(['whale', 'clip']);
  });
});

describe('fields', () => {
  it('model: the title or the model id, a substring; quotes for spaces; = for the whole name', () => {
    expect(found('model:aurora')).toEqual(['fox']);
    expect(found('model:"Aurora XL"')).toEqual(['fox']);
    expect(found('model:aurora-xl')).toEqual(['fox']);
    expect(found('model:vid')).toEqual(['clip']);
    expect(found('model=aurora')).toEqual([]);
    expect(found('model="aurora xl"')).toEqual(['fox']);
    expect(found('-model:aurora')).toEqual(['whale', 'clip', 'song']);
  });

  it('version: the version id, the request version or the subtitle', () => {
    expect(found('version:aurora-xl-2')).toEqual(['fox']);
    expect(found('version:"second light"')).toEqual(['fox']);
    // makeEntry's request.versionId is lumen-2 for all.
    expect(found('version:lumen-2')).toEqual(['fox', 'whale', 'clip', 'song']);
  });

  it('category: the whole category, or its kind alone', () => {
    expect(found('category:image/default')).toEqual(['fox', 'whale']);
    expect(found('category:video')).toEqual(['clip']);
    expect(found('category=video')).toEqual([]);
    expect(found('category:default')).toEqual([]);
  });

  it('seed: exactly that number', () => {
    expect(found('seed:42')).toEqual(['fox']);
    expect(found('seed:4')).toEqual(['clip']);
    expect(found('seed=420')).toEqual(['whale']);
    expect(found('seed>=42')).toEqual(['fox', 'whale']);
    expect(found('-seed:42')).toEqual(['whale', 'clip', 'song']);
  });

  it('seed: a long seed is compared digit by digit, not as a rounded number', () => {
    const big = [
      makeEntry('a', { params: { seed: '12345678901234567890' } }),
      makeEntry('b', { params: { seed: '12345678901234567891' } }),
    ];
    const q = compileQuery('seed:12345678901234567891');
    expect(big.filter((e) => matchEntry(q, e)).map((e) => e.taskId)).toEqual(['b']);
  });

  it('ratio: the aspect ratio param, or width/height reduced; compared as numbers', () => {
    expect(found('ratio:16:9')).toEqual(['fox', 'whale']);
    expect(found('ratio:16/9')).toEqual(['fox', 'whale']);
    expect(found('ratio:1:1')).toEqual(['song']);
    expect(found('ratio:square')).toEqual(['clip']);
    expect(found('ratio>1')).toEqual(['fox', 'whale']);
    expect(found('ratio<=1')).toEqual(['song']);
    expect(found('-ratio:16:9')).toEqual(['clip', 'song']);
  });

  it('by: a member by name (a part of it) or id, "me" for this member (no `by`)', () => {
    expect(found('by:me')).toEqual(['fox', 'whale']);
    expect(found('by:ana')).toEqual(['clip']);
    expect(found('by:"ana lima"')).toEqual(['clip']);
    expect(found('by=ana')).toEqual([]);
    expect(found('by:key-b')).toEqual(['song']);
    expect(found('-by:me')).toEqual(['clip', 'song']);
  });

  it('status: and media: a value or the start of one', () => {
    expect(found('status:failed')).toEqual(['whale']);
    expect(found('status:run')).toEqual(['song']);
    expect(found('status=succeeded')).toEqual(['fox', 'clip']);
    expect(found('media:video')).toEqual(['clip']);
    expect(found('media:aud')).toEqual(['song']);
    expect(found('-media:image')).toEqual(['clip', 'song']);
  });

  it('after:, before:, on: local days and months, after and before leaving the day out', () => {
    expect(found('on:2026-03-01')).toEqual(['fox']);
    expect(found('on:2026-03')).toEqual(['fox', 'clip']);
    expect(found('after:2026-03-01')).toEqual(['clip', 'song']);
    expect(found('before:2026-03-01')).toEqual(['whale']);
    expect(found('after:2026-02 before:2026-04')).toEqual(['fox', 'clip']);
    expect(found('-on:2026-03')).toEqual(['whale', 'song']);
    // The edges of a day are local midnights.
    const late = makeEntry('late', { createdAt: new Date(2026, 2, 1, 23, 59, 59, 999).getTime() });
    const early = makeEntry('early', { createdAt: new Date(2026, 2, 2, 0, 0, 0, 0).getTime() });
    const q = compileQuery('on:2026-03-01');
    expect([late, early].filter((e) => matchEntry(q, e)).map((e) => e.taskId)).toEqual(['late']);
  });

  it('any param by its id: numbers compare, text is contained (:) or equal (=), lists by any element', () => {
    expect(found('steps:30')).toEqual(['fox']);
    expect(found('steps:3')).toEqual([]);
    expect(found('steps>=20')).toEqual(['fox', 'whale']);
    expect(found('steps<30')).toEqual(['whale']);
    expect(found('guidance>=7')).toEqual(['fox']);
    expect(found('guidance=7.5')).toEqual(['fox']);
    expect(found('style:anime')).toEqual(['fox', 'clip']);
    expect(found('style=anime')).toEqual(['clip']);
    expect(found('STYLE:INK')).toEqual(['fox']);
    expect(found('loras:film')).toEqual(['fox']);
    expect(found('loras=grain')).toEqual(['fox']);
    expect(found('hires:true')).toEqual(['fox']);
    expect(found('-style:anime')).toEqual(['whale', 'song']);
    // A param no task has matches nothing (negated: everything).
    expect(found('sampler:euler')).toEqual([]);
    expect(found('-sampler:euler')).toEqual(['fox', 'whale', 'clip', 'song']);
  });

  it('combines terms: all must hold', () => {
    expect(found('model:aurora fox steps>=30 -tag:draft')).toEqual(['fox']);
    expect(found('media:image seed>=42 -by:ana')).toEqual(['fox', 'whale']);
  });

  it('every suggested field parses as itself from its example', () => {
    for (const f of SEARCH_FIELDS) {
      const [term] = parseQuery(f.example);
      expect(term, f.id).toMatchObject({ kind: 'field', field: f.id });
      expect(term!.problem, f.id).toBeUndefined();
    }
  });
});

describe('output terms: rating and tag', () => {
  const j = (key: string, rating: number | null): [string, Judgement] => [
    key,
    { outputKey: key, starred: false, rating, updatedAt: 0 },
  ];
  const judgements = new Map([j('t#0', 5), j('t#1', 3), j('u#0', 4)]);
  const tags = new Map([
    ['t#0', ['hero', 'client-a']],
    ['t#1', ['draft']],
  ]);
  const keep = (query: string, keys = ['t#0', 't#1', 't#2', 'u#0']) =>
    keys.filter((k) => outputMatches(compileQuery(query), k, judgements, tags));

  it('rating compares the output’s own rating; an unrated output has none', () => {
    expect(keep('rating>=4')).toEqual(['t#0', 'u#0']);
    expect(keep('rating:3')).toEqual(['t#1']);
    expect(keep('rating<4')).toEqual(['t#1']);
    expect(keep('-rating>0')).toEqual(['t#2']);
  });

  it('tag: a tag containing it, = for the whole tag, spaces as tags keep them', () => {
    expect(keep('tag:her')).toEqual(['t#0']);
    expect(keep('tag=her')).toEqual([]);
    expect(keep('tag:"client a"')).toEqual(['t#0']);
    expect(keep('-tag:draft')).toEqual(['t#0', 't#2', 'u#0']);
    expect(keep('tag:hero rating>=4')).toEqual(['t#0']);
  });

  it('outputCandidates finds the outputs a term asks for through the judgements and tags', () => {
    expect([...outputCandidates(compileQuery('tag:hero rating>=4'), judgements, tags)!]).toEqual(['t#0']);
    expect([...outputCandidates(compileQuery('rating>=4'), judgements, tags)!].sort()).toEqual([
      't#0',
      'u#0',
    ]);
    expect(outputCandidates(compileQuery('-tag:draft'), judgements, tags)).toBeNull();
    expect(outputCandidates(compileQuery('fox'), judgements, tags)).toBeNull();
  });

  it('a task passes when one of its outputs does (its tile #0 when it has none)', () => {
    const t = makeEntry('t', { outputs: [{ url: 'a' }, { url: 'b' }] });
    const u = makeEntry('u', { outputs: [] });
    const q = compileQuery('rating:3');
    expect(anyOutputMatches(q, t, judgements, tags)).toBe(true);
    expect(anyOutputMatches(q, u, judgements, tags)).toBe(false);
    expect(anyOutputMatches(compileQuery('rating:4'), u, judgements, tags)).toBe(true);
    expect(anyOutputMatches(compileQuery('fox'), u, judgements, tags)).toBe(true);
  });

  it('rating and tag terms do not restrict tasks by themselves', () => {
    const q = compileQuery('tag:hero rating>=4');
    expect(q.taskTerms).toHaveLength(0);
    expect(entries.every((e) => matchEntry(q, e))).toBe(true);
    expect(isEmptyQuery(q)).toBe(false);
  });
});

describe('is:starred', () => {
  const star = (key: string, starred: boolean, rating: number | null = null): [string, Judgement] => [
    key,
    { outputKey: key, starred, rating, updatedAt: 0 },
  ];
  const judgements = new Map([star('t#0', true), star('t#1', false, 5), star('u#0', true, 2)]);
  const keys = ['t#0', 't#1', 't#2', 'u#0'];
  const keep = (query: string) =>
    keys.filter((k) => outputMatches(compileQuery(query), k, judgements, undefined));

  it('keeps the starred outputs, and -is:starred the others (a rating alone is no star)', () => {
    expect(keep('is:starred')).toEqual(['t#0', 'u#0']);
    expect(keep('is=starred')).toEqual(['t#0', 'u#0']);
    expect(keep('is:star')).toEqual(['t#0', 'u#0']);
    expect(keep('-is:starred')).toEqual(['t#1', 't#2']);
    expect(keep('is:starred rating>=2')).toEqual(['u#0']);
  });

  it('is an output term, found through the judgements', () => {
    const q = compileQuery('is:starred');
    expect(q.taskTerms).toHaveLength(0);
    expect(q.outputTerms).toHaveLength(1);
    expect(isEmptyQuery(q)).toBe(false);
    expect([...outputCandidates(q, judgements, undefined)!].sort()).toEqual(['t#0', 'u#0']);
    expect(outputCandidates(compileQuery('-is:starred'), judgements, undefined)).toBeNull();
    // The History keeps a task when one of its outputs is starred.
    const t = makeEntry('t', { outputs: [{ url: 'a' }, { url: 'b' }] });
    const v = makeEntry('v', { outputs: [{ url: 'a' }] });
    expect(anyOutputMatches(q, t, judgements, undefined)).toBe(true);
    expect(anyOutputMatches(q, v, judgements, undefined)).toBe(false);
  });

  it('is a field the UI suggests, with starred its one value', () => {
    expect(SEARCH_FIELDS.find((f) => f.id === 'is')).toMatchObject({ level: 'output', choices: ['starred'] });
  });
});

describe('termText and removeTerm', () => {
  const termArb: fc.Arbitrary<SearchTerm> = fc.oneof(
    fc.record({
      kind: fc.constant('text' as const),
      value: fc.string({ unit: fc.constantFrom(...'ab -:"\\=>1 '.split('')) }),
      negated: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('field' as const),
      field: fc.constantFrom('model', 'tag', 'steps', 'rating', 'aspect_ratio', 'a.b'),
      op: fc.constantFrom(...SEARCH_OPS),
      value: fc.string({ unit: fc.constantFrom(...'ab -:"\\=>1 '.split('')) }),
      negated: fc.boolean(),
    }),
  );
  const content = ({
    raw: _r,
    start: _s,
    end: _e,
    problem: _p,
    ...term
  }: ReturnType<typeof parseQuery>[number]) => term;

  it('parseQuery(termText(term)) gives the term back, quoting only where needed', () => {
    fc.assert(
      fc.property(termArb, (term) => {
        const terms = parseQuery(termText(term));
        expect(terms).toHaveLength(1);
        expect(content(terms[0]!)).toEqual(term);
      }),
      { seed: 7, numRuns: 1000 },
    );
    expect(termText({ kind: 'field', field: 'model', op: ':', value: 'Aurora XL', negated: false })).toBe(
      'model:"Aurora XL"',
    );
    expect(termText({ kind: 'text', value: 'fox', negated: true })).toBe('-fox');
    expect(termText({ kind: 'text', value: '-fox', negated: false })).toBe('"-fox"');
    expect(termText({ kind: 'text', value: 'a:b', negated: false })).toBe('"a:b"');
    expect(termText({ kind: 'field', field: 'steps', op: ':', value: '>5', negated: false })).toBe(
      'steps:">5"',
    );
  });

  it('removeTerm drops one term and tidies the whitespace where it was', () => {
    const text = 'fox  model:"Aurora XL"   -tag:draft  "red  fox"';
    expect(removeTerm(text, 0)).toBe('model:"Aurora XL"   -tag:draft  "red  fox"');
    expect(removeTerm(text, 1)).toBe('fox -tag:draft  "red  fox"');
    expect(removeTerm(text, 3)).toBe('fox  model:"Aurora XL"   -tag:draft');
    expect(removeTerm('  fox  ', 0)).toBe('');
    expect(removeTerm(text, 9)).toBe(text);
  });

  it('after removeTerm, the other terms parse as before, in order', () => {
    fc.assert(
      fc.property(fc.array(termArb, { minLength: 1, maxLength: 5 }), fc.nat(), (terms, pick) => {
        const text = terms.map(termText).join(' ');
        const index = pick % terms.length;
        const left = parseQuery(removeTerm(text, index)).map(content);
        expect(left).toEqual(terms.filter((_t, i) => i !== index));
      }),
      { seed: 11, numRuns: 500 },
    );
  });
});
