// The catalogue of problem types (src/http/problem-types.ts; docs/architecture.md, "Errors") is
// the one list of what `type` a problem can carry: docs/api-decisions.md's table ("Errors") says
// the same rows, every code of src/errors.ts has its type, problems rendered from it carry its
// status, title and hint, and the OpenAPI document's problem responses name no other type.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { GENERIC_CODES, SPECIFIC_CODES } from '../../src/errors.js';
import { GENERIC_STATUS, PROBLEM_BASE, PROBLEM_CATALOGUE } from '../../src/http/problem-types.js';
import { httpProblem, problem } from '../../src/http/problems.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SLUGS = new Set(PROBLEM_CATALOGUE.map((e) => e.slug));

/** The rows of the table under `## Errors` in docs/api-decisions.md whose header is `| type | status | title | retry |`. */
function documentedRows(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'api-decisions.md'), 'utf8');
  const section = text.split(/^## /m).find((s) => s.startsWith('Errors\n')) ?? '';
  const lines = section.split('\n');
  const head = lines.findIndex((l) => /^\|\s*type\s*\|\s*status\s*\|\s*title\s*\|\s*retry\s*\|$/.test(l.trim()));
  assert.ok(head >= 0, 'docs/api-decisions.md, "Errors" has a table | type | status | title | retry |');
  const rows: string[] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim())
        .join(' | '),
    );
  }
  return rows;
}

const expectedRows = (): string[] => PROBLEM_CATALOGUE.map((e) => `\`${e.slug}\` | ${e.status} | ${e.title} | \`${e.retry}\``);

describe('the catalogue of problem types', () => {
  it('docs/api-decisions.md lists exactly its types, with their status, title and retry hint', () => {
    const table = ['| type | status | title | retry |', '|---|---:|---|---|', ...expectedRows().map((r) => `| ${r} |`)].join('\n');
    assert.deepEqual(documentedRows(), expectedRows(), `the table in docs/api-decisions.md, "Errors" should read:\n${table}\n`);
  });

  it('has a type for every code of src/errors.ts, and problems carry their type', () => {
    for (const code of SPECIFIC_CODES) {
      const entry = PROBLEM_CATALOGUE.find((e) => e.slug === code);
      assert.ok(entry, `${code} is in the catalogue`);
      const p = problem(code, 'detail');
      assert.deepEqual([p.type, p.status, p.title, p.retry], [PROBLEM_BASE + code, entry.status, entry.title, entry.retry], code);
    }
    for (const code of GENERIC_CODES) assert.ok(SLUGS.has(`http-${GENERIC_STATUS[code]}`), `${code} (http-${GENERIC_STATUS[code]}) is in the catalogue`);
    for (const e of PROBLEM_CATALOGUE.filter((x) => x.slug.startsWith('http-'))) {
      const p = httpProblem(e.status, 'detail');
      assert.deepEqual([p.type, p.status, p.title, p.retry], [PROBLEM_BASE + e.slug, e.status, e.title, e.retry], e.slug);
    }
    assert.equal(SLUGS.size, PROBLEM_CATALOGUE.length, 'no type twice');
  });

  describe('in the OpenAPI document', () => {
    let h: Harness;
    let doc: any;
    before(async () => {
      h = await startHarness(BACKENDS[0]);
      doc = (await h.req('GET', '/openapi.json')).body;
    });
    after(() => h?.close());

    it('every problem response names only types of the catalogue', () => {
      const responses: [string, any][] = Object.entries<any>(doc.components.responses).map(([name, r]) => [`components.responses.${name}`, r]);
      for (const [p, ops] of Object.entries<any>(doc.paths)) {
        for (const [m, op] of Object.entries<any>(ops)) for (const [s, r] of Object.entries<any>(op.responses ?? {})) responses.push([`${m.toUpperCase()} ${p} ${s}`, r]);
      }
      const problems = responses.filter(([, r]) => r.content?.['application/problem+json']);
      assert.ok(problems.length > 15, `${problems.length} problem responses (operations refer to the shared ones)`);
      const unknown: string[] = [];
      let named = 0;
      for (const [where, r] of problems) {
        const example = r.content['application/problem+json'].example;
        if (example) {
          named++;
          const slug = String(example.type).startsWith(PROBLEM_BASE) ? String(example.type).slice(PROBLEM_BASE.length) : String(example.type);
          if (!SLUGS.has(slug)) unknown.push(`${where}: example type ${example.type}`);
          else assert.equal(example.status, PROBLEM_CATALOGUE.find((e) => e.slug === slug)?.status, `${where}: status of ${slug}`);
        }
        // A slug named in the description (`token-expired`, `job-active`, ...): lower-case words
        // joined by hyphens, not within a path (`DELETE /user-models/mpnn`).
        for (const [word] of String(r.description ?? '').matchAll(/(?<![\w/-])[a-z]+(?:-[a-z]+)+(?![\w/-])/g)) {
          named++;
          if (!SLUGS.has(word)) unknown.push(`${where}: "${word}" in the description`);
        }
      }
      assert.ok(named > 20, 'the scan finds the types the responses name');
      assert.deepEqual(unknown, []);
    });
  });
});
