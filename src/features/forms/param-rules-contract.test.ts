import { describe, expect, it, vi } from 'vitest';
import type { ParamDef } from '../../../contract/param';
import { FORM_ERROR_KEY, fieldName, listLimit, textLimit } from './param-rules';
import { buildParamSchema, validateValues } from './schema-builder';

// The form refuses what the service would by the contract's figures, not by figures of its own: with
// the contract's params limits changed under it, the form's limits change with them.

vi.mock(import('../../../contract/request-limits'), () => ({
  PARAMS_LIMITS: { maxKeys: 3, maxStringLength: 40, maxArrayItems: 4, maxPromptLength: 90 },
}));

const def = (id: string, type: string, extra: Partial<ParamDef> = {}): ParamDef => ({
  id,
  type,
  required: false,
  ...extra,
});

describe('the form’s limits against contract/request-limits.ts', () => {
  it('caps the prompt and other text at the contract’s lengths', () => {
    expect(textLimit(def('prompt', 'long_text'))).toBe(90);
    expect(textLimit(def('prompt', 'long_text', { maxLength: 5_000 }))).toBe(90);
    expect(textLimit(def('caption', 'text'))).toBe(40);
  });

  it('caps a list of files at the contract’s item count', () => {
    expect(listLimit(def('image_urls', 'image_urls'))).toBe(4);
    expect(listLimit(def('image_urls', 'image_urls', { constraints: { maxCount: 9 } }))).toBe(4);
  });

  it('refuses more params than the contract allows', () => {
    const defs = ['a', 'b', 'c', 'd'].map((id) => def(id, 'text'));
    const schema = buildParamSchema(defs, { baseUrl: 'https://api.example.test/v1' });
    const values = Object.fromEntries(defs.map((d) => [fieldName(d.id), 'x']));
    expect(validateValues(schema, values).errors[FORM_ERROR_KEY]).toMatch(/At most 3 parameters/);
    const three = { ...values, [fieldName('d')]: '' };
    expect(validateValues(schema, three).errors[FORM_ERROR_KEY]).toBeUndefined();
  });
});
