import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Comments, test names and doc strings say the reason or cite a document in the repository (docs/*.md,
// sandbox/README.md), never a ticket ("issue 13", "#15 item 3", "(#7)"): a reader of the repository cannot
// open a ticket. This scans every file of the source folders and the root's *.ts and lists each line that
// cites one. It walks the folders rather than asking git, so it also runs in a copy without .git (the Node 24
// check's).

const ISSUE_CITATION = /[Ii]ssues? #?[0-9]+|#[0-9]+ item|\(#[0-9]+\)/;
/** A citation a comment's line break cuts in two: "(issue" at a line's end, "17, ..." on the next. */
const CUT_AT_END = /[Ii]ssues?\s*#?$/;
const CUT_REST = /^\s*(?:\/\/|\*|#)?\s*#?[0-9]/;

/** The lines of a text that cite a ticket, a citation cut by a line break counted on its first line. */
function citingLines(text: string): number[] {
  const lines = text.split('\n');
  const found: number[] = [];
  lines.forEach((line, index) => {
    const next = lines[index + 1] ?? '';
    if (ISSUE_CITATION.test(line) || (CUT_AT_END.test(line) && CUT_REST.test(next))) found.push(index);
  });
  return found;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const self = 'scripts/no-issue-citations.test.ts';
const scanned = [
  'src',
  'sandbox',
  'server',
  'node-shared',
  'scripts',
  'e2e',
  'e2e-browsers',
  'bench',
  'contract',
];
/** What is written by tools or installed, not by us. */
const skipped = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'results.json']);

function sourceFiles(): string[] {
  const top = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => e.name);
  const nested = scanned.flatMap((folder) =>
    readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
      .filter(
        (e) =>
          e.isFile() &&
          !relative(root, join(e.parentPath, e.name))
            .split('/')
            .some((p) => skipped.has(p)),
      )
      .map((e) => relative(root, join(e.parentPath, e.name))),
  );
  return [...top, ...nested];
}

function citations(): string[] {
  const files = sourceFiles().filter((file) => file !== self);
  const found: string[] = [];
  for (const file of files) {
    const buffer = readFileSync(join(root, file));
    if (buffer.includes(0)) continue; // binary (images, fonts): no comments to read
    const lines = buffer.toString('utf8').split('\n');
    for (const index of citingLines(lines.join('\n')))
      found.push(`${file}:${index + 1}: ${lines[index]!.trim()}`);
  }
  return found;
}

describe('no ticket citations in the source', () => {
  it('the pattern finds the ticket citations and lets document citations through', () => {
    for (const cited of [
      '(issue 13)',
      'Issue 17: the',
      'issues 5 and 7',
      'issue #4',
      '#15 item 3',
      'CSP (#7)',
    ])
      expect(cited).toMatch(ISSUE_CITATION);
    for (const fine of ['api-notes §7', 'product-notes §3 "Uploads"', 'docs/team-space.md', 'item 3', '#7'])
      expect(fine).not.toMatch(ISSUE_CITATION);
  });

  it('finds a citation a line break cuts in two, and not a line that merely ends in "issue"', () => {
    expect(citingLines('// not in one long task (issue\n// 17, total blocking time)')).toEqual([0]);
    expect(citingLines(' * see issue\n * #4 for why')).toEqual([0]);
    expect(citingLines('// a known issue\n// that the browser has')).toEqual([]);
  });

  it('no tracked source line cites a ticket (cite docs/ or say the reason)', () => {
    expect(citations()).toEqual([]);
  });
});
