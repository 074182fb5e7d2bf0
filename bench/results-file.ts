import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prettier from 'prettier';

// bench/results.json: one entry per figure, each beside its target, merged so each bench script
// updates its own figures and keeps the others.

export interface Figure {
  value: number | null;
  unit: string;
  /** The target, e.g. "<= 150 KB"; `reported` when the figure is only reported, with no target to meet. */
  target: string;
  /** Whether the value meets the target (null when it could not be measured; ignored when only reported). */
  ok: boolean | null;
  note?: string;
}

export const REPORTED = 'reported';

/**
 * Whether a figure met its target, as the table and the console say it: a figure that is only reported
 * has no target, so it never shows as met (a table that said "met" of it would claim a target nobody set),
 * whatever `ok` its bench script set.
 */
export function verdict(f: Figure): 'yes' | 'no' | 'not measured' | 'no target' {
  if (f.target.trim().toLowerCase() === REPORTED) return 'no target';
  if (f.value === null || f.ok === null) return 'not measured';
  return f.ok ? 'yes' : 'no';
}

/**
 * bench/results.json, or the file BENCH_RESULTS names (the benches' smoke test writes a temporary one:
 * its tiny figures must never reach the real results or the table in docs/benchmarks.md).
 */
export const RESULTS = process.env.BENCH_RESULTS
  ? pathToFileURL(resolve(process.env.BENCH_RESULTS))
  : new URL('./results.json', import.meta.url);
/** Whether the figures go to bench/results.json (and so into docs/benchmarks.md's table). */
export const REAL_RESULTS = !process.env.BENCH_RESULTS;

export function record(section: string, figures: Record<string, Figure>): void {
  const all: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  all[section] = { measuredAt: new Date().toISOString(), ...figures };
  writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
}

export function print(section: string, figures: Record<string, Figure>): void {
  console.log(`\n${section}`);
  for (const [name, f] of Object.entries(figures)) {
    const mark = { yes: 'ok', no: 'MISSED', 'not measured': '?', 'no target': '' }[verdict(f)];
    console.log(
      `  ${name.padEnd(34)} ${String(f.value ?? 'n/a').padStart(10)} ${f.unit.padEnd(8)} target ${f.target.padEnd(14)} ${mark}${f.note ? `  (${f.note})` : ''}`,
    );
  }
}

const TABLE_FILE = new URL('../docs/benchmarks.md', import.meta.url);
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

type Results = Record<string, { measuredAt: string } & Record<string, Figure | string>>;

/** bench/results.json as a Markdown table: every figure beside its target. */
export function resultsTable(all: Results = JSON.parse(readFileSync(RESULTS, 'utf8')) as Results): string {
  const rows = ['| benchmark | figure | value | target | met |', '| --- | --- | --- | --- | --- |'];
  for (const [section, figures] of Object.entries(all)) {
    for (const [name, f] of Object.entries(figures)) {
      if (typeof f === 'string') continue; // measuredAt
      const value = f.value === null ? 'n/a' : `${f.value.toLocaleString('en-US')} ${f.unit}`;
      const met = { yes: 'yes', no: '**no**', 'not measured': '?', 'no target': '–' }[verdict(f)];
      rows.push(`| ${section} | ${name}${f.note ? ` (${f.note})` : ''} | ${value} | ${f.target} | ${met} |`);
    }
  }
  return rows.join('\n');
}

/** Writes the table into docs/benchmarks.md between its bench markers, formatted as `npm run lint` wants it. */
export async function updateReadme(): Promise<void> {
  const text = readFileSync(TABLE_FILE, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/benchmarks.md has no ${START} ... ${END} section`);
  const next = `${text.slice(0, from + START.length)}\n${resultsTable()}\n${text.slice(to)}`;
  const options = (await prettier.resolveConfig(TABLE_FILE)) ?? {};
  writeFileSync(TABLE_FILE, await prettier.format(next, { ...options, parser: 'markdown' }));
}
