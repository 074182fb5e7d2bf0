import { Trans } from '@lingui/react/macro';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

// Someone's text inside a message (docs/i18n.md): shown as written, never read as the message's tags.
function Shared({ who }: { who: string }) {
  return (
    <p data-testid="line">
      <Trans>
        Shared by {who} on <a href="#when">Monday</a>
      </Trans>
    </p>
  );
}

describe("the studio's <Trans>", () => {
  afterEach(cleanup);

  it('shows a name that looks like markup as its text', () => {
    render(<Shared who="<b>Bea</b>" />);
    expect(screen.getByTestId('line').textContent).toBe('Shared by <b>Bea</b> on Monday');
    expect(screen.getByTestId('line').querySelector('b')).toBeNull();
  });

  it("never lets a name stand for another of the message's elements", () => {
    render(<Shared who="<0>click</0>" />);
    expect(screen.getByTestId('line').textContent).toBe('Shared by <0>click</0> on Monday');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('keeps plain names and the tags of the message itself', () => {
    render(<Shared who="Bea" />);
    expect(screen.getByTestId('line').textContent).toBe('Shared by Bea on Monday');
    expect(screen.getByRole('link').textContent).toBe('Monday');
  });
});
