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
});
