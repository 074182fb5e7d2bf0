import { describe, expect, it } from 'vitest';
import type { ParamDef } from '../../../contract/param';
import {
  fieldName,
  formDefs,
  FORM_ERROR_KEY,
  hostedOnlyMessage,
  isHostedUrl,
  paramIdOf,
  paramLabel,
  textLimit,
  type FormValue,
  type FormValues,
  type PromptRules,
} from './param-rules';
import {
  buildParamSchema,
  defaultValues,
  fromRequestParams,
  toRequestParams,
  validateValues,
} from './schema-builder';
import {
  BASE_URL,
  everyTypeModel,
  FOREIGN,
  fixtureModel,
  fixtureParam,
  fixtureTemplate,
  hosted,
} from '../../test/sandbox-catalog';

// The words a creator reads (the tests run in English).
const missingMessage = () => 'This field is required.';
const notAnOptionMessage = () => 'Choose one of the listed options.';

const def = (id: string, type: string, extra: Partial<ParamDef> = {}): ParamDef => ({
  id,
  type,
  required: false,
  ...extra,
});

/** Validates one param's value (with the others at their defaults) and returns its error, if any. */
function check(defs: ParamDef[], values: Record<string, FormValue>, prompt?: PromptRules) {
  const schema = buildParamSchema(defs, { baseUrl: BASE_URL, ...(prompt ? { prompt } : {}) });
  const all = formDefs(defs, prompt);
  const filled: FormValues = { ...defaultValues(all) };
  for (const [id, v] of Object.entries(values)) filled[fieldName(id)] = v;
  return validateValues(schema, filled);
}
const errorOf = (defs: ParamDef[], values: Record<string, FormValue>, prompt?: PromptRules) =>
  check(defs, values, prompt).errors;

describe('field names', () => {
  it('maps dotted and odd ids to names without dots or brackets, and back', () => {
    for (const id of [
      'advanced.guidance',
      'camera.motion',
      'a[0].b',
      'x_y',
      'f_',
      '__proto__',
      'émoji 🎬',
      'prompt',
    ]) {
      const name = fieldName(id);
      expect(name).toMatch(/^f_[A-Za-z0-9_-]*$/);
      expect(paramIdOf(name)).toBe(id);
    }
    expect(fieldName('advanced.guidance')).toBe('f_advanced_2e_guidance');
    expect(fieldName('a.b')).not.toBe(fieldName('a_b'));
    expect(paramIdOf('prompt')).toBeNull();
  });
});

describe('labels and definitions', () => {
  it('labels a field by displayName, else by id', () => {
    expect(paramLabel(fixtureParam('seed'))).toBe('seed');
    expect(paramLabel(fixtureParam('camera.motion'))).toBe('camera.motion');
    expect(paramLabel(fixtureParam('negative_prompt'))).toBe('Things to avoid');
  });

  it('puts a model prompt first, merged with a prompt param the model may declare', () => {
    const defs = formDefs([def('style', 'enum')], { promptRequired: true, promptMaxLength: 300 });
    expect(defs.map((d) => d.id)).toEqual(['prompt', 'style']);
    expect(defs[0]).toMatchObject({
      displayName: 'Prompt',
      required: true,
      maxLength: 300,
      type: 'long_text',
    });
    const merged = formDefs([def('prompt', 'long_text', { maxLength: 8000 })], {
      promptRequired: true,
      promptMaxLength: 500,
    });
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ required: true, maxLength: 500 });
    expect(formDefs([def('a', 'text'), def('a', 'enum')])).toHaveLength(1);
  });
});

describe('defaults and required', () => {
  it('pre-fills every default and sends them when untouched', () => {
    const model = fixtureModel('lumen-canvas');
    const defs = formDefs(model.params, { promptRequired: true, promptMaxLength: 4000 });
    const params = toRequestParams(defaultValues(defs), defs);
    expect(params).toEqual({
      aspect_ratio: '1:1',
      resolution: '1K',
      num_images: 1,
      style: 'photographic',
      enhance: 'off',
      'advanced.guidance': 'medium',
    });
  });

  it('enforces required fields: an empty string, blank text or an empty list is missing', () => {
    const defs = [
      def('t', 'text', { required: true }),
      def('m', 'image_url', { required: true }),
      def('l', 'image_urls', { required: true }),
      def('e', 'enum', { required: true, options: ['a'] }),
    ];
    expect(errorOf(defs, { t: '', m: '', l: [], e: '' })).toEqual({
      t: missingMessage(),
      m: missingMessage(),
      l: missingMessage(),
      e: missingMessage(),
    });
    expect(errorOf(defs, { t: '   ' }).t).toBe(missingMessage());
    expect(errorOf(defs, { t: 'x', m: hosted('a.png'), l: [hosted('b.png')], e: 'a' })).toEqual({});
  });

  it('omits empty optional values and keeps the ones set', () => {
    const defs = [
      def('neg', 'long_text'),
      def('img', 'image'),
      def('refs', 'image_urls'),
      def('n', 'enum', { options: [{ value: 2 }] }),
    ];
    expect(
      toRequestParams(
        { [fieldName('neg')]: '', [fieldName('img')]: '', [fieldName('refs')]: [], [fieldName('n')]: '' },
        defs,
      ),
    ).toEqual({});
    expect(
      toRequestParams(
        { [fieldName('neg')]: 'blur', [fieldName('refs')]: [hosted('a.png')], [fieldName('n')]: 2 },
        defs,
      ),
    ).toEqual({
      neg: 'blur',
      refs: [hosted('a.png')],
      n: 2,
    });
  });
});

describe('prompt', () => {
  const promptOf = (length: number) => 'p'.repeat(length);

  it('is required when the model says so, optional otherwise', () => {
    expect(errorOf([], { prompt: '' }, { promptRequired: true, promptMaxLength: 100 }).prompt).toBe(
      missingMessage(),
    );
    expect(errorOf([], { prompt: '' }, { promptRequired: false, promptMaxLength: 100 })).toEqual({});
  });

  it("is at most the model's promptMaxLength", () => {
    const upscale = fixtureModel('pixelmoss-upscale');
    const rules = { promptRequired: upscale.promptRequired, promptMaxLength: upscale.promptMaxLength };
    expect(rules.promptMaxLength).toBe(1000);
    expect(errorOf(upscale.params, { prompt: promptOf(1000), image: hosted('a.png') }, rules)).toEqual({});
    expect(errorOf(upscale.params, { prompt: promptOf(1001), image: hosted('a.png') }, rules).prompt).toMatch(
      /At most 1,000 characters/,
    );
  });

  it('is never over 10,000 characters, whatever the model allows', () => {
    const rules = { promptRequired: true, promptMaxLength: 50_000 };
    expect(textLimit(formDefs([], rules)[0]!)).toBe(10_000);
    expect(errorOf([], { prompt: promptOf(10_000) }, rules)).toEqual({});
    expect(errorOf([], { prompt: promptOf(10_001) }, rules).prompt).toMatch(/At most 10,000/);
    expect(errorOf([], { prompt: promptOf(10_001) }, { promptRequired: true }).prompt).toMatch(
      /At most 10,000/,
    );
  });

  it('of a tool is its own long_text param, capped at 10,000 rather than 2,000', () => {
    const motion = def('prompt', 'long_text', { maxLength: 2500 });
    expect(textLimit(motion)).toBe(2500);
    expect(errorOf([motion], { prompt: promptOf(2500) })).toEqual({});
    expect(errorOf([motion], { prompt: promptOf(2501) }).prompt).toMatch(/2,500/);
  });
});

describe('text and long_text', () => {
  it('honour maxLength', () => {
    const seed = fixtureParam('seed');
    expect(seed.maxLength).toBe(10);
    expect(errorOf([seed], { seed: '1234567890' })).toEqual({});
    expect(errorOf([seed], { seed: '12345678901' }).seed).toMatch(/At most 10 characters \(now 11\)/);
  });

  it('honour constraints.maxLength', () => {
    const brand = fixtureTemplate('logo-mark').params[0]!;
    expect(brand.constraints?.maxLength).toBe(40);
    expect(errorOf([brand], { brand_text: 'b'.repeat(40) })).toEqual({});
    expect(errorOf([brand], { brand_text: 'b'.repeat(41) }).brand_text).toMatch(/At most 40/);
  });

  it('take the lower of maxLength and constraints.maxLength', () => {
    expect(textLimit(def('t', 'text', { maxLength: 30, constraints: { maxLength: 20 } }))).toBe(20);
  });

  it('are never over 2,000 characters', () => {
    const loose = def('t', 'long_text', { maxLength: 5000 });
    expect(textLimit(loose)).toBe(2000);
    expect(textLimit(def('u', 'text'))).toBe(2000);
    expect(errorOf([loose], { t: 'x'.repeat(2000) })).toEqual({});
    expect(errorOf([loose], { t: 'x'.repeat(2001) }).t).toMatch(/At most 2,000/);
    expect(errorOf([def('c', 'color_hex')], { c: 'x'.repeat(2001) }).c).toMatch(/At most 2,000/);
  });
});

describe('enum, aspect_ratio, resolution', () => {
  it('accept only listed options given as {value, label}', () => {
    const style = fixtureParam('style');
    expect(errorOf([style], { style: 'anime' })).toEqual({});
    expect(errorOf([style], { style: 'Anime' }).style).toBe(notAnOptionMessage());
  });

  it('accept only listed options given as plain strings', () => {
    const fill = fixtureParam('fill_mode');
    expect(errorOf([fill], { fill_mode: 'extend' })).toEqual({});
    expect(errorOf([fill], { fill_mode: 'shrink' }).fill_mode).toBe(notAnOptionMessage());
  });

  it('accept only values listed in enumValues', () => {
    const guidance = fixtureParam('advanced.guidance');
    expect(guidance.enumValues).toEqual(['low', 'medium', 'high']);
    expect(errorOf([guidance], { 'advanced.guidance': 'high' })).toEqual({});
    expect(errorOf([guidance], { 'advanced.guidance': 'max' })['advanced.guidance']).toBe(
      notAnOptionMessage(),
    );
  });

  it('keep numeric option values as numbers in the request', () => {
    const feather = fixtureParam('feather');
    const defs = [feather, fixtureParam('num_images')];
    const values = { ...defaultValues(defs), [fieldName('feather')]: 24 };
    expect(validateValues(buildParamSchema(defs, { baseUrl: BASE_URL }), values).valid).toBe(true);
    const params = toRequestParams(values, defs);
    expect(params).toEqual({ feather: 24, num_images: 1 });
    expect(typeof params.num_images).toBe('number');
    // The string "24" is not the option 24 (the server compares typed values).
    expect(errorOf([feather], { feather: '24' }).feather).toBe(notAnOptionMessage());
  });

  it('check aspect_ratio and resolution against their options', () => {
    const defs = [fixtureParam('aspect_ratio'), fixtureParam('resolution')];
    expect(errorOf(defs, { aspect_ratio: '21:9', resolution: '2K' })).toEqual({});
    expect(errorOf(defs, { aspect_ratio: '5:4', resolution: '8K' })).toEqual({
      aspect_ratio: notAnOptionMessage(),
      resolution: notAnOptionMessage(),
    });
  });

  it('keep numbers within constraints.min and max', () => {
    const n = def('steps', 'enum', {
      options: [{ value: 1 }, { value: 50 }, { value: 99 }],
      constraints: { min: 1, max: 50 },
    });
    expect(errorOf([n], { steps: 50 })).toEqual({});
    expect(errorOf([n], { steps: 99 }).steps).toBe('At most 50.');
    const u = def('scale', 'float_slider', { default: 1, constraints: { min: 0.5, max: 2 } });
    expect(errorOf([u], { scale: '0.4' }).scale).toBe('At least 0.5.');
    expect(errorOf([u], { scale: 'lots' }).scale).toBe('Enter a number.');
    expect(toRequestParams({ [fieldName('scale')]: '1.5' }, [u])).toEqual({ scale: 1.5 });
  });
});

describe('media', () => {
  const image = fixtureParam('image_url', 'image_url');

  it('accepts only URLs on the API origin', () => {
    expect(isHostedUrl(hosted('a.png'), ['http://127.0.0.1:4010'])).toBe(true);
    expect(errorOf([image], { image_url: hosted('a.png') })).toEqual({});
    for (const url of [
      FOREIGN,
      'http://127.0.0.1:9999/cdn/a.png',
      'https://127.0.0.1:4010/cdn/a.png',
      '/cdn/a.png',
      'file:///tmp/a.png',
      'javascript:alert(1)',
    ]) {
      expect(errorOf([image], { image_url: url }).image_url, url).toBe(hostedOnlyMessage());
    }
  });

  it('refuses a foreign URL for every media type, voice included', () => {
    for (const type of [
      'image',
      'image_url',
      'first_frame',
      'last_frame',
      'mask_url',
      'video_url',
      'audio_url',
      'voice',
    ]) {
      expect(errorOf([def('m', type)], { m: FOREIGN }).m, type).toBe(hostedOnlyMessage());
    }
    expect(errorOf([def('m', 'image_urls')], { m: [hosted('a.png'), FOREIGN] }).m).toBe(hostedOnlyMessage());
  });

  it('accepts origins learnt at run time (an upload answered from a CDN)', () => {
    const learnt: string[] = [];
    const schema = buildParamSchema([image], { baseUrl: BASE_URL, hostedOrigins: () => learnt });
    const values = { [fieldName('image_url')]: 'https://cdn.example.com/u/a.png' };
    expect(validateValues(schema, values).valid).toBe(false);
    learnt.push('https://cdn.example.com');
    expect(validateValues(schema, values).valid).toBe(true);
  });

  it('takes image_urls up to constraints.maxCount', () => {
    const refs = fixtureParam('reference_images');
    expect(refs.constraints?.maxCount).toBe(4);
    const urls = (n: number) => Array.from({ length: n }, (_, i) => hosted(`${i}.png`));
    expect(errorOf([refs], { reference_images: urls(4) })).toEqual({});
    expect(errorOf([refs], { reference_images: urls(5) }).reference_images).toBe('At most 4 files.');
  });

  it('never takes more than 20 images', () => {
    const urls = (n: number) => Array.from({ length: n }, (_, i) => hosted(`${i}.png`));
    for (const d of [def('l', 'image_urls'), def('l', 'image_urls', { constraints: { maxCount: 50 } })]) {
      expect(errorOf([d], { l: urls(20) })).toEqual({});
      expect(errorOf([d], { l: urls(21) }).l).toBe('At most 20 files.');
    }
  });

  it('takes a voice from the options or a hosted audio URL', () => {
    const voice = fixtureParam('voice', 'voice');
    expect(errorOf([voice], { voice: 'bram' })).toEqual({});
    expect(errorOf([voice], { voice: hosted('me.mp3') })).toEqual({});
    expect(errorOf([voice], { voice: 'zed' }).voice).toBe(notAnOptionMessage());
  });
});

describe('unknown types', () => {
  it('are accepted as plain text and sent as typed', () => {
    const color = fixtureParam('background_color');
    expect(color.type).toBe('color_hex');
    expect(errorOf([color], { background_color: '#ff00aa' })).toEqual({});
    expect(toRequestParams({ [fieldName('background_color')]: '#ff00aa' }, [color])).toEqual({
      background_color: '#ff00aa',
    });
    expect(defaultValues([color])).toEqual({ [fieldName('background_color')]: '#ffffff' });
  });
});

describe('the 50-key limit', () => {
  it('refuses values that would send more than 50 params', () => {
    const many = Array.from({ length: 51 }, (_, i) => def(`p${i}`, 'text', { default: 'x' }));
    const result = check(many, {});
    expect(result.valid).toBe(false);
    expect(result.errors[FORM_ERROR_KEY]).toMatch(/At most 50 parameters/);
    // Clearing one (an empty optional value is omitted) brings it to 50.
    expect(check(many, { p0: '' }).valid).toBe(true);
  });

  it('counts the prompt', () => {
    const many = Array.from({ length: 50 }, (_, i) => def(`p${i}`, 'text', { default: 'x' }));
    const rules = { promptRequired: false };
    expect(check(many, { prompt: '' }, rules).valid).toBe(true);
    expect(check(many, { prompt: 'a cat' }, rules).errors[FORM_ERROR_KEY]).toMatch(/would send 51/);
  });
});

describe('toRequestParams / fromRequestParams', () => {
  it('round-trips dotted ids, sent as that exact key', () => {
    const model = everyTypeModel();
    const defs = formDefs(model.params, { promptRequired: true });
    const params = {
      prompt: 'a lighthouse',
      'advanced.guidance': 'high',
      'camera.motion': 'orbit',
      num_images: 3,
      feather: 0,
      reference_images: [hosted('a.png'), hosted('b.png')],
      voice: 'cleo',
      background_color: '#000000',
    };
    const values = fromRequestParams(params, defs);
    expect(values[fieldName('advanced.guidance')]).toBe('high');
    expect(Object.keys(values).some((k) => k.includes('.'))).toBe(false);
    const back = toRequestParams({ ...defaultValues(defs), ...values }, defs);
    expect(back).toMatchObject(params);
    expect(Object.keys(back)).toContain('advanced.guidance');
    expect(Object.keys(back)).toContain('camera.motion');
    expect(back).not.toHaveProperty('advanced');
    expect(back).not.toHaveProperty('camera');
  });

  it('matches values to the typed options and ignores params the form does not define', () => {
    const defs = [fixtureParam('num_images'), fixtureParam('scale')];
    const values = fromRequestParams({ num_images: '2', scale: '4', fixed: 'x', constructor: 'y' }, defs);
    expect(values).toEqual({ [fieldName('num_images')]: 2, [fieldName('scale')]: '4' });
  });

  it('keeps an id like __proto__ as a plain key', () => {
    const d = def('__proto__', 'text');
    const params = toRequestParams({ [fieldName('__proto__')]: 'x' }, [d]);
    expect(Object.keys(params)).toEqual(['__proto__']);
    expect(JSON.stringify(params)).toBe('{"__proto__":"x"}');
  });
});
