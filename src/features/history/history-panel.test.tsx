import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry } from '../../model/db';
import type { HistoryEntry } from '../../model/history/history-types';
import {
  CDN,
  CONNECTION,
  freshDatabase,
  makeEntry,
  makeSending,
  stubLayout,
  storeWith,
  T0,
} from '../../test/gallery-test-utils';
import { NoticeArea } from '../../components/notice-area';
import { HistoryPanel } from './history-panel';
import { HistoryStore } from '../../model/history/history-store';
import { TeamArchive } from '../../model/team/team-archive';
import { toTeamTask } from '../../model/team/team-tasks';

let restoreLayout: () => void = () => undefined;
beforeEach(async () => {
  await freshDatabase();
  restoreLayout = stubLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.restoreAllMocks();
});

function renderPanel(store: HistoryStore, sending: OutboxEntry[] = []) {
  const onRemix = vi.fn<(entry: HistoryEntry) => void>();
  const onUseAsInput = vi.fn<(url: string, mediaType: 'image' | 'video' | 'audio') => void>();
  const user = userEvent.setup();
  const view = render(
    <>
      <HistoryPanel store={store} sending={sending} onRemix={onRemix} onUseAsInput={onUseAsInput} />
      <NoticeArea />
    </>,
  );
  return { view, user, onRemix, onUseAsInput, region: screen.getByRole('region', { name: 'History' }) };
}

const cards = (root: HTMLElement) => within(root).queryAllByTestId('task-card');
const cardOf = (root: HTMLElement, taskId: string) => {
  const card = cards(root).find((c) => c.dataset.taskId === taskId);
  if (!card) throw new Error(`no card for ${taskId}`);
  return card;
};

const MIXED: HistoryEntry[] = [
  makeEntry('task_old', { createdAt: T0, params: { prompt: 'a lighthouse in fog' } }),
  makeEntry('task_queued', {
    createdAt: T0 + 1_000,
    status: 'queued',
    outputs: [],
    completedAt: null,
    creditsCharged: null,
    params: { prompt: 'queued cat' },
  }),
  makeEntry('task_running', {
    createdAt: T0 + 2_000,
    status: 'running',
    outputs: [],
    completedAt: null,
    meta: { title: 'Aurora Video', mediaType: 'video', estimatedSeconds: 30 },
    params: { prompt: 'ocean waves at night' },
  }),
  makeEntry('task_failed', {
    createdAt: T0 + 3_000,
    status: 'failed',
    outputs: [],
    error: { code: 'generation_failed', message: 'The model could not finish this prompt.' },
    creditsCharged: 0,
    params: { prompt: 'a failing prompt' },
  }),
  makeEntry('task_cancelled', {
    createdAt: T0 + 4_000,
    status: 'cancelled',
    outputs: [],
    creditsCharged: 0,
    meta: { title: 'Tone Speech', mediaType: 'audio' },
    params: { prompt: 'a cancelled voice' },
  }),
  makeEntry('task_new', {
    createdAt: T0 + 5_000,
    meta: { title: 'Tone Speech', mediaType: 'audio' },
    outputs: [{ url: `${CDN}/voice.wav` }],
    params: { prompt: 'hello there, in a calm voice' },
  }),
];

describe('HistoryPanel', () => {
  it('is the region "History", listing entries newest first with the exact status words', async () => {
    const { region } = renderPanel(await storeWith(MIXED));
    expect(within(region).getByRole('heading', { name: 'History' })).toBeTruthy();
    const shown = cards(region);
    expect(shown.map((c) => c.dataset.taskId)).toEqual([
      'task_new',
      'task_cancelled',
      'task_failed',
      'task_running',
      'task_queued',
      'task_old',
    ]);
    expect(shown.map((c) => c.querySelector('[data-status]')?.textContent)).toEqual([
      'succeeded',
      'cancelled',
      'failed',
      'running',
      'queued',
      'succeeded',
    ]);
    expect(within(region).getByTestId('history-count').textContent).toBe('6 tasks');
  });

  it('shows a failed task’s error code and message, and a queued task’s quote and ETA', async () => {
    const { region } = renderPanel(await storeWith(MIXED));
    const failed = within(cardOf(region, 'task_failed'));
    expect(failed.getByText('generation_failed')).toBeTruthy();
    expect(failed.getByText('The model could not finish this prompt.')).toBeTruthy();
    const queued = within(cardOf(region, 'task_queued'));
    expect(queued.getByText('~4 credits quoted')).toBeTruthy();
    expect(queued.getByText(/left$|^longer than the usual/)).toBeTruthy();
    expect(within(cardOf(region, 'task_old')).getByText('4 credits')).toBeTruthy();
    expect(within(cardOf(region, 'task_old')).getByText('took 9 s')).toBeTruthy();
  });

  it('renders outputs as media: a lazy image with the prompt as alt, an audio player, no inline SVG', async () => {
    const svg = makeEntry('task_svg', {
      createdAt: T0 + 9_000,
      outputs: [{ url: `${CDN}/logo.svg` }],
      params: { prompt: 'a vector logo' },
    });
    const video = makeEntry('task_vid', {
      createdAt: T0 + 8_000,
      meta: { title: 'Aurora Video', mediaType: 'video' },
      outputs: [{ url: `${CDN}/clip.mp4`, thumbnailUrl: `${CDN}/clip.jpg` }],
    });
    const { region } = renderPanel(await storeWith([...MIXED, svg, video]));
    const img = within(cardOf(region, 'task_svg')).getByRole<HTMLImageElement>('img', {
      name: 'a vector logo',
    });
    expect(img.getAttribute('src')).toBe(`${CDN}/logo.svg`);
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(region.querySelector('svg image, object, embed, iframe')).toBeNull();
    // A video with a poster loads nothing until played; its thumbnail has a Play button, not controls.
    const player = cardOf(region, 'task_vid').querySelector('video');
    expect(player?.getAttribute('preload')).toBe('none');
    expect(player?.getAttribute('poster')).toBe(`${CDN}/clip.jpg`);
    expect(player?.hasAttribute('controls')).toBe(false);
    expect(within(cardOf(region, 'task_vid')).getByRole('button', { name: 'Play' })).toBeTruthy();
    // Audio loads its metadata, so its player shows its length.
    const audio = cardOf(region, 'task_new').querySelector('audio');
    expect(audio?.getAttribute('src')).toBe(`${CDN}/voice.wav`);
    expect(audio?.getAttribute('preload')).toBe('metadata');
  });

  it('filters by status, media type and model, and searches prompts', async () => {
    const { region, user } = renderPanel(await storeWith(MIXED));
    const ids = () => cards(region).map((c) => c.dataset.taskId);

    await user.selectOptions(within(region).getByRole('combobox', { name: 'Status' }), 'failed');
    expect(ids()).toEqual(['task_failed']);
    expect(within(region).getByTestId('history-count').textContent).toBe('1 of 6 tasks');

    await user.selectOptions(within(region).getByRole('combobox', { name: 'Status' }), 'all');
    await user.selectOptions(within(region).getByRole('combobox', { name: 'Media type' }), 'audio');
    expect(ids()).toEqual(['task_new', 'task_cancelled']);

    await user.selectOptions(within(region).getByRole('combobox', { name: 'Media type' }), 'all');
    const model = within(region).getByRole<HTMLSelectElement>('combobox', { name: 'Model' });
    expect([...model.options].map((o) => o.value)).toEqual([
      'all',
      'Aurora Video',
      'Lumen Canvas',
      'Tone Speech',
    ]);
    await user.selectOptions(model, 'Aurora Video');
    expect(ids()).toEqual(['task_running']);

    await user.selectOptions(model, 'all');
    await user.type(within(region).getByRole('combobox', { name: 'Search prompts' }), 'LIGHTHOUSE');
    await waitFor(() => expect(ids()).toEqual(['task_old']));

    await user.clear(within(region).getByRole('combobox', { name: 'Search prompts' }));
    await user.type(within(region).getByRole('combobox', { name: 'Search prompts' }), 'no such thing');
    expect(await within(region).findByText('No tasks match these filters.')).toBeTruthy();
    await user.click(within(region).getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => expect(ids()).toHaveLength(6));
  });

  it('keeps 5,000 entries virtualised: only a window of cards is in the DOM', async () => {
    const many = Array.from({ length: 5_000 }, (_, i) =>
      makeEntry(`task_${String(i).padStart(5, '0')}`, {
        createdAt: T0 + i,
        params: { prompt: `prompt number ${i}` },
      }),
    );
    const { region, user } = renderPanel(await storeWith(many));
    expect(within(region).getByTestId('history-count').textContent).toBe('5,000 tasks');
    const first = cards(region);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(100);
    expect(first[0]?.dataset.taskId).toBe('task_04999');

    // Scrolled far down, another window replaces the first.
    const scroller = within(region).getByTestId('history-scroll');
    act(() => {
      scroller.scrollTop = 2_500 * 128;
      fireEvent.scroll(scroller);
    });
    await waitFor(() => expect(cards(region)[0]?.dataset.taskId).not.toBe('task_04999'));
    expect(cards(region).length).toBeLessThan(100);

    // A search over all 5,000 still finds the one.
    await user.type(within(region).getByRole('combobox', { name: 'Search prompts' }), 'number 1234');
    await waitFor(() => expect(cards(region).map((c) => c.dataset.taskId)).toEqual(['task_01234']));
  });

  it('shows submits still sending first, saying they are re-sent automatically', async () => {
    const { region } = renderPanel(await storeWith(MIXED), [makeSending('idem-1', 'a pending prompt')]);
    const sending = within(region).getByTestId('sending-card');
    expect(within(sending).getByText('Sending…')).toBeTruthy();
    expect(within(sending).getByText('a pending prompt')).toBeTruthy();
    expect(within(sending).getByText(/re-sent automatically/)).toBeTruthy();
    // Before every task card.
    const all = region.querySelectorAll('[data-testid="sending-card"], [data-testid="task-card"]');
    expect(all[0]).toBe(sending);
  });

  it('has an empty state', async () => {
    const { region } = renderPanel(await storeWith([]));
    expect(within(region).getByText('No tasks yet')).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Export' })).toHaveProperty('disabled', true);
  });

  it('updates when the store changes', async () => {
    const store = await storeWith(MIXED);
    const { region } = renderPanel(store);
    await act(() => store.put(makeEntry('task_newest', { createdAt: T0 + 60_000 })));
    expect(cards(region)[0]?.dataset.taskId).toBe('task_newest');
  });

  it('renders attack-like prompt, title and error text as text', async () => {
    const attack = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
    const evil = makeEntry('task_evil', {
      createdAt: T0 + 10_000,
      status: 'failed',
      outputs: [],
      meta: { title: `<b>bold</b>\u202Egnp.exe`, subtitle: '<i>v</i>' },
      error: { code: '<u>code</u>', message: attack },
      params: { prompt: attack },
    });
    const jsUrl = makeEntry('task_js', {
      createdAt: T0 + 9_000,
      outputs: [{ url: 'javascript:alert(1)' }],
      params: { prompt: 'harmless' },
    });
    const { region } = renderPanel(await storeWith([evil, jsUrl]));
    const card = cardOf(region, 'task_evil');
    expect(card.querySelector('script, b, i, u')).toBeNull();
    expect(card.querySelector('img')).toBeNull();
    expect(within(card).getAllByText(attack)).toHaveLength(2);
    expect(within(card).getByText('<b>bold</b>gnp.exe')).toBeTruthy();
    expect((window as unknown as Record<string, unknown>).__pwned).toBeUndefined();
    const jsCard = cardOf(region, 'task_js');
    expect(jsCard.querySelector('img[src^="javascript"]')).toBeNull();
    expect(within(jsCard).getByText('Preview unavailable')).toBeTruthy();
  });
});

describe('HistoryPanel: export and import', () => {
  it('exports a dated JSON without the key, which imports into a fresh store as the same entries', async () => {
    const store = await storeWith(MIXED, 'conn-secret-hash');
    let blob: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blob = b as Blob;
      return 'blob:export';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { region, user } = renderPanel(store);
    await user.click(within(region).getByRole('button', { name: 'Export' }));
    // The file is made asynchronously (the per-key sections, such as blind votes, are read first).
    await waitFor(() => expect(names).toHaveLength(1));
    expect(names[0]).toMatch(/^media-studio-history-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await (blob as unknown as Blob).text();
    expect(text).not.toContain('conn-secret-hash');
    expect(text).not.toMatch(/apiKey|authorization|bearer/i);
    cleanup();

    const fresh = await storeWith([], 'conn-other');
    const second = renderPanel(fresh);
    const input = within(second.region).getByLabelText<HTMLInputElement>('Import history file');
    await second.user.upload(input, new File([text], 'history.json', { type: 'application/json' }));
    expect(await screen.findByText('Imported 6 tasks (0 skipped)')).toBeTruthy();
    const strip = ({ connectionId: _c, unseen: _u, ...rest }: HistoryEntry) => rest;
    expect(fresh.list().map(strip)).toEqual(store.list().map(strip));
    // The list follows its store as a transition (a moment later), not within the import's own render.
    await waitFor(() =>
      expect(cards(second.region).map((c) => c.dataset.taskId)).toEqual(store.list().map((e) => e.taskId)),
    );
  });

  it('counts skipped entries and reports a file that is not an export', async () => {
    const store = await storeWith([]);
    const { region, user } = renderPanel(store);
    const input = within(region).getByLabelText<HTMLInputElement>('Import history file');
    const file = JSON.stringify({
      format: 'media-studio-history',
      version: 1,
      exportedAt: 'x',
      tasks: [makeEntry('task_ok'), { taskId: 'broken' }],
    });
    await user.upload(input, new File([file], 'h.json', { type: 'application/json' }));
    expect(await screen.findByText('Imported 1 task (1 skipped)')).toBeTruthy();

    await user.upload(input, new File(['{not json'], 'bad.json', { type: 'application/json' }));
    expect(await screen.findByText('Could not import: the file is not valid JSON.')).toBeTruthy();
    await user.upload(input, new File(['{"tasks": []}'], 'other.json', { type: 'application/json' }));
    expect(
      await screen.findByText('Could not import: the file is not a Media Studio history export.'),
    ).toBeTruthy();
  });
});

describe('HistoryPanel: held tasks read from the queue itself', () => {
  it('shows them with their places and follows each change, without rendering its parent again', async () => {
    let items: readonly OutboxEntry[] = [makeSending('k1', 'first held'), makeSending('k2', 'second held')];
    let snapshot = { items };
    const listeners = new Set<() => void>();
    const source = {
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      snapshot: () => snapshot,
    };
    const store = await storeWith([]);
    const parentRenders = vi.fn();
    function Parent() {
      parentRenders();
      return (
        <HistoryPanel store={store} sending={[]} heldFrom={source} onRemix={vi.fn()} onUseAsInput={vi.fn()} />
      );
    }
    render(<Parent />);
    const region = screen.getByRole('region', { name: 'History' });
    expect(
      within(region)
        .getAllByTestId('held-card')
        .map((c) => c.textContent),
    ).toEqual([expect.stringContaining('first held'), expect.stringContaining('second held')]);
    const before = parentRenders.mock.calls.length;

    // A move in the queue: the second goes first.
    items = [items[1]!, items[0]!];
    snapshot = { items };
    act(() => listeners.forEach((l) => l()));
    expect(within(region).getAllByTestId('held-card')[0]!.textContent).toContain('second held');
    expect(
      within(region).getByText('Held · place 1', { exact: true }).closest('[data-testid="held-card"]')!
        .textContent,
    ).toContain('second held');
    expect(parentRenders.mock.calls.length).toBe(before);
  });
});

describe('HistoryPanel: the team’s earlier tasks (kept by the team-space server)', () => {
  it('the list’s end reads them with a button, then says all are shown; a search asks the server too', async () => {
    const store = await HistoryStore.open(CONNECTION);
    await store.put(makeEntry('task_mine', { createdAt: T0 + 10_000 }));
    const asked: URL[] = [];
    const earlierRecords = [1, 2, 3].map((n) =>
      toTeamTask(
        makeEntry(`task_earlier_${n}`, { createdAt: T0 - n, params: { prompt: `an old lighthouse ${n}` } }),
        'key-b',
      ),
    );
    const archive = new TeamArchive({
      baseUrl: 'http://studio.test/sync',
      token: () => 'ms_live_key',
      history: store,
      memberId: 'key-a',
      nameOf: () => 'Bo',
      archivedBefore: () => T0,
      fetch: (async (input: RequestInfo | URL) => {
        const url = new URL(String(input));
        asked.push(url);
        const q = url.searchParams.get('q');
        return Response.json({ tasks: q ? [] : earlierRecords, next: null });
      }) as typeof fetch,
    });
    const user = userEvent.setup();
    render(
      <HistoryPanel store={store} sending={[]} onRemix={vi.fn()} onUseAsInput={vi.fn()} earlier={archive} />,
    );
    const region = screen.getByRole('region', { name: 'History' });
    expect(cards(region).map((c) => c.dataset.taskId)).toEqual(['task_mine']);
    await user.click(within(region).getByRole('button', { name: 'Show the team’s earlier tasks' }));
    await waitFor(() => expect(cards(region)).toHaveLength(4));
    expect(cardOf(region, 'task_earlier_1').textContent).toContain('Bo');
    expect(within(region).getByText('Every earlier task of the team is shown.')).toBeTruthy();
    await user.type(within(region).getByRole('combobox', { name: 'Search prompts' }), 'harbour');
    await waitFor(() => expect(asked.some((u) => u.searchParams.get('q') === 'harbour')).toBe(true));
    // Asked once, when the typing rested: not once per key ("h", "ha", ...).
    expect(asked.flatMap((u) => u.searchParams.get('q') ?? [])).toEqual(['harbour']);
  });
});
