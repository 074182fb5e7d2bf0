// Numbers as people read them in the studio.

const UNIT_LABELS: Record<string, string> = {
  image: 'image',
  second: 'second',
  frame: 'frame',
  '1k_chars': '1,000 characters',
  call: 'call',
};

// One formatter, made once: toLocaleString makes a new one on every call, which costs a long list
// (every card and day heading that scrolls into view) more than the rest of its render.
const COUNT = new Intl.NumberFormat('en-US');

/** A count with thousands grouped: "5,000". */
export const formatCount = (n: number): string => COUNT.format(n);

export function formatCredits(n: number): string {
  const rounded = Number.isInteger(n) ? n : Math.round(n * 100) / 100;
  return `${formatCount(rounded)} ${rounded === 1 ? 'credit' : 'credits'}`;
}

/** typicalPrice per unit, e.g. "~12 credits / image", "~0.4 credits / second" (product-notes §3, Catalog). */
export function formatTypicalPrice(
  p: { typicalCredits: number; unit: string } | null | undefined,
): string | null {
  if (!p) return null;
  return `~${formatCredits(p.typicalCredits)} / ${UNIT_LABELS[p.unit] ?? p.unit}`;
}

export function formatSeconds(s: number): string {
  if (s < 1) return '<1 s';
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s % 60);
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/** A short date and time in the user's locale, e.g. "Nov 22, 2:05 PM". */
export const formatDateTime = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * A size as read: "512 bytes", "1.5 KB", "38.1 MB", "572 MB" (one decimal under 100). Binary units
 * (1 KB = 1,024 bytes), because the API's limits are: its "100 MB" upload limit is 100 x 1,024 x 1,024
 * bytes (contract/upload.ts), so a file at the limit shows as "100 MB", never "104.9 MB"; Chromium's
 * downloads and Windows count the same way.
 */
export function formatBytes(bytes: number): string {
  const n = Number.isFinite(bytes) ? Math.max(0, Math.round(bytes)) : 0;
  if (n < 1024) return `${formatCount(n)} ${n === 1 ? 'byte' : 'bytes'}`;
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // 1023.96 KB rounds to "1,024.0 KB" at one decimal: show it as the next unit's 1.0 instead.
  if (Number(value.toFixed(1)) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = value >= 100 ? formatCount(Math.round(value)) : ONE_DECIMAL.format(value);
  return `${text} ${BYTE_UNITS[unit]}`;
}
