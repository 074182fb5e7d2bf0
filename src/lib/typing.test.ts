import { afterEach, describe, expect, it } from 'vitest';
import { isTypingTarget } from './typing';

// The one check that keeps every shortcut from firing while the user types.

afterEach(() => {
  document.body.replaceChildren();
});

const make = (html: string): HTMLElement => {
  const host = document.createElement('div');
  host.innerHTML = html;
  document.body.append(host);
  return host.querySelector('[data-target]')!;
};

describe('isTypingTarget', () => {
  it.each([
    ['a text input', '<input data-target>'],
    ['a search input', '<input type="search" data-target>'],
    ['a number input', '<input type="number" data-target>'],
    ['a textarea', '<textarea data-target></textarea>'],
    ['a select', '<select data-target><option>a</option></select>'],
    ['a slider', '<input type="range" data-target>'],
    ['a radio (the arrows move it)', '<input type="radio" data-target>'],
    ['a contenteditable element', '<div contenteditable="true" data-target></div>'],
    [
      'a textarea inside a dialog',
      '<div role="dialog" aria-modal="true"><textarea data-target></textarea></div>',
    ],
    ['an input inside a <dialog>', '<dialog open><input data-target></dialog>'],
  ])('is typing in %s', (_, html) => {
    expect(isTypingTarget(make(html))).toBe(true);
  });

  it.each([
    ['a button', '<button data-target>b</button>'],
    ['a checkbox', '<input type="checkbox" data-target>'],
    ['a file input', '<input type="file" data-target>'],
    ['a plain element', '<div tabindex="0" data-target></div>'],
    ['a dialog itself', '<div role="dialog" tabindex="-1" data-target><input></div>'],
  ])('is not typing on %s', (_, html) => {
    expect(isTypingTarget(make(html))).toBe(false);
  });

  it('is not typing without an element (the window, nothing)', () => {
    expect(isTypingTarget(window)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
