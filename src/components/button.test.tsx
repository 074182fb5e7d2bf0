import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Button, type ButtonProps } from './button';

afterEach(cleanup);

// Two Tailwind classes that set the same property (`h-8` and `size-7`, `px-2.5` and `px-0`, two text
// colours) do not apply in the order of the class list but in the order of Tailwind's stylesheet, so
// an override passed in `className` may silently lose. These are the property groups a button's
// classes may set at most once per variant prefix (`dark:`, `hover:`...).
const GROUPS: Array<[string, RegExp]> = [
  ['text colour', /^text-(slate|indigo|rose|amber|emerald|sky|white|black|current|inherit)\b/],
  ['font size', /^text-(xs|sm|base|lg|\d?xl)$/],
  ['background', /^bg-/],
  ['height', /^(h|size)-/],
  ['width', /^(w|size)-/],
  ['padding-x', /^(p|px|pl|pr|ps|pe)-/],
  ['padding-y', /^(p|py|pt|pb)-/],
  ['gap', /^gap-/],
];

/** Pairs of classes that set the same property under the same variants: each is a lost override. */
function conflicts(className: string): string[] {
  const seen = new Map<string, string>();
  const found: string[] = [];
  for (const cls of className.split(/\s+/).filter(Boolean)) {
    const cut = cls.lastIndexOf(':');
    const prefix = cls.slice(0, cut + 1);
    const utility = cls.slice(cut + 1);
    for (const [group, pattern] of GROUPS) {
      if (!pattern.test(utility)) continue;
      const key = `${prefix}${group}`;
      const earlier = seen.get(key);
      if (earlier && earlier !== cls) found.push(`${earlier} / ${cls} (${key})`);
      else seen.set(key, cls);
    }
  }
  return found;
}

const classesOf = (props: ButtonProps) => {
  render(<Button {...props}>x</Button>);
  const { className } = screen.getByRole('button');
  cleanup();
  return className;
};

const VARIANTS = ['primary', 'secondary', 'ghost', 'danger', 'starred'] as const;
const SIZES = ['sm', 'md', 'lg', 'icon-sm', 'icon'] as const;

describe('Button', () => {
  it('finds the overrides that used to lose (the check itself can fail)', () => {
    // The image list's buttons before: 28x32 with 10 px padding instead of 28x28.
    expect(conflicts(classesOf({ size: 'sm', className: 'size-7 px-0 shadow' }))).toEqual([
      'h-8 / size-7 (height)',
      'px-2.5 / px-0 (padding-x)',
    ]);
    // The board's favourite star: ghost's slate text beside the amber, never amber.
    expect(
      conflicts(classesOf({ variant: 'ghost', className: 'text-amber-600 dark:text-amber-400' })),
    ).toEqual([
      'text-slate-700 / text-amber-600 (text colour)',
      'dark:text-slate-300 / dark:text-amber-400 (dark:text colour)',
    ]);
    // The history's "Clear filters": px-2 beside md's px-3.5.
    expect(conflicts(classesOf({ variant: 'ghost', className: 'px-2' }))).toEqual([
      'px-3.5 / px-2 (padding-x)',
    ]);
  });

  it('sets each property once in every variant and size', () => {
    for (const variant of VARIANTS)
      for (const size of SIZES)
        expect(conflicts(classesOf({ variant, size })), `${variant} ${size}`).toEqual([]);
  });

  it('has square icon sizes: 28 px and 36 px, no padding or height of the text sizes', () => {
    const small = classesOf({ size: 'icon-sm', className: 'shadow' }).split(' ');
    expect(small).toContain('size-7');
    expect(small.filter((c) => /^(h|w|p|px|py)-/.test(c))).toEqual([]);
    const large = classesOf({ size: 'icon' }).split(' ');
    expect(large).toContain('size-9');
    expect(large.filter((c) => /^(h|w|p|px|py)-/.test(c))).toEqual([]);
  });

  it('shows a toggle that is on in amber with the starred variant, light and dark', () => {
    const classes = classesOf({ variant: 'starred', 'aria-pressed': true }).split(' ');
    expect(classes).toEqual(expect.arrayContaining(['text-amber-700', 'dark:text-amber-400']));
    expect(classes.filter((c) => /(^|:)text-slate-/.test(c))).toEqual([]);
  });
});
