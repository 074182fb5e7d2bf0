import { existsSync, readFileSync, writeFileSync } from 'node:fs';

// bench/results.json: one entry per figure, each beside its target, merged so each bench script
// updates its own figures and keeps the others.

export interface Figure {
  value: number | null;
  unit: string;
  target: string;
  /** Whether the value meets the target (null when it could not be measured). */
  ok: boolean | null;
  note?: string;
}

export const RESULTS = new URL('./results.json', import.meta.url);

export function record(section: string, figures: Record<string, Figure>): void {
  const all: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  all[section] = { measuredAt: new Date().toISOString(), ...figures };
  writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
}

export function print(section: string, figures: Record<string, Figure>): void {
  console.log(`\n${section}`);
  for (const [name, f] of Object.entries(figures)) {
    const mark = f.ok === null ? '?' : f.ok ? 'ok' : 'MISSED';
    console.log(
      `  ${name.padEnd(34)} ${String(f.value ?? 'n/a').padStart(10)} ${f.unit.padEnd(8)} target ${f.target.padEnd(14)} ${mark}${f.note ? `  (${f.note})` : ''}`,
    );
  }
}
