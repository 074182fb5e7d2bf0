const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1536 -> "1.5 KB", 0 -> "0 bytes": decimal units (as operating systems show file sizes), one decimal. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1000) return `${Math.max(0, Math.round(bytes || 0))} bytes`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}
