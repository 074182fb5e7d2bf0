import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CDN, makeEntry, T0 } from '../../test/gallery-test-utils';
import { renderGallery, setUpGalleryTests } from '../../test/gallery-view-setup';

// The Viewer's "Made from" and "Used in": an output's family, each a link that shows that output.

setUpGalleryTests();

describe('the Viewer’s lineage', () => {
  it('shows what the output was made from and what it was used in, and each link opens that output', async () => {
    const image = makeEntry('t_image', {
      createdAt: T0,
      params: { prompt: 'a red kite' },
      outputs: [{ url: `${CDN}/kite.png` }],
    });
    const cutout = makeEntry('t_cutout', {
      createdAt: T0 + 1000,
      params: { prompt: 'the kite, cut out', image_url: `${CDN}/kite.png` },
      meta: {
        parents: [
          { taskId: 't_image', outputIndex: 0 },
          { taskId: 't_gone', outputIndex: 0 },
        ],
      },
      outputs: [{ url: `${CDN}/cut.png` }],
    });
    const video = makeEntry('t_video', {
      createdAt: T0 + 2000,
      params: { prompt: 'the kite drifts away', first_frame: `${CDN}/cut.png` },
      meta: { parents: [{ taskId: 't_cutout', outputIndex: 0 }] },
      outputs: [{ url: `${CDN}/drift.png` }],
    });
    await renderGallery([video, cutout, image]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'the kite, cut out' }));
    const viewer = await screen.findByRole('dialog', { name: 'Viewer' });
    const madeFrom = within(viewer).getByRole('region', { name: 'Made from' });
    expect(madeFrom.textContent).toContain('a red kite');
    expect(madeFrom.textContent).toContain('1 more, not in this history');
    const usedIn = within(viewer).getByRole('region', { name: 'Used in' });
    expect(usedIn.textContent).toContain('the kite drifts away');

    await user.click(within(madeFrom).getByRole('button'));
    expect(within(viewer).getByRole('region', { name: 'Used in' }).textContent).toContain(
      'the kite, cut out',
    );
    expect(within(viewer).queryByRole('region', { name: 'Made from' })).toBeNull();
  });

  it('an output made from nothing known and used in nothing shows neither', async () => {
    await renderGallery([makeEntry('t_alone', { params: { prompt: 'alone' } })]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'alone' }));
    const viewer = await screen.findByRole('dialog', { name: 'Viewer' });
    expect(within(viewer).queryByRole('region', { name: 'Made from' })).toBeNull();
    expect(within(viewer).queryByRole('region', { name: 'Used in' })).toBeNull();
  });

  it('"Family tree" shows the whole family, the output shown marked, and a member opens in the Viewer', async () => {
    const image = makeEntry('t_image', {
      createdAt: T0,
      params: { prompt: 'a red kite' },
      outputs: [{ url: `${CDN}/kite.png` }],
    });
    const edit = makeEntry('t_edit', {
      createdAt: T0 + 1000,
      params: { prompt: 'the kite, at night', image_url: `${CDN}/kite.png` },
      meta: { parents: [{ taskId: 't_image', outputIndex: 0 }] },
      outputs: [{ url: `${CDN}/night.png` }],
    });
    const video = makeEntry('t_video', {
      createdAt: T0 + 2000,
      params: { prompt: 'the night kite flies', first_frame: `${CDN}/night.png` },
      meta: { parents: [{ taskId: 't_edit', outputIndex: 0 }] },
      outputs: [{ url: `${CDN}/fly.png` }],
    });
    const sibling = makeEntry('t_sibling', {
      createdAt: T0 + 3000,
      params: { prompt: 'the kite, upscaled', image_url: `${CDN}/kite.png` },
      meta: { parents: [{ taskId: 't_image', outputIndex: 0 }] },
      outputs: [{ url: `${CDN}/big.png` }],
    });
    await renderGallery([sibling, video, edit, image]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'the night kite flies' }));
    const viewer = await screen.findByRole('dialog', { name: 'Viewer' });
    const toggle = within(viewer).getByRole('button', { name: 'Family tree' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(viewer).queryByRole('region', { name: 'Family tree' })).toBeNull();
    await user.click(toggle);
    const tree = within(viewer).getByRole('region', { name: 'Family tree' });
    // The root, its two children (oldest first), the video under the edit.
    const root = tree.querySelector(':scope > ul > li')!;
    expect(root.textContent).toMatch(/^.*a red kite/);
    const generation = [...root.querySelectorAll(':scope > div > ul > li')];
    expect(generation.map((li) => li.querySelector('.truncate.text-xs')?.textContent)).toEqual([
      'the kite, at night',
      'the kite, upscaled',
    ]);
    const current = tree.querySelector('[aria-current="true"]')!;
    expect(current.textContent).toContain('the night kite flies');
    expect(generation[0]!.contains(current)).toBe(true);
    // The output shown is not a link; the others are, and one opens in the Viewer, still marked in the tree.
    expect(within(current as HTMLElement).queryByRole('button')).toBeNull();
    await user.click(within(tree).getByRole('button', { name: /the kite, upscaled/ }));
    const after = within(viewer).getByRole('region', { name: 'Family tree' });
    expect(after.querySelector('[aria-current="true"]')!.textContent).toContain('the kite, upscaled');
    expect(within(viewer).getByRole('region', { name: 'Made from' }).textContent).toContain('a red kite');
  });
});
