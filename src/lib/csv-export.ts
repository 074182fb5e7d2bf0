// CSV files the studio writes (RFC 4180: fields with a comma, quote or line break are quoted, quotes
// doubled, lines end with CRLF). Text that starts like a spreadsheet formula (= + - @, tab, carriage
// return) is prefixed with a quote mark so a spreadsheet shows it as text: names and prompts come from
// the catalog or the user, and must never run as a formula (CSV injection). Numbers are written as is.

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** @internal */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
