// The table of docs/reliability.md ("What can go wrong, what happens, which test proves it")
// cannot go stale: every test file it names exists and holds a test of the quoted title. A title
// written as a template in its file (`gives up after ${TRANSACTION_ATTEMPTS} runs`) matches the
// table's title with any text in place of each `${...}`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HEADER = '| what goes wrong | what happens | test file | test |';

interface Row {
  line: number;
  file: string;
  title: string;
}

function tableRows(): Row[] {
  const lines = fs.readFileSync(path.join(ROOT, 'docs', 'reliability.md'), 'utf8').split('\n');
  const head = lines.findIndex((l) => l.trim() === HEADER);
  assert.ok(head >= 0, `docs/reliability.md has the table ${HEADER}`);
  const rows: Row[] = [];
  for (let i = head + 2; i < lines.length && lines[i]?.startsWith('|'); i++) {
    const cells = (lines[i] ?? '').split(' | ');
    const file = /`([^`]+)`/.exec(cells.at(-2) ?? '')?.[1] ?? '';
    const quoted = /^"(.*)" \|$/.exec((cells.at(-1) ?? '').trim())?.[1] ?? '';
    rows.push({ line: i + 1, file, title: quoted.replace(/\\"/g, '"') });
  }
  return rows;
}

/** The titles of the tests and suites of a file, each as a pattern (a template's `${...}` matching any text). */
function titles(text: string): RegExp[] {
  const out: RegExp[] = [];
  for (const m of text.matchAll(/\b(?:it|test|describe)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)) {
    const [, quote, raw = ''] = m;
    const literal = raw.replace(/\\(['"`\\])/g, '$1');
    const parts = quote === '`' ? literal.split(/\$\{[^}]*\}/) : [literal];
    out.push(new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`));
  }
  return out;
}

describe('docs/reliability.md', () => {
  it('names, for every failure, a test file that exists and a test it holds', () => {
    const rows = tableRows();
    assert.ok(rows.length >= 20, `${rows.length} rows`);
    const bad: string[] = [];
    for (const r of rows) {
      const abs = path.join(ROOT, r.file);
      if (!r.file.startsWith('test/') || !r.title) bad.push(`line ${r.line}: a row names a test file in backticks and a test title in double quotes`);
      else if (!fs.existsSync(abs)) bad.push(`line ${r.line}: ${r.file} does not exist`);
      else if (!titles(fs.readFileSync(abs, 'utf8')).some((t) => t.test(r.title))) bad.push(`line ${r.line}: ${r.file} has no test "${r.title}"`);
    }
    assert.deepEqual(bad, []);
  });
});
