import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import type { Selection } from '../../model/selection';
import { CatalogPanel } from './catalog-panel';
import {
  ATTACK,
  fakeClient,
  renderWithApi,
  type FakeCatalog,
  type FakeClient,
} from '../../test/catalog-test-utils';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function setup(
  options: { selection?: Selection | null; data?: FakeCatalog; prepare?: (fake: FakeClient) => void } = {},
) {
  const fake = fakeClient(options.data);
  options.prepare?.(fake);
  const onSelect = vi.fn<(s: Selection) => void>();
  const user = userEvent.setup();
  const view = renderWithApi(
    <CatalogPanel selection={options.selection ?? null} onSelect={onSelect} />,
    fake.client,
  );
  return { ...fake, onSelect, user, view };
}

/** The card (a button) whose title is exactly `name`. */
const card = (name: string) => {
  const button = screen.getByText(name, { exact: true }).closest('button');
  if (!button) throw new Error(`no card for ${name}`);
  return button;
};
const findCard = async (name: string) => {
  await screen.findByText(name, { exact: true });
  return card(name);
};

describe('CatalogPanel: tabs and search box', () => {
  it('has the three tabs by name, Models first and active, moved between with arrow keys', async () => {
    const { user } = setup();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Models', 'AI tools', 'Templates']);
    expect(screen.getByRole('tab', { name: 'Models' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('searchbox', { name: 'Search catalog' })).toBeTruthy();

    screen.getByRole('tab', { name: 'Models' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'AI tools' }));
    expect(screen.getByRole('tab', { name: 'AI tools' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('Remove background')).toBeTruthy();
  });

  it('opens on the tab of the current selection', async () => {
    setup({ selection: { kind: 'template', slug: 'neon-city-poster' } });
    expect(screen.getByRole('tab', { name: 'Templates' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('Neon city poster')).toBeTruthy();
  });
});

describe('CatalogPanel: models', () => {
  it('offers all 13 categories, grouped by type, defaulting to image/default', async () => {
    const { listModels } = setup();
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Category' });
    const options = within(select).getAllByRole<HTMLOptionElement>('option');
    expect(options).toHaveLength(13);
    expect(options.map((o) => o.value)).toContain('video/audio-lipsync');
    expect(options.find((o) => o.value === 'image/edit-image')?.textContent).toBe('Image · Edit image');
    expect([...select.querySelectorAll('optgroup')].map((g) => g.label)).toEqual(['Image', 'Video', 'Audio']);
    expect(select.value).toBe('image/default');
    await screen.findByText('Lumen Canvas');
    expect(listModels).toHaveBeenCalledWith('image', 'default', expect.anything());
  });

  it('shows brand, logo, tags and every version with its typical price per unit', async () => {
    setup();
    const lumen = await findCard('Lumen Canvas');
    const c = within(lumen);
    expect(c.getByText('Lumen Labs')).toBeTruthy();
    expect(c.getByText('text-to-image')).toBeTruthy();
    expect(c.getByText('v2')).toBeTruthy();
    expect(c.getByText('~4 credits / image')).toBeTruthy();
    expect(c.getByText('v3 HD')).toBeTruthy();
    expect(c.getByText('~6 credits / image')).toBeTruthy();
    const logo = lumen.querySelector('img');
    expect(logo?.getAttribute('alt')).toBe('');
    expect(logo?.getAttribute('loading')).toBe('lazy');
    expect(logo?.getAttribute('width')).toBe('20');
    expect(logo?.getAttribute('height')).toBe('20');
  });

  it('renders fractional and per-1,000-character prices per unit', async () => {
    const { user } = setup();
    await screen.findByText('Lumen Canvas');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'video/audio-lipsync');
    expect(await screen.findByText('~0.4 credits / second')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'audio/text-to-speech');
    expect(await screen.findByText('~3 credits / 1,000 characters')).toBeTruthy();
  });

  it('marks only the first model of a ranked category Recommended, and none in image/default or video/text-ref', async () => {
    const { user } = setup();
    await screen.findByText('Lumen Canvas');
    expect(screen.queryByText('Recommended')).toBeNull();

    const select = screen.getByRole('combobox', { name: 'Category' });
    await user.selectOptions(select, 'image/edit-image');
    await screen.findByText('Inpaint');
    expect(within(card('Inpaint')).getByText('Recommended')).toBeTruthy();
    expect(within(card('Retouch')).queryByText('Recommended')).toBeNull();
    expect(screen.getAllByText('Recommended')).toHaveLength(1);

    await user.selectOptions(select, 'video/text-ref');
    await screen.findByText('Dream');
    expect(screen.queryByText('Recommended')).toBeNull();
  });

  it('selects a model with its first version and category, and marks it as current', async () => {
    const user = userEvent.setup();
    const fake = fakeClient();
    const onSelect = vi.fn<(s: Selection) => void>();
    const { rerender } = renderWithApi(<CatalogPanel selection={null} onSelect={onSelect} />, fake.client);
    await user.click(await findCard('Lumen Canvas'));
    expect(onSelect).toHaveBeenCalledWith({
      kind: 'model',
      modelId: 'lumen-canvas',
      versionId: 'lumen-canvas-v2',
      category: 'image/default',
    });
    rerender(<CatalogPanel selection={onSelect.mock.calls[0]![0]} onSelect={onSelect} />);
    expect(card('Lumen Canvas').getAttribute('aria-current')).toBe('true');
    expect(card('Aurora XL').getAttribute('aria-current')).toBeNull();
  });

  it('activates a card from the keyboard (Tab, then Enter or Space)', async () => {
    const { user, onSelect } = setup();
    await screen.findByText('Lumen Canvas');
    card('Lumen Canvas').focus();
    await user.keyboard('{Enter}');
    await user.tab();
    expect(document.activeElement).toBe(card('Aurora XL'));
    await user.keyboard(' ');
    expect(onSelect.mock.calls.map(([s]) => s.kind === 'model' && s.modelId)).toEqual([
      'lumen-canvas',
      'northwind-aurora',
    ]);
  });

  it("opens on the selected model's category", async () => {
    setup({ selection: { kind: 'model', modelId: 'echoform-sync', category: 'video/audio-lipsync' } });
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Category' }).value).toBe(
      'video/audio-lipsync',
    );
    expect((await screen.findByText('LipSync')).closest('button')?.getAttribute('aria-current')).toBe('true');
  });

  it('finds the category of a model linked without one', async () => {
    setup({ selection: { kind: 'model', modelId: 'vireo-retouch' } });
    await waitFor(() =>
      expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Category' }).value).toBe(
        'image/edit-image',
      ),
    );
    expect((await screen.findByText('Retouch')).closest('button')?.getAttribute('aria-current')).toBe('true');
  });

  it('keeps the version already chosen when the open model is clicked again', async () => {
    const { user, onSelect } = setup({
      selection: {
        kind: 'model',
        modelId: 'lumen-canvas',
        versionId: 'lumen-canvas-v3',
        category: 'image/default',
      },
    });
    await user.click(await findCard('Lumen Canvas'));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ versionId: 'lumen-canvas-v3' }));
  });

  it('searches every category by name, brand and tag, case-insensitively, naming each hit’s category', async () => {
    const { user, listModels } = setup();
    await screen.findByText('Lumen Canvas');
    const search = screen.getByRole('searchbox', { name: 'Search catalog' });

    await user.type(search, 'LIPSYNC');
    expect(await screen.findByText('LipSync')).toBeTruthy();
    expect(within(card('LipSync')).getByText('Video · Lip-sync')).toBeTruthy();
    expect(screen.queryByText('Lumen Canvas')).toBeNull();
    expect(listModels).toHaveBeenCalledTimes(13);
    // A search hit that leads its ranked category is still the recommended one.
    expect(within(card('LipSync')).getByText('Recommended')).toBeTruthy();

    await user.clear(search);
    await user.type(search, 'northwind');
    await screen.findByText('Inpaint');
    expect(screen.getByText('Aurora XL')).toBeTruthy();
    expect(screen.getByText('Reel')).toBeTruthy();
    expect(screen.queryByText('Lumen Canvas')).toBeNull();

    await user.clear(search);
    await user.type(search, 'talking-head');
    await screen.findByText('LipSync');
    expect(screen.queryByText('Inpaint')).toBeNull();

    await user.clear(search);
    await user.type(search, 'nothing like this');
    const empty = await screen.findByText('No model matches your search in any category.');
    // Two ways out: the box's own clear button and the one the empty state offers.
    expect(screen.getAllByRole('button', { name: 'Clear search' })).toHaveLength(2);
    await user.click(within(empty.parentElement!).getByRole('button', { name: 'Clear search' }));
    expect(search).toHaveProperty('value', '');
    expect(await screen.findByText('Lumen Canvas')).toBeTruthy();
  });

  it('selects a search hit with its own category', async () => {
    const { user, onSelect } = setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search catalog' }), 'voice');
    await user.click(await findCard('Voice'));
    expect(onSelect).toHaveBeenCalledWith({
      kind: 'model',
      modelId: 'echoform-voice',
      versionId: 'echoform-voice-2',
      category: 'audio/text-to-speech',
    });
  });

  it('shows the error message and its remedy, and retries', async () => {
    const { user, listModels } = setup({
      prepare: (fake) =>
        fake.listModels.mockRejectedValueOnce(
          new ApiError({ status: 0, code: 'network_error', type: 'client_error' }),
        ),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The API could not be reached.');
    expect(alert.textContent).toContain('Check your internet connection and the Base URL, then try again.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Lumen Canvas')).toBeTruthy();
    expect(listModels).toHaveBeenCalledTimes(2);
  });

  it('says which categories a search could not reach, and still shows the hits of the others', async () => {
    const { user } = setup({
      prepare: (fake) => {
        const answer = fake.listModels.getMockImplementation()!;
        fake.listModels.mockImplementation(async (type, subType, options) => {
          if (`${type}/${subType}` === 'audio/music') {
            throw new ApiError({ status: 503, code: 'no_enabled_provider', type: 'api_error' });
          }
          return answer(type, subType, options);
        });
      },
    });
    await user.type(screen.getByRole('searchbox', { name: 'Search catalog' }), 'echoform');
    await waitFor(() => expect(screen.getByText(/Not searched: Audio · Music\./)).toBeTruthy());
    expect(screen.getByText('The service has no provider available for this model right now.')).toBeTruthy();
    expect(screen.getByText('Try again later, or choose another model.')).toBeTruthy();
    expect(screen.getByText('LipSync')).toBeTruthy();
  });

  it('reports entries the client skipped, discreetly', async () => {
    setup({
      data: { skippedModels: { 'image/default': [{ index: 2, id: 'broken', issues: [] }] } },
    });
    expect(await screen.findByText('1 entry could not be read and is hidden.')).toBeTruthy();
  });

  it('says so when a category is empty', async () => {
    const { user } = setup();
    await screen.findByText('Lumen Canvas');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'audio/voice-clone');
    expect(await screen.findByText('No models are available in this category yet.')).toBeTruthy();
  });
});

describe('CatalogPanel: AI tools', () => {
  it('filters by media type through GET /ai-tools?type=', async () => {
    const { user, listAiTools, onSelect } = setup();
    await user.click(screen.getByRole('tab', { name: 'AI tools' }));
    await screen.findByText('Remove background');
    expect(listAiTools).toHaveBeenLastCalledWith(undefined, expect.anything());
    expect(screen.getByText('Animate photo')).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Video' }));
    await waitFor(() => expect(screen.queryByText('Remove background')).toBeNull());
    expect(listAiTools).toHaveBeenLastCalledWith('video', expect.anything());
    expect(screen.getByText('Animate photo')).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Image' }));
    await screen.findByText('Remove background');
    expect(listAiTools).toHaveBeenLastCalledWith('image', expect.anything());

    await user.click(card('Remove background'));
    expect(onSelect).toHaveBeenCalledWith({ kind: 'tool', slug: 'remove-background' });
  });

  it('shows cover, summary, tags and the typical price only when there is one', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('tab', { name: 'AI tools' }));
    const remove = await findCard('Remove background');
    expect(within(remove).getByText('Cut the subject out onto a transparent background.')).toBeTruthy();
    expect(within(remove).getByText('cutout')).toBeTruthy();
    expect(within(remove).getByText('~2 credits / image')).toBeTruthy();
    expect(remove.querySelector('img')?.getAttribute('src')).toContain('remove-background.jpg');
    expect(within(card('Animate photo')).queryByText(/credits/)).toBeNull();
  });

  it('searches tools by tag', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('tab', { name: 'AI tools' }));
    await screen.findByText('Remove background');
    await user.type(screen.getByRole('searchbox', { name: 'Search catalog' }), 'Animate');
    expect(screen.queryByText('Remove background')).toBeNull();
    expect(screen.getByText('Animate photo')).toBeTruthy();
  });

  it('marks the selected tool', async () => {
    setup({ selection: { kind: 'tool', slug: 'animate-photo' } });
    expect((await findCard('Animate photo')).getAttribute('aria-current')).toBe('true');
    expect(card('Remove background').getAttribute('aria-current')).toBeNull();
  });
});

describe('CatalogPanel: templates', () => {
  const openTemplates = async () => {
    const s = setup();
    await s.user.click(screen.getByRole('tab', { name: 'Templates' }));
    await screen.findByText('Neon city poster');
    return s;
  };

  it('keeps the service order and badges Official and Community', async () => {
    const { onSelect, user } = await openTemplates();
    const cards = screen.getAllByRole('listitem').map((li) => li.querySelector('button')!);
    expect(cards[0]?.textContent).toContain('Neon city poster');
    expect(cards[1]?.textContent).toContain('Drone flyover');
    expect(within(cards[0]!).getByText('Official')).toBeTruthy();
    expect(within(cards[2]!).getByText('Community')).toBeTruthy();
    expect(screen.getAllByText('Official')).toHaveLength(2);
    expect(screen.getAllByText('Community')).toHaveLength(5);
    await user.click(card('Drone flyover'));
    expect(onSelect).toHaveBeenCalledWith({ kind: 'template', slug: 'drone-flyover' });
  });

  it('shows a .mp4 or .webm cover as a muted inline looping video and others as images', async () => {
    await openTemplates();
    const drone = card('Drone flyover');
    const video = drone.querySelector('video');
    expect(video).not.toBeNull();
    expect(video?.muted).toBe(true);
    expect(video?.loop).toBe(true);
    expect(video?.hasAttribute('playsinline')).toBe(true);
    expect(drone.querySelector('img')).toBeNull();
    expect(card(ATTACK.scriptName).querySelector('video')?.getAttribute('src')).toContain('.webm?v=2');

    const neon = card('Neon city poster');
    expect(neon.querySelector('video')).toBeNull();
    expect(neon.querySelector('img')?.getAttribute('src')).toContain('neon-city-poster.jpg');
    expect(neon.querySelector('img')?.getAttribute('loading')).toBe('lazy');
  });

  it('plays a video cover on hover and keyboard focus, and pauses it otherwise', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    const { user } = await openTemplates();
    const drone = card('Drone flyover');
    pause.mockClear();

    await user.hover(drone);
    expect(play).toHaveBeenCalledTimes(1);
    await user.unhover(drone);
    expect(pause).toHaveBeenCalledTimes(1);

    act(() => drone.focus());
    expect(play).toHaveBeenCalledTimes(2);
    act(() => drone.blur());
    expect(pause).toHaveBeenCalledTimes(2);
  });
});

describe('CatalogPanel: untrusted catalog text', () => {
  it('renders attack strings as text, injecting no element and leaving the title alone', async () => {
    document.title = 'Media Studio';
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    const { user, view } = setup();
    await user.click(screen.getByRole('tab', { name: 'Templates' }));
    await screen.findByText('Neon city poster');
    const root = view.container;

    // The names are there, character for character, as text.
    expect(screen.getByText(ATTACK.imgName)).toBeTruthy();
    expect(screen.getByText(ATTACK.scriptName)).toBeTruthy();
    expect(screen.getByText(ATTACK.longName)).toBeTruthy();
    expect(screen.getByText('Soft <b>light</b>.')).toBeTruthy();

    // Nothing was built from them: every img is a cover from the catalog, no script, link, svg or <b>.
    const covers = [...root.querySelectorAll('img')].map((img) => img.getAttribute('src') ?? '');
    expect(covers.length).toBeGreaterThan(0);
    for (const src of covers) expect(src).toMatch(/^https:\/\/cdn\.example\.test\/catalog\/templates\//);
    expect(root.querySelector('script, a, b, svg[onload], [onerror], [onload]')).toBeNull();
    expect(document.querySelector('script')).toBeNull();
    expect(document.title).toBe('Media Studio');

    // Tags are searched (a template's are not shown on its tile) and a model's are shown as text.
    await user.type(screen.getByRole('searchbox', { name: 'Search catalog' }), 'click me');
    expect(screen.getByText('Sticker sheet')).toBeTruthy();
    expect(screen.queryByText('Neon city poster')).toBeNull();
    await user.clear(screen.getByRole('searchbox', { name: 'Search catalog' }));
    await user.click(screen.getByRole('tab', { name: 'Models' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'image/image-svg');
    const vector = await findCard('"><svg onload=alert(1)> Vector');
    expect(within(vector).getByText('<b>Evil</b> Inc')).toBeTruthy();
    expect(within(vector).getByText(ATTACK.markupTag)).toBeTruthy();
    expect(within(vector).getByText('<img src=x onerror=alert(2)>')).toBeTruthy();
    expect(within(vector).getByText('<script>document.title="pwned"</script>')).toBeTruthy();
    // The only image in the card is the brand logo from the catalog.
    expect([...vector.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual([
      'https://cdn.example.test/catalog/brands/evil.png',
    ]);
    expect(vector.querySelector('script, a, b, svg[onload], [onerror], [onload]')).toBeNull();
    expect(document.title).toBe('Media Studio');
    expect(alert).not.toHaveBeenCalled();
  });

  it('lets long unbroken names wrap and right-to-left text lay itself out', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('tab', { name: 'Templates' }));
    const long = await screen.findByText(ATTACK.longName);
    expect(long.className).toMatch(/wrap-anywhere/);
    expect(long.className).toMatch(/line-clamp-2/);
    expect(long.className).toMatch(/min-w-0/);

    const rtl = screen.getByText(ATTACK.rtlName);
    expect(rtl.getAttribute('dir')).toBe('auto');
    // The U+202E override that would make "gpj.exe" read as "exe.jpg" is dropped; the words stay.
    const summary = screen.getByText(/download/);
    expect(summary.textContent).toBe('صور شخصية · download gpj.exe now');
    expect(summary.getAttribute('dir')).toBe('auto');
  });
});
