import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { getLocale, setLocale } from '../lib/locale';
import { CapMeter } from './cap-meter';

const initialLocale = getLocale();
afterEach(() => {
  cleanup();
  setLocale(initialLocale);
});

describe('CapMeter', () => {
  it('names the meter, shows the spend against the cap, and warns from 70 % and 90 % of it', () => {
    render(<CapMeter spent={1234} cap={5000} testId="cap" />);
    const meter = screen.getByRole('meter', { name: 'Spent today, against the daily cap' });
    expect(meter.getAttribute('value')).toBe('1234');
    expect(meter.getAttribute('max')).toBe('5000');
    expect(meter.getAttribute('low')).toBe('3500');
    expect(meter.getAttribute('high')).toBe('4500');
    expect(screen.getByTestId('cap').textContent).toBe('1,234 / 5,000');
  });

  it('gives each meter its own label when two are on screen', () => {
    render(
      <>
        <CapMeter spent={1} cap={10} />
        <CapMeter spent={2} cap={20} />
      </>,
    );
    const [a, b] = screen.getAllByRole('meter', { name: 'Spent today, against the daily cap' });
    expect(a!.getAttribute('aria-labelledby')).not.toBe(b!.getAttribute('aria-labelledby'));
  });

  it('writes its figures again in a new locale, without new props', () => {
    render(<CapMeter spent={4996} cap={5000} testId="cap" />);
    expect(screen.getByTestId('cap').textContent).toBe('4,996 / 5,000');
    act(() => setLocale('de-DE'));
    expect(screen.getByTestId('cap').textContent).toBe('4.996 / 5.000');
  });
});
