// Pointers in comments and docs stay true (docs/architecture.md, "What may import what": code
// cites the project's own docs): every docs/<file>.md that code or a doc cites exists, every
// section it names with it (`docs/x.md, "Section"`) is a heading of that doc, and every
// src/... path that a source file or a doc cites exists. Folders being moved by another change
// are skipped for now (excluded.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { temporarilyExcluded } from './excluded.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function files(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!['fixtures', 'node_modules', 'dist'].includes(e.name)) out.push(...files(p, pattern));
    } else if (pattern.test(e.name)) out.push(p);
  }
  return out;
}

interface Text {
  rel: string;
  /** The text with comment continuations joined, so that a citation broken over lines reads whole. */
  text: string;
}
const read = (abs: string): Text => ({
  rel: path.relative(ROOT, abs),
  text: fs.readFileSync(abs, 'utf8').replace(/\n\s*(?:\/\/|--|\*(?!\/)|#(?!#))?\s*/g, ' '),
});

const CODE_DIRS = ['src', 'test', 'bench', 'scripts', 'bin', 'web/src'];
const SELF = 'test/architecture/docs-pointers.test.ts';
const CODE = CODE_DIRS.flatMap((d) => files(path.join(ROOT, d), /\.(ts|tsx|mts|mjs|js|py|sql)$/))
  .map(read)
  .filter((f) => f.rel !== SELF && !temporarilyExcluded(f.rel));
const DOCS = [...files(path.join(ROOT, 'docs'), /\.md$/), path.join(ROOT, 'README.md')].map(read);

/**
 * A doc's headings (`#` to `####`), and for each its short name: the title before its parenthesis
 * or colon. A doc split into a folder of the same name (docs/performance.md, the index, and
 * docs/performance/*.md) has the headings of its parts too.
 */
function headings(doc: string): Set<string> {
  const out = new Set<string>();
  const parts = path.join(ROOT, doc.replace(/\.md$/, ''));
  const texts = [path.join(ROOT, doc), ...(fs.existsSync(parts) ? files(parts, /\.md$/) : [])].map((f) => fs.readFileSync(f, 'utf8'));
  for (const line of texts.join('\n').split('\n')) {
    const m = /^#{1,4} (.+)$/.exec(line);
    if (!m?.[1]) continue;
    const title = m[1].replace(/`/g, '').trim();
    out
      .add(title)
      .add(title.replace(/\s*\(.*$/, ''))
      .add(title.replace(/:.*$/, ''));
  }
  return out;
}

/** `docs/x.md`, optionally followed by a quoted section: `docs/x.md, "S"`, `docs/x.md "S"`, `docs/x.md ("S")`. */
const DOC_CITATION = /\b(docs\/[\w.-]+\.md)\b(?:[,;]?\s*\(?"([^"\n]{1,100})")?/g;
/** A path under src/ (a file with its extension, or a folder with its slash); templates (`<area>`, `*`) aside. */
const SRC_PATH = /(?<![\w/.@-])(src\/[\w./-]*[\w/])/g;

/** Where a doc's src/ paths start: the console's doc speaks of web/src, and of the server's src/http. */
const PATH_ROOTS: Record<string, string[]> = { 'docs/console.md': ['web', ''] };

describe('pointers in code and docs', () => {
  it('finds the files', () => {
    assert.ok(CODE.length > 300 && DOCS.length > 10, `${CODE.length} files of code, ${DOCS.length} docs`);
  });

  it('every cited doc exists and every cited section is a heading of it', () => {
    const known = new Map<string, Set<string> | null>();
    const bad: string[] = [];
    for (const f of [...CODE, ...DOCS]) {
      for (const [, doc, section] of f.text.matchAll(DOC_CITATION)) {
        if (!doc) continue;
        if (!known.has(doc)) known.set(doc, fs.existsSync(path.join(ROOT, doc)) ? headings(doc) : null);
        const heads = known.get(doc);
        if (!heads) bad.push(`${f.rel}: ${doc} does not exist`);
        else if (section !== undefined && !heads.has(section.replace(/`/g, ''))) bad.push(`${f.rel}: ${doc} has no heading "${section}"`);
      }
    }
    assert.ok(known.size > 10, 'the scan finds citations');
    assert.deepEqual(bad, []);
  });

  it('every src/ path cited in src and docs exists', () => {
    const bad: string[] = [];
    let seen = 0;
    for (const f of [...CODE.filter((c) => c.rel.startsWith('src/')), ...DOCS]) {
      for (const [, p] of f.text.matchAll(SRC_PATH)) {
        if (!p || /[<>*{}]/.test(p)) continue;
        const cited = p.replace(/\.$/, '');
        seen++;
        if (!(PATH_ROOTS[f.rel] ?? ['']).some((root) => fs.existsSync(path.join(ROOT, root, cited)))) bad.push(`${f.rel}: ${cited} does not exist`);
      }
    }
    assert.ok(seen > 100, 'the scan finds paths');
    assert.deepEqual(bad, []);
  });
});
