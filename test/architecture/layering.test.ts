// The rules of docs/architecture.md ("What may import what"), checked over the source tree:
// dependency-cruiser finds no import up a layer and no import cycle (.dependency-cruiser.cjs,
// type-only imports included), the compute engine never imports a feature module, the
// Assistant's model and the tool catalogue never import a module or a surface, only src/http
// (and the CLI entry that starts it) imports src/http, no file of code passes 600 lines, every
// table has one writer, and the code cites only the project's own docs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { temporarilyExcluded } from './excluded.js';

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
const CONSOLE = projectFiles(path.join(ROOT, 'web', 'src'), /\.(ts|tsx)$/).map(read);
const DOCS = [...projectFiles(path.join(ROOT, 'docs'), /\.md$/), path.join(ROOT, 'README.md')].map(read);

/** Every module a file imports (static and dynamic), resolved to a path relative to the root. */
function imports(f: { abs: string; text: string }): string[] {
  const out: string[] = [];
  for (const [, spec] of f.text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) if (spec) out.push(path.relative(ROOT, path.resolve(path.dirname(f.abs), spec)));
  return out;
}

/** The import rules and the layers of src (.dependency-cruiser.cjs). */
const RULES = createRequire(import.meta.url)(path.join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration & { layers: { name: string; parts: string[] }[] };

/** The rule violations in `<baseDir>/src`, one line each (a cycle with its path). */
async function violations(baseDir: string): Promise<string[]> {
  const r = await cruise(
    ['src'],
    { validate: true, baseDir, ruleSet: { forbidden: RULES.forbidden }, ...RULES.options, tsConfig: undefined },
    {},
    { tsConfig: extractTSConfig(path.join(ROOT, 'tsconfig.json')) },
  );
  assert.ok(typeof r.output !== 'string');
  assert.ok(r.output.summary.totalCruised > 0, `nothing cruised under ${baseDir}`);
  const line = (v: IViolation) => `${v.rule.name}: ${v.cycle ? [v.from, ...v.cycle.map((c) => c.name)].join(' -> ') : `${v.from} -> ${v.to}`}`;
  return r.output.summary.violations.map(line).sort();
}

describe('architecture', () => {
  it('finds the source tree', () => {
    assert.ok(FILES.length > 100, `only ${FILES.length} source files found`);
  });

  it('every part of src (a top-level directory or file) sits in one layer of .dependency-cruiser.cjs', () => {
    const placed = RULES.layers.flatMap((l) => l.parts);
    assert.equal(new Set(placed).size, placed.length, 'a part in two layers');
    const parts = fs.readdirSync(SRC).filter((n) => !n.startsWith('.'));
    assert.deepEqual(
      parts.filter((p) => !placed.includes(p)),
      [],
      'place a new part in a layer (docs/architecture.md, "What may import what")',
    );
  });

  it('dependency-cruiser: no import up a layer and no import cycle in src', async () => {
    const found = await violations(ROOT);
    assert.deepEqual(found, [], `import rule violations (.dependency-cruiser.cjs; docs/architecture.md, "What may import what"):\n${found.join('\n')}`);
  });

  it('dependency-cruiser: the rules catch imports up a layer and cycles (test/architecture/fixtures/src)', async () => {
    const found = await violations(path.join(ROOT, 'test', 'architecture', 'fixtures'));
    assert.deepEqual(found, [
      'layer-2-no-import-up: src/chem/uses-compute.ts -> src/compute/runner.ts',
      'layer-4-no-import-up: src/assistant/uses-http.ts -> src/http/app.ts',
      'layer-5-no-import-up: src/api/route.ts -> src/modules/auth.ts',
      'libraries-not-compute: src/chem/uses-compute.ts -> src/compute/runner.ts',
      'no-circular: src/modules/a.ts -> src/modules/b.ts -> src/modules/a.ts',
      'no-modules-or-http-below: src/assistant/uses-http.ts -> src/http/app.ts',
      'only-http-and-main-import-http: src/assistant/uses-http.ts -> src/http/app.ts',
    ]);
  });

  it('src/compute imports nothing from src/modules', () => {
    const bad = FILES.filter((f) => f.rel.startsWith('src/compute/')).flatMap((f) =>
      imports(f)
        .filter((i) => i.startsWith('src/modules/'))
        .map((i) => `${f.rel} -> ${i}`),
    );
    assert.deepEqual(bad, []);
  });

  it('src/assistant imports nothing from src/modules, and the tool catalogue (src/catalogue) nothing from a surface or a module', () => {
    const RULES: [string, string[]][] = [
      ['src/assistant/', ['src/modules/', 'src/http/', 'src/mcp/']],
      ['src/catalogue/', ['src/modules/', 'src/http/', 'src/mcp/', 'src/assistant/']],
    ];
    const bad = RULES.flatMap(([from, banned]) =>
      FILES.filter((f) => f.rel.startsWith(from)).flatMap((f) =>
        imports(f)
          .filter((i) => banned.some((b) => i.startsWith(b)))
          .map((i) => `${f.rel} -> ${i}`),
      ),
    );
    assert.ok(FILES.some((f) => f.rel.startsWith('src/catalogue/')) && FILES.some((f) => f.rel.startsWith('src/assistant/')), 'the scan finds both');
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
    // Nor a section of the project's contract, which is not in the repository: code cites the
    // docs/*.md section that states the rule.
    const contract = /\bcontract\b[^.\n]{0,20}\bsection\s+\d/i;
    assert.ok(CONSOLE.length > 10, 'the scan finds the console');
    const cites = [...CODE, ...CONSOLE].filter((f) => f.rel !== 'test/architecture/layering.test.ts' && !temporarilyExcluded(f.rel) && contract.test(f.text)).map((f) => f.rel);
    assert.deepEqual(cites, []);
  });

  it('web/src: a page imports no other page, and nothing from src/', () => {
    // docs/architecture.md, "What may import what": a page of the console is web/src/pages/<Name>.tsx
    // with its own files (pages/<Name>.css, pages/<name>/*); what pages share lives in
    // web/src/components, web/src/lib or web/src/api. The console reaches the server through the
    // public API only (the SDK, crucible-client), so it imports nothing from src/.
    const root = path.resolve(import.meta.dirname, '..', '..');
    const web = path.join(root, 'web', 'src');
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [path.join(dir, e.name)] : []));
    /** The page a file of web/src/pages belongs to (Jobs.tsx, Jobs.css and jobs/* are the page `jobs`), else null. */
    const pageOf = (rel: string): string | null => {
      const m = /^web\/src\/pages\/([^/.]+)/.exec(rel);
      return m ? m[1]!.toLowerCase() : null;
    };
    const bad: string[] = [];
    for (const abs of walk(web)) {
      const rel = path.relative(root, abs);
      const text = fs.readFileSync(abs, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
        const target = path.relative(root, path.resolve(path.dirname(abs), spec!));
        if (target.startsWith('src/')) bad.push(`${rel} -> ${target} (the server's code)`);
        const from = pageOf(rel);
        const to = pageOf(target);
        if (from && to && from !== to) bad.push(`${rel} -> ${target} (another page)`);
      }
    }
    assert.deepEqual(bad, [], `imports the console must not make:\n${bad.join('\n')}`);
  });
});
