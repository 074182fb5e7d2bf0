import { getLocale } from './locale';

// Intl's formatters in the studio's locale (locale.ts), and lists: the part of format.ts the first load
// needs (the connect screen names the origins it may call as a list), kept apart so that the rest of
// format.ts (credits, sizes, durations: messages) loads with the studio, not before it.

// Each formatter is made once per locale and options: an Intl constructor (and toLocaleString, which
// makes one on every call) costs a long list (every card and day heading that scrolls into view) more
// than the rest of its render.
const formatters = new Map<
  string,
  Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat | Intl.ListFormat
>();

/** The formatter of this kind and options in the studio's locale, made on first use. */
export function cached<
  F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat | Intl.ListFormat,
>(kind: string, options: object | undefined, make: (locale: string) => F): F {
  const locale = getLocale();
  const key = `${kind}|${locale}|${options ? JSON.stringify(options) : ''}`;
  let found = formatters.get(key) as F | undefined;
  if (!found) formatters.set(key, (found = make(locale)));
  return found;
}

const LIST_STYLES = {
  /** "a, b, and c": items that all hold. */
  and: { type: 'conjunction', style: 'long' },
  /** "a, b, or c": one of them. */
  or: { type: 'disjunction', style: 'long' },
  /** "a, b, c": a plain enumeration, the locale's separator with no word. */
  plain: { type: 'unit', style: 'short' },
} as const satisfies Record<string, Intl.ListFormatOptions>;

/** Words joined as the locale joins a list: formatList(['a', 'b', 'c'], 'and') is "a, b, and c" in English. */
export const formatList = (items: readonly string[], kind: keyof typeof LIST_STYLES = 'plain'): string =>
  cached('list', LIST_STYLES[kind], (locale) => new Intl.ListFormat(locale, LIST_STYLES[kind])).format(items);
