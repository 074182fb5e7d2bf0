import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { cached } from './intl-format';

// Numbers, dates, sizes, durations and lists as people read them in the studio: every one through Intl,
// in the studio's locale (locale.ts), never a locale written in the code (a lint rule in eslint.config.js
// refuses one). The words around them ("credits", "s", "min", "bytes") are messages, translated with the
// rest of the studio's text.

// Lists are in a module of their own, which the connect screen (in the first load) imports without the rest.
export { formatList } from './intl-format';

/** The studio locale's number format for these options. */
export const numberFormat = (options?: Intl.NumberFormatOptions): Intl.NumberFormat =>
  cached('number', options, (locale) => new Intl.NumberFormat(locale, options));

/** The studio locale's date and time format for these options. */
export const dateTimeFormat = (options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat =>
  cached('date', options, (locale) => new Intl.DateTimeFormat(locale, options));

/** A count with thousands grouped as the locale groups them: "5,000" in English, "5.000" in German. */
export const formatCount = (n: number): string => numberFormat().format(n);

/** A date, a time or both, as the options ask, in the studio's locale. */
export const formatDate = (ms: number | Date, options: Intl.DateTimeFormatOptions): string =>
  dateTimeFormat(options).format(ms);

/** "5 minutes ago", "yesterday", "in 2 hours" (numeric: 'auto' says "yesterday" rather than "1 day ago"). */
export const formatRelative = (value: number, unit: Intl.RelativeTimeFormatUnit): string =>
  cached('relative', undefined, (locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })).format(
    value,
    unit,
  );

// The price units the catalog names (api-notes: typicalPrice.unit); a unit it adds later shows as sent.
const UNIT_LABELS: Record<string, MessageDescriptor> = {
  image: msg({ message: 'image', comment: 'price unit: "~12 credits / image"' }),
  second: msg({ message: 'second', comment: 'price unit: "~0.4 credits / second"' }),
  frame: msg({ message: 'frame', comment: 'price unit: "~2 credits / frame"' }),
  call: msg({ message: 'call', comment: 'price unit: "~1 credit / call"' }),
};

function unitLabel(unit: string): string {
  if (unit === '1k_chars') {
    const thousand = formatCount(1000);
    return t({ message: `${thousand} characters`, comment: 'price unit: "~3 credits / 1,000 characters"' });
  }
  const label = UNIT_LABELS[unit];
  return label ? i18n._(label) : unit;
}

/** A number of credits: "1 credit", "1,250 credits", "0.5 credits" (two decimals at most). */
export function formatCredits(n: number): string {
  const rounded = Number.isInteger(n) ? n : Math.round(n * 100) / 100;
  const count = formatCount(rounded);
  return plural(rounded, { one: `${count} credit`, other: `${count} credits` });
}

/** typicalPrice per unit, e.g. "~12 credits / image", "~0.4 credits / second" (product-notes §3, Catalog). */
export function formatTypicalPrice(
  p: { typicalCredits: number; unit: string } | null | undefined,
): string | null {
  if (!p) return null;
  const credits = formatCredits(p.typicalCredits);
  const unit = unitLabel(p.unit);
  return t({ message: `~${credits} / ${unit}`, comment: 'a typical price: "~12 credits / image"' });
}

/**
 * A duration: "<1 s", "42 s", "2 min 5 s". The digits are the locale's; the unit words stay messages:
 * Intl's own short units read "42 sec" in English, and Intl.DurationFormat is not in every browser the
 * studio supports (Firefox ESR) nor in Node 20.
 */
export function formatSeconds(s: number): string {
  if (s < 1) {
    const one = formatCount(1);
    return t({ message: `<${one} s`, comment: 'a duration under one second; s: seconds' });
  }
  if (s < 60) {
    const seconds = formatCount(Math.round(s));
    return t({ message: `${seconds} s`, comment: 'a duration; s: seconds' });
  }
  const minutes = formatCount(Math.floor(s / 60));
  const rest = Math.round(s % 60);
  if (!rest) return t({ message: `${minutes} min`, comment: 'a duration; min: minutes' });
  const seconds = formatCount(rest);
  return t({ message: `${minutes} min ${seconds} s`, comment: 'a duration; min: minutes, s: seconds' });
}

const DATE_TIME: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};

/** A short date and time in the studio's locale, e.g. "Nov 22, 2:05 PM". */
export const formatDateTime = (ms: number): string => formatDate(ms, DATE_TIME);

/** A size in a binary unit: the symbols are messages, as French writes "Ko", "Mo", "Go". */
function sizeIn(unit: number, size: string): string {
  switch (unit) {
    case 0:
      return t({ message: `${size} KB`, comment: 'a size in kilobytes of 1,024 bytes: "1.5 KB"' });
    case 1:
      return t({ message: `${size} MB`, comment: 'a size in megabytes of 1,024 x 1,024 bytes: "38.1 MB"' });
    case 2:
      return t({ message: `${size} GB`, comment: 'a size in gigabytes (binary): "2.4 GB"' });
    default:
      return t({ message: `${size} TB`, comment: 'a size in terabytes (binary): "1.1 TB"' });
  }
}
const LARGEST_UNIT = 3;
const ONE_DECIMAL: Intl.NumberFormatOptions = { minimumFractionDigits: 1, maximumFractionDigits: 1 };

/**
 * A size as read: "512 bytes", "1.5 KB", "38.1 MB", "572 MB" (one decimal under 100). Binary units
 * (1 KB = 1,024 bytes), because the API's limits are: its "100 MB" upload limit is 100 x 1,024 x 1,024
 * bytes (contract/upload.ts), so a file at the limit shows as "100 MB", never "104.9 MB"; Chromium's
 * downloads and Windows count the same way. The number is the locale's ("1,5 KB" in French); the unit
 * is a message (KB, MB... in English; "Ko" in French): Intl's byte units are the decimal ones (its
 * "kilobyte" is 1,000 bytes, written "kB"), so they would name a binary size wrongly.
 */
export function formatBytes(bytes: number): string {
  const n = Number.isFinite(bytes) ? Math.max(0, Math.round(bytes)) : 0;
  if (n < 1024) {
    const count = formatCount(n);
    return plural(n, { one: `${count} byte`, other: `${count} bytes` });
  }
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < LARGEST_UNIT) {
    value /= 1024;
    unit += 1;
  }
  // 1023.96 KB rounds to "1,024.0 KB" at one decimal: show it as the next unit's 1.0 instead.
  if (Number(value.toFixed(1)) >= 1024 && unit < LARGEST_UNIT) {
    value /= 1024;
    unit += 1;
  }
  const text = value >= 100 ? formatCount(Math.round(value)) : numberFormat(ONE_DECIMAL).format(value);
  return sizeIn(unit, text);
}

const NUMERIC_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric' };

/** A date in digits, as the locale writes it: "11/26/2026" in American English, "26.11.2026" in German. */
export const formatNumericDate = (ms: number): string => formatDate(ms, NUMERIC_DATE);

const TWO_DIGITS: Intl.NumberFormatOptions = { minimumIntegerDigits: 2 };

/** A media clock, minutes and seconds: "1:05", in the locale's digits. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${formatCount(Math.floor(s / 60))}:${numberFormat(TWO_DIGITS).format(s % 60)}`;
}

const ONE_DECIMAL_AT_MOST: Intl.NumberFormatOptions = { maximumFractionDigits: 1 };

/** A number to one decimal at most: "4.5", "4" (an average rating). */
export const formatOneDecimal = (n: number): string => numberFormat(ONE_DECIMAL_AT_MOST).format(n);

const WHOLE_PERCENT: Intl.NumberFormatOptions = { style: 'percent', maximumFractionDigits: 0 };

/** A whole percentage, as a zoom level: "250%" in English, "250 %" in French. */
export const formatWholePercent = (rate: number): string => numberFormat(WHOLE_PERCENT).format(rate);

/** A share as a percentage: "12%", one decimal under 10 % ("4.5%") so a small share is not "0%". */
export function formatPercent(rate: number): string {
  const digits = rate < 0.1 && rate > 0 ? 1 : 0;
  return numberFormat({
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(rate);
}
