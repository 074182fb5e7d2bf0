import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { NoticeArea } from '../../components/notice-area';
import type { Dropped } from '../../model/library/presets';
import { usePresetNotice } from './use-preset-notice';

afterEach(cleanup);

type Applied = { name: string; dropped: Dropped[] } | null;

function Harness({ applied, nonce }: { applied: Applied; nonce: number | undefined }) {
  usePresetNotice(applied, nonce);
  return <NoticeArea />;
}

const notices = () => screen.getByRole('region', { name: /^Notices/ });
const noticeOf = async (text: string) => (await within(notices()).findByText(text)).closest('li')!;

describe('the applied-preset notice', () => {
  it('says in the Notices that a preset was applied', async () => {
    render(<Harness applied={{ name: 'Dusk', dropped: [] }} nonce={1} />);
    expect(await noticeOf('Preset "Dusk" applied.')).toBeTruthy();
  });

  it('lists what no longer fits, as a warning named "Dropped from the preset"', async () => {
    render(
      <Harness
        applied={{
          name: 'Old one',
          dropped: [
            { id: 'aspect_ratio', reason: '"5:4" is no longer an option' },
            { id: 'retired_knob', reason: 'no longer a setting of this item' },
          ],
        }}
        nonce={1}
      />,
    );
    const notice = await noticeOf('Preset "Old one" applied, without what no longer fits:');
    const dropped = within(notice).getByRole('list', { name: 'Dropped from the preset' });
    expect(
      within(dropped)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'aspect_ratio: "5:4" is no longer an option',
      'retired_knob: no longer a setting of this item',
    ]);
  });

  it('is said once per application: a refit of the same one (a catalog refetch) does not bring it back', async () => {
    const user = userEvent.setup();
    const view = render(<Harness applied={{ name: 'Dusk', dropped: [] }} nonce={1} />);
    const notice = await noticeOf('Preset "Dusk" applied.');
    await user.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    await act(() => new Promise((r) => setTimeout(r, 600)));
    expect(within(notices()).queryByText('Preset "Dusk" applied.')).toBeNull();

    // The same application fitted again: a new object, the same nonce.
    view.rerender(<Harness applied={{ name: 'Dusk', dropped: [] }} nonce={1} />);
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(within(notices()).queryByText('Preset "Dusk" applied.')).toBeNull();

    // Applied again: said again.
    view.rerender(<Harness applied={{ name: 'Dusk', dropped: [] }} nonce={2} />);
    expect(await noticeOf('Preset "Dusk" applied.')).toBeTruthy();
  });

  it('shows a preset name from a shared link as text, without its bidi overrides', async () => {
    render(<Harness applied={{ name: '<b>x</b>\u202Egpj.exe', dropped: [] }} nonce={1} />);
    expect(await noticeOf('Preset "<b>x</b>gpj.exe" applied.')).toBeTruthy();
  });
});
