import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../api/api-context';
import { ApiClient } from '../../api/client';
import {
  KNOWN_PARAM_TYPES,
  MEDIA_PARAM_TYPES,
  OPTION_PARAM_TYPES,
  type ParamDef,
} from '../../../contract/param';
import { acceptedNames, type MediaKind } from './media/media-kinds';
import { withMediaInput } from './media-input';
import { fieldName } from './param-rules';
import { isKnownParamType, ParamField, paramTypeOf, UNKNOWN_TYPE } from './param-types';
import { buildParamSchema, emptyValue, normaliseValue, toParamValue, validateValues } from './schema-builder';
import { BASE_URL, hosted } from '../../test/sandbox-catalog';

afterEach(cleanup);

// The words a creator reads (the tests run in English).
const missingMessage = () => 'This field is required.';

// Every known param type has an entry in the table of param-types.tsx that works end to end: its
// field renders under its label, its rule takes its empty value, and a media type's facts reach the
// field (accepted files) and "Use as input".

const defOf = (type: string, required = false): ParamDef => ({
  id: `p_${type}`,
  type,
  displayName: `Field ${type}`,
  required,
  // Choice types need options to show a choice; voice without options shows its audio input.
  ...(paramTypeOf(type).holds === 'choice' && type !== 'voice' ? { options: ['a', 'b'] } : {}),
});

function renderField(def: ParamDef) {
  const client = new ApiClient({
    baseUrl: BASE_URL,
    apiKey: 'gm_live_0123456789abcdefghijklmnopqrstuv',
    fetch: vi.fn<typeof fetch>(async () => new Response('{}', { status: 500 })),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <ApiProvider value={{ client, connectionId: 'conn-1', baseUrl: BASE_URL }}>
        <ParamField
          def={def}
          value={emptyValue(def)}
          onChange={() => undefined}
          onBlur={() => undefined}
          baseUrl={BASE_URL}
        />
      </ApiProvider>
    </QueryClientProvider>,
  );
}

/** The files each media type takes (api-notes §2), written out here so the table is checked, not echoed. */
const TYPES_OF_KIND: Record<MediaKind, readonly string[]> = {
  image: ['image', 'image_url', 'image_urls', 'first_frame', 'last_frame', 'mask_url'],
  video: ['video_url'],
  audio: ['audio_url', 'voice'],
};
const KIND_OF = new Map(
  Object.entries(TYPES_OF_KIND).flatMap(([kind, types]) => types.map((t) => [t, kind as MediaKind] as const)),
);

const CONTROL_ROLES = ['textbox', 'combobox', 'radiogroup', 'group'] as const;

describe('the param type table', () => {
  it('has an entry for every known type, and the fallback for any other', () => {
    for (const type of KNOWN_PARAM_TYPES) {
      expect(isKnownParamType(type), type).toBe(true);
      expect(paramTypeOf(type), type).not.toBe(UNKNOWN_TYPE);
    }
    expect(isKnownParamType('color_hex')).toBe(false);
    expect(isKnownParamType('toString')).toBe(false);
    expect(paramTypeOf('color_hex')).toBe(UNKNOWN_TYPE);
  });

  it('gives every media type the kind of file it takes, and no other type any', () => {
    for (const type of KNOWN_PARAM_TYPES) expect(paramTypeOf(type).media?.kind, type).toBe(KIND_OF.get(type));
    // The contract's list of hosted-URL types (the sandbox checks them) are all media types here.
    for (const type of MEDIA_PARAM_TYPES) expect(paramTypeOf(type).media, type).toBeDefined();
  });

  it('holds a choice for exactly the option types of the contract and voice (presets check saved values by them)', () => {
    for (const type of KNOWN_PARAM_TYPES) {
      expect(paramTypeOf(type).holds === 'choice', type).toBe(
        OPTION_PARAM_TYPES.includes(type) || type === 'voice',
      );
    }
  });

  it.each(KNOWN_PARAM_TYPES)('%s: its field renders under its label, as a known type', (type) => {
    const def = defOf(type);
    renderField(def);
    const named = CONTROL_ROLES.flatMap((role) => screen.queryAllByRole(role, { name: `Field ${type}` }));
    expect(named.length).toBeGreaterThan(0);
    expect(screen.queryByText(/unrecognised parameter type/)).toBeNull();
    // A media field takes the files of its kind.
    const kind = KIND_OF.get(type);
    if (kind) expect(screen.getByText(`${acceptedNames(kind)}, up to 100 MB.`)).toBeTruthy();
  });

  it.each(KNOWN_PARAM_TYPES)(
    '%s: its rule takes its empty value when optional, not when required',
    (type) => {
      const optional = defOf(type);
      const empty = emptyValue(optional);
      expect(Array.isArray(empty)).toBe(paramTypeOf(type).holds === 'list');
      expect(normaliseValue(optional, empty)).toEqual(empty);
      // Empty values are omitted from the request.
      expect(toParamValue(optional, empty)).toBeUndefined();
      const values = { [fieldName(optional.id)]: empty };
      expect(validateValues(buildParamSchema([optional], { baseUrl: BASE_URL }), values)).toEqual({
        valid: true,
        errors: {},
      });
      const required = defOf(type, true);
      expect(validateValues(buildParamSchema([required], { baseUrl: BASE_URL }), values).errors).toEqual({
        [required.id]: missingMessage(),
      });
    },
  );

  it.each(KNOWN_PARAM_TYPES.filter((t) => paramTypeOf(t).media?.inputRank !== undefined))(
    '%s: "Use as input" puts an output of its kind into it, and its rule takes the hosted URL',
    (type) => {
      const def = defOf(type);
      const url = hosted('out.png');
      const filled = withMediaInput([def], {}, url, KIND_OF.get(type)!);
      expect(filled?.paramId).toBe(def.id);
      const value = normaliseValue(def, filled?.params[def.id]);
      expect(
        validateValues(buildParamSchema([def], { baseUrl: BASE_URL }), { [fieldName(def.id)]: value }).valid,
      ).toBe(true);
    },
  );

  it('ranks the image fields for "Use as input": first frame, then the edit image, a mask last', () => {
    const defs = ['mask_url', 'last_frame', 'image_urls', 'image_url', 'image', 'first_frame'].map((t) =>
      defOf(t),
    );
    const order: string[] = [];
    let params = {};
    for (let i = 0; i < defs.length; i++) {
      const filled = withMediaInput(defs, params, hosted(`${i}.png`), 'image')!;
      order.push(filled.paramId);
      params = filled.params;
    }
    expect(order).toEqual([
      'p_first_frame',
      'p_image',
      'p_image_url',
      'p_image_urls',
      'p_last_frame',
      'p_mask_url',
    ]);
  });
});
