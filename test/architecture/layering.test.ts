// The rules of docs/architecture.md ("What may import what"), checked over the source tree:
// the compute engine never imports a feature module, only src/http (and the CLI entry that
// starts it) imports src/http, no file of code passes 600 lines, every table has one writer,
// and the code cites only the project's own docs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = path.join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts|mjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

const read = (abs: string) => ({ rel: path.relative(ROOT, abs), abs, text: fs.readFileSync(abs, 'utf8') });
const FILES = sourceFiles(SRC).map(read);

/** Every file of code (src, test, bench, scripts, bin; fixture data aside) and every doc. */
function projectFiles(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'fixtures' && e.name !== 'node_modules') out.push(...projectFiles(p, pattern));
    } else if (pattern.test(e.name)) out.push(p);
  }
  return out;
}
const CODE = ['src', 'test', 'bench', 'scripts', 'bin'].flatMap((d) => projectFiles(path.join(ROOT, d), /\.(ts|mts|mjs|js|py)$/)).map(read);
const DOCS = [...projectFiles(path.join(ROOT, 'docs'), /\.md$/), path.join(ROOT, 'README.md')].map(read);

/** Every module a file imports (static and dynamic), resolved to a path relative to the root. */
function imports(f: { abs: string; text: string }): string[] {
  const out: string[] = [];
  for (const [, spec] of f.text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) if (spec) out.push(path.relative(ROOT, path.resolve(path.dirname(f.abs), spec)));
  return out;
}

describe('architecture', () => {
  it('finds the source tree', () => {
    assert.ok(FILES.length > 100, `only ${FILES.length} source files found`);
  });

  it('src/compute imports nothing from src/modules', () => {
    const bad = FILES.filter((f) => f.rel.startsWith('src/compute/')).flatMap((f) =>
      imports(f)
        .filter((i) => i.startsWith('src/modules/'))
        .map((i) => `${f.rel} -> ${i}`),
    );
    assert.deepEqual(bad, []);
  });

  it('only src/http and the CLI entry (src/main.ts) import src/http', () => {
    const bad = FILES.filter((f) => !f.rel.startsWith('src/http/') && f.rel !== 'src/main.ts').flatMap((f) =>
      imports(f)
        .filter((i) => i.startsWith('src/http/'))
        .map((i) => `${f.rel} -> ${i}`),
    );
    assert.deepEqual(bad, []);
  });

  it('no file of code (src, test, bench, scripts) is over 600 lines', () => {
    assert.ok(CODE.some((f) => f.rel.startsWith('test/')) && CODE.some((f) => f.rel.startsWith('scripts/')), 'the scan finds tests and scripts');
    const big = CODE.map((f) => ({ file: f.rel, lines: f.text.split('\n').length - (f.text.endsWith('\n') ? 1 : 0) })).filter((f) => f.lines > 600);
    assert.deepEqual(big, []);
  });

  it('every table is written by one file', () => {
    const writers = new Map<string, Set<string>>();
    for (const f of FILES) {
      for (const m of f.text.matchAll(/`[^`]*`|'[^'\n]*'/g)) {
        for (const w of m[0].matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b/g)) {
          const table = w[1];
          if (!table) continue;
          const files = writers.get(table) ?? new Set<string>();
          files.add(f.rel);
          writers.set(table, files);
        }
      }
    }
    assert.ok(writers.has('jobs') && writers.has('ledger'), 'the scan finds SQL');
    const shared = [...writers].filter(([, files]) => files.size > 1).map(([t, files]) => `${t}: ${[...files].join(', ')}`);
    assert.deepEqual(shared, []);
  });

  it('cites no file outside the repository', () => {
    const bad = [...CODE, ...DOCS].filter((f) => f.rel !== 'test/architecture/layering.test.ts' && /CONTRACT\.md|ARCHITECTURE\.md|\.\.\/shared\//.test(f.text)).map((f) => f.rel);
    assert.deepEqual(bad, []);
  });
});
