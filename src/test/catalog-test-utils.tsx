import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';
import { ApiProvider } from '../api/api-context';
import { ApiClient, type ListResult, type SkippedEntry } from '../api/client';
import { ApiError } from '../api/errors';
import type { AiTool, Model, Template } from '../../contract/catalog';
import type { MediaType } from '../../contract/category';

// Test helpers for the catalog: fixture-like data shaped after sandbox/src/core/catalog, and a real
// ApiClient whose catalog methods are replaced by spies (so the types are the client's own).

const CDN = 'https://cdn.example.test/catalog';

interface ModelInit {
  id: string;
  name: string;
  category: string;
  brand: [id: string, name: string];
  tags?: string[];
  description?: string;
  versions?: Array<[id: string, name: string, credits: number, unit: string]>;
}

function makeModel(init: ModelInit): Model {
  const [type, subType] = init.category.split('/') as [Model['type'], string];
  return {
    id: init.id,
    name: init.name,
    type,
    subType,
    description: init.description ?? '',
    brand: { id: init.brand[0], name: init.brand[1], logo: `${CDN}/brands/${init.brand[0]}.png` },
    promptRequired: true,
    promptMaxLength: 2000,
    params: [],
    versions: (init.versions ?? [[`${init.id}-1`, '1.0', 3, 'image']]).map(
      ([id, name, typicalCredits, unit]) => ({
        id,
        name,
        typicalPrice: { typicalCredits, unit },
      }),
    ),
    tags: init.tags ?? [],
  };
}

const MODELS: Record<string, Model[]> = {
  'image/default': [
    makeModel({
      id: 'lumen-canvas',
      name: 'Lumen Canvas',
      category: 'image/default',
      brand: ['lumen-labs', 'Lumen Labs'],
      tags: ['text-to-image', 'styles'],
      description: 'General-purpose text-to-image with style presets.',
      versions: [
        ['lumen-canvas-v2', 'v2', 4, 'image'],
        ['lumen-canvas-v3', 'v3 HD', 6, 'image'],
      ],
    }),
    makeModel({
      id: 'northwind-aurora',
      name: 'Aurora XL',
      category: 'image/default',
      brand: ['northwind-ai', 'Northwind AI'],
      tags: ['photoreal'],
    }),
  ],
  'image/edit-image': [
    makeModel({
      id: 'northwind-inpaint',
      name: 'Inpaint',
      category: 'image/edit-image',
      brand: ['northwind-ai', 'Northwind AI'],
      tags: ['mask'],
    }),
    makeModel({
      id: 'vireo-retouch',
      name: 'Retouch',
      category: 'image/edit-image',
      brand: ['vireo', 'Vireo Studio'],
    }),
  ],
  'video/text-ref': [
    makeModel({
      id: 'halcyon-dream',
      name: 'Dream',
      category: 'video/text-ref',
      brand: ['halcyon-motion', 'Halcyon Motion'],
      versions: [['halcyon-dream-1-5', 'Dream 1.5', 2.5, 'second']],
    }),
    makeModel({
      id: 'northwind-reel',
      name: 'Reel',
      category: 'video/text-ref',
      brand: ['northwind-ai', 'Northwind AI'],
    }),
  ],
  'video/audio-lipsync': [
    makeModel({
      id: 'echoform-sync',
      name: 'LipSync',
      category: 'video/audio-lipsync',
      brand: ['echoform', 'Echoform Audio'],
      tags: ['talking-head'],
      versions: [['echoform-sync-1', 'Sync 1', 0.4, 'second']],
    }),
  ],
  // Community-style text in a model, to check models render it as text too.
  'image/image-svg': [
    makeModel({
      id: 'attack-vector',
      name: '"><svg onload=alert(1)> Vector',
      category: 'image/image-svg',
      brand: ['evil', '<b>Evil</b> Inc'],
      tags: ['<a href="javascript:alert(1)">click me</a>', '<img src=x onerror=alert(2)>'],
      description: '<script>document.title="pwned"</script>',
    }),
  ],
  'audio/text-to-speech': [
    makeModel({
      id: 'echoform-voice',
      name: 'Voice',
      category: 'audio/text-to-speech',
      brand: ['echoform', 'Echoform Audio'],
      versions: [['echoform-voice-2', 'Voice 2', 3, '1k_chars']],
    }),
  ],
};

const TOOLS: AiTool[] = [
  {
    slug: 'remove-background',
    name: 'Remove background',
    mediaType: 'image',
    summary: 'Cut the subject out onto a transparent background.',
    subType: 'background-removal',
    coverUrl: `${CDN}/tools/remove-background.jpg`,
    tags: ['cutout', 'transparent'],
    params: [],
    typicalPrice: { typicalCredits: 2, unit: 'image' },
  },
  {
    slug: 'animate-photo',
    name: 'Animate photo',
    mediaType: 'video',
    summary: 'Bring a still photo to life.',
    subType: 'animate',
    coverUrl: `${CDN}/tools/animate-photo.jpg`,
    tags: ['animate'],
    params: [],
    typicalPrice: null,
  },
];

const template = (t: Partial<Template> & Pick<Template, 'slug' | 'name' | 'official'>): Template => ({
  mediaType: 'image',
  subType: '',
  summary: '',
  coverUrl: `${CDN}/templates/${t.slug}.jpg`,
  tags: [],
  params: [],
  typicalPrice: null,
  ...t,
});

export const ATTACK = {
  imgName: 'Dreamy portraits <img src=x onerror=alert(1)>',
  scriptName: 'Instant glow-up <script>document.title="pwned"</script>',
  longName: `Endless${'Zoom'.repeat(598)}!`,
  rtlName: 'بورتريه سينمائي · דיוקן קולנועי',
  rtlSummary: 'صور شخصية · download \u202Egpj.exe\u202C now',
  markupTag: '<a href="javascript:alert(1)">click me</a>',
  svgTag: '"><svg onload=alert(1)>',
} as const;

const TEMPLATES: Template[] = [
  template({
    slug: 'neon-city-poster',
    name: 'Neon city poster',
    official: true,
    summary: 'A cyberpunk poster.',
  }),
  template({
    slug: 'drone-flyover',
    name: 'Drone flyover',
    official: true,
    mediaType: 'video',
    coverUrl: `${CDN}/templates/drone-flyover.mp4`,
    summary: 'A sweeping aerial shot.',
    typicalPrice: { typicalCredits: 2.5, unit: 'second' },
  }),
  template({
    slug: 'dreamy-portraits',
    name: ATTACK.imgName,
    official: false,
    summary: 'Soft <b>light</b>.',
  }),
  template({
    slug: 'instant-glow-up',
    name: ATTACK.scriptName,
    official: false,
    mediaType: 'video',
    coverUrl: `${CDN}/templates/instant-glow-up.webm?v=2`,
  }),
  template({ slug: 'endless-zoom', name: ATTACK.longName, official: false }),
  template({
    slug: 'cinematic-portrait-rtl',
    name: ATTACK.rtlName,
    summary: ATTACK.rtlSummary,
    official: false,
  }),
  template({
    slug: 'sticker-sheet',
    name: 'Sticker sheet',
    official: false,
    tags: ['<b>bold</b>', ATTACK.markupTag, ATTACK.svgTag],
  }),
];

const notFound = (code: 'unknown_ai_tool' | 'unknown_template') =>
  new ApiError({ status: 404, code, type: 'invalid_request_error' });

const list = <T,>(items: T[], skipped: SkippedEntry[] = []): ListResult<T> => ({ items, skipped });

export interface FakeCatalog {
  models?: Record<string, Model[]>;
  tools?: AiTool[];
  templates?: Template[];
  skippedModels?: Record<string, SkippedEntry[]>;
}

/** A real ApiClient (never reaching the network) whose catalog calls answer from the given data. */
export function fakeClient(data: FakeCatalog = {}) {
  const models = data.models ?? MODELS;
  const tools = data.tools ?? TOOLS;
  const templates = data.templates ?? TEMPLATES;
  const client = new ApiClient({
    baseUrl: 'https://api.example.test/v1',
    apiKey: 'test-key',
    fetch: () => Promise.reject(new TypeError('tests never reach the network')),
  });
  const spies = {
    listModels: vi
      .spyOn(client, 'listModels')
      .mockImplementation(async (type, subType) =>
        list(models[`${type}/${subType}`] ?? [], data.skippedModels?.[`${type}/${subType}`]),
      ),
    listAiTools: vi
      .spyOn(client, 'listAiTools')
      .mockImplementation(async (type?: MediaType) =>
        list(type ? tools.filter((t) => t.mediaType === type) : tools),
      ),
    listTemplates: vi.spyOn(client, 'listTemplates').mockImplementation(async () => list(templates)),
    getAiTool: vi.spyOn(client, 'getAiTool').mockImplementation(async (slug) => {
      const tool = tools.find((t) => t.slug === slug);
      if (!tool) throw notFound('unknown_ai_tool');
      return tool;
    }),
    getTemplate: vi.spyOn(client, 'getTemplate').mockImplementation(async (slug) => {
      const found = templates.find((t) => t.slug === slug);
      if (!found) throw notFound('unknown_template');
      return found;
    }),
  };
  return { client, ...spies };
}

export type FakeClient = ReturnType<typeof fakeClient>;

/** Providers for a catalog test: a fresh QueryClient (no retries) and the fake connection. */
export function createWrapper(client: ApiClient) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const value = { client, connectionId: 'test-connection', baseUrl: client.baseUrl };
  return function Wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <ApiProvider value={value}>{children}</ApiProvider>
      </QueryClientProvider>
    );
  };
}

export function renderWithApi(ui: ReactElement, client: ApiClient) {
  return render(ui, { wrapper: createWrapper(client) });
}
