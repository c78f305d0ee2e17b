// Reference papers (docs/papers.md): the catalog through GET /papers, one paper with its
// BibTeX, RIS and formatted citation, and GET /papers/cite for a job, which lists the papers of
// the methods its job type declares. BibTeX is parsed with @retorquere/bibtex-parser (the
// parser of Better BibTeX for Zotero), not with the library that wrote it.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { after, before, describe, it } from 'node:test';
import { JOB_TYPES } from '../../src/compute/registry.js';
import { bibtexKey } from '../../src/modules/papers/formats.js';
import { CATALOG } from '../../src/modules/papers/service.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

/** Checks an RIS text record by record (RIS: "XX  - value" lines, TY first, ER last); returns the tag lists. */
function risRecords(text: string): Map<string, string[]>[] {
  const records: Map<string, string[]>[] = [];
  let current: Map<string, string[]> | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line === '') continue;
    const m = /^([A-Z][A-Z0-9]) {2}- ?(.*)$/.exec(line);
    assert.ok(m, `not an RIS line: ${JSON.stringify(line)}`);
    const [, tag, value] = m as unknown as [string, string, string];
    if (tag === 'TY') {
      assert.equal(current, null, 'TY inside a record');
      current = new Map();
    }
    assert.ok(current, `${tag} outside a record`);
    if (tag === 'ER') {
      records.push(current);
      current = null;
      continue;
    }
    current.set(tag, [...(current.get(tag) ?? []), value]);
  }
  assert.equal(current, null, 'a record without ER');
  return records;
}

for (const backend of onlyOn('pglite')) {
  describe(`reference papers [${backend.name}]`, () => {
    let h: Harness;
    let u: Awaited<ReturnType<Harness['user']>>;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      u = await h.user();
      await h.credit(u.userId, 10);
    });
    after(async () => h?.close());

    const get = (path: string, token = u.token) => h.req('GET', `/api/v1${path}`, { token });

    it('GET /papers lists the catalog, filtered by words, topic and method, paged', async () => {
      const all = await get('/papers?limit=100');
      assert.equal(all.status, 200);
      assert.equal(all.body.total, CATALOG.length);
      assert.equal(all.body.items.length, CATALOG.length);
      assert.ok(CATALOG.length >= 20);
      const crippen = await get('/papers?q=crippen%201999');
      assert.deepEqual(
        crippen.body.items.map((p: { id: string }) => p.id),
        ['wildman-crippen-1999'],
      );
      assert.equal(crippen.body.items[0].doi, '10.1021/ci990307l');
      const clustering = await get('/papers?topic=clustering');
      assert.deepEqual(
        clustering.body.items.map((p: { id: string }) => p.id),
        ['butina-1999'],
      );
      const morgan = await get('/papers?method=morgan');
      assert.deepEqual(morgan.body.items.map((p: { id: string }) => p.id).sort(), ['morgan-1965', 'rogers-hahn-ecfp-2010']);
      assert.deepEqual((await get('/papers?q=no-such-words-anywhere')).body, { items: [], total: 0, limit: 50, offset: 0 });
      const page = await get('/papers?limit=5&offset=5');
      assert.deepEqual(
        page.body.items.map((p: { id: string }) => p.id),
        CATALOG.slice(5, 10).map((p) => p.id),
      );
      const bad = await get('/papers?topic=astrology');
      assert.equal(bad.status, 422);
      assert.deepEqual(bad.body.errors[0].loc, ['query', 'topic']);
      assert.equal((await h.req('GET', '/api/v1/papers')).status, 401, 'credentials required');
    });

    it('GET /papers/{paper_id}: the entry with BibTeX that parses, RIS and an APA citation; an unknown id is 404', async () => {
      const r = await get('/papers/wildman-crippen-1999');
      assert.equal(r.status, 200);
      const bib = parseBibtex(r.body.bibtex);
      assert.deepEqual(bib.errors, []);
      assert.equal(bib.entries.length, 1);
      const [e] = bib.entries;
      assert.equal(e?.type, 'article');
      assert.equal(e?.key, 'wildman_crippen_1999');
      assert.deepEqual(e?.fields.author, [
        { lastName: 'Wildman', firstName: 'Scott A.' },
        { lastName: 'Crippen', firstName: 'Gordon M.' },
      ]);
      assert.deepEqual([e?.fields.doi, e?.fields.volume, e?.fields.number, e?.fields.pages, e?.fields.year], ['10.1021/ci990307l', '39', '5', '868–873', '1999']);
      assert.equal(e?.fields.journal, 'Journal of Chemical Information and Computer Sciences');
      const [ris] = risRecords(r.body.ris);
      assert.deepEqual(ris?.get('TY'), ['JOUR']);
      assert.deepEqual(ris?.get('AU'), ['Wildman, Scott A.', 'Crippen, Gordon M.']);
      assert.deepEqual(
        [ris?.get('DO'), ris?.get('VL'), ris?.get('IS'), ris?.get('SP'), ris?.get('EP'), ris?.get('PY')],
        [['10.1021/ci990307l'], ['39'], ['5'], ['868'], ['873'], ['1999']],
      );
      assert.deepEqual(ris?.get('TI'), ['Prediction of Physicochemical Parameters by Atomic Contributions']);
      assert.ok(r.body.ris.endsWith('ER  - \r\n'));
      assert.equal(
        r.body.citation,
        'Wildman, S. A., & Crippen, G. M. (1999). Prediction of Physicochemical Parameters by Atomic Contributions. Journal of Chemical Information and Computer Sciences, 39(5), 868–873. https://doi.org/10.1021/ci990307l',
      );
      const missing = await get('/papers/no-such-paper');
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    });

    it('every catalog entry: unique id, DOI and URL well formed, BibTeX that parses with every author, one RIS record', async () => {
      assert.equal(new Set(CATALOG.map((p) => p.id)).size, CATALOG.length);
      for (const p of CATALOG) {
        if (p.doi !== null) {
          assert.match(p.doi, /^10\.\d{4,9}\/\S+$/, p.id);
          assert.equal(p.doi, p.doi.trim());
        }
        assert.match(p.url, /^https:\/\//, p.id);
        assert.ok(p.authors.length > 0 && p.title && p.venue, p.id);
        const r = await get(`/papers/${p.id}`);
        assert.equal(r.status, 200, p.id);
        const bib = parseBibtex(r.body.bibtex);
        assert.deepEqual(bib.errors, [], p.id);
        assert.equal(bib.entries[0]?.key, bibtexKey(p.id));
        assert.equal((bib.entries[0]?.fields.author as unknown[]).length, p.authors.length, `${p.id}: every author`);
        if (p.doi) assert.equal(bib.entries[0]?.fields.doi, p.doi, p.id);
        const records = risRecords(r.body.ris);
        assert.equal(records.length, 1, p.id);
        assert.equal(records[0]?.get('AU')?.length, p.authors.length, `${p.id}: every author in RIS`);
        assert.deepEqual(records[0]?.get('TI'), [p.title], `${p.id}: the title on one line`);
        assert.ok(r.body.citation.includes(p.doi ?? p.url), `${p.id}: the citation links the paper`);
      }
    });

    it('every method a job type declares has a paper to cite', () => {
      const cited = new Set(CATALOG.flatMap((p) => p.methods));
      for (const t of JOB_TYPES.values()) for (const m of t.methods) assert.ok(cited.has(m), `${t.name}: method ${m} has no paper`);
    });

    it('GET /papers/cite?process_id= lists the papers of what the job ran, with a BibTeX bundle; 404 for another account', async () => {
      const submit = async (job_type: string, payload: object) => {
        const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: job_type, job_type, payload } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        await h.waitForJob(u.token, r.body.process_id as string);
        return r.body.process_id as string;
      };
      const props = await submit('properties', { smiles: ['CCO'] });
      const cited = await get(`/papers/cite?process_id=${props}`);
      assert.equal(cited.status, 200, JSON.stringify(cited.body));
      assert.deepEqual([cited.body.process_id, cited.body.job_types], [props, ['properties']]);
      const ids = cited.body.items.map((p: { id: string }) => p.id);
      for (const id of [
        'rdkit',
        'wildman-crippen-1999',
        'ertl-tpsa-2000',
        'bickerton-qed-2012',
        'baell-pains-2010',
        'brenk-2008',
        'veber-2002',
        'heller-inchi-2015',
        'weininger-smiles-1988',
      ])
        assert.ok(ids.includes(id), `${id} cited for a properties job`);
      assert.ok(!ids.includes('butina-1999'), 'no clustering paper for a properties job');
      const bundle = parseBibtex(cited.body.bibtex);
      assert.deepEqual(bundle.errors, []);
      assert.deepEqual(bundle.entries.map((e) => e.key).sort(), ids.map(bibtexKey).sort());

      const cluster = await submit('cluster', { smiles: ['CCO', 'CCN', 'c1ccccc1'] });
      const clusterIds = (await get(`/papers/cite?process_id=${cluster}`)).body.items.map((p: { id: string }) => p.id);
      for (const id of ['butina-1999', 'rogers-hahn-ecfp-2010', 'bajusz-tanimoto-2015', 'rdkit']) assert.ok(clusterIds.includes(id), `${id} cited for a cluster job`);
      assert.ok(!clusterIds.includes('bickerton-qed-2012'));

      const other = await h.user();
      const theirs = await get(`/papers/cite?process_id=${props}`, other.token);
      assert.equal(theirs.status, 404);
      const neither = await get('/papers/cite');
      assert.equal(neither.status, 422);
      assert.deepEqual(neither.body.errors[0].loc, ['query', 'process_id']);
      assert.equal((await get('/papers/cite?process_id=not-a-uuid')).status, 422);
    });

    it('GET /papers/cite?workflow_run_id= lists the papers of every step of the run; 404 for another account', async () => {
      const spec = {
        name: 'cite me',
        inputs: { library: { type: 'molecules' } },
        steps: [
          { id: 'describe', job_type: 'properties', inputs: { molecules: '$inputs.library' } },
          { id: 'group', job_type: 'cluster', inputs: { molecules: '$inputs.library' } },
          { id: 'again', job_type: 'properties', inputs: { molecules: '$inputs.library' } },
        ],
      };
      const run = await h.req('POST', '/api/v1/workflows/runs', { token: u.token, body: { spec, inputs: { library: ['CCO', 'CCN', 'c1ccccc1'] } } });
      assert.equal(run.status, 201, JSON.stringify(run.body));
      const runId = run.body.run_id as string;
      const cited = await get(`/papers/cite?workflow_run_id=${runId}`);
      assert.equal(cited.status, 200, JSON.stringify(cited.body));
      assert.deepEqual([cited.body.workflow_run_id, cited.body.process_id, cited.body.job_types], [runId, undefined, ['properties', 'cluster']]);
      const ids = cited.body.items.map((p: { id: string }) => p.id);
      for (const id of ['rdkit', 'wildman-crippen-1999', 'bickerton-qed-2012', 'butina-1999', 'rogers-hahn-ecfp-2010']) assert.ok(ids.includes(id), `${id} cited for the run`);
      assert.ok(!ids.includes('yang-dmpnn-2019'), 'no model paper: no step predicted');
      const bundle = parseBibtex(cited.body.bibtex);
      assert.deepEqual(bundle.errors, []);
      assert.deepEqual(bundle.entries.map((e) => e.key).sort(), ids.map(bibtexKey).sort());

      const other = await h.user();
      assert.equal((await get(`/papers/cite?workflow_run_id=${runId}`, other.token)).status, 404);
      assert.equal((await get(`/papers/cite?workflow_run_id=${crypto.randomUUID()}`)).status, 404);
      // Both: the union (a job's types first); either one not yours is a 404.
      const job = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'draw', job_type: 'depict', payload: { smiles: ['CCO'] } } });
      assert.equal(job.status, 200, JSON.stringify(job.body));
      const both = await get(`/papers/cite?workflow_run_id=${runId}&process_id=${job.body.process_id}`);
      assert.equal(both.status, 200, JSON.stringify(both.body));
      assert.deepEqual([both.body.process_id, both.body.workflow_run_id, both.body.job_types], [job.body.process_id, runId, ['depict', 'properties', 'cluster']]);
      assert.equal((await get(`/papers/cite?workflow_run_id=${runId}&process_id=${crypto.randomUUID()}`)).status, 404);
      await h.waitForJob(u.token, job.body.process_id as string);
      assert.equal((await get('/papers/cite?workflow_run_id=not-a-uuid')).status, 422);
      // Wait for the run to end so that the harness closes on a quiet queue.
      const until = Date.now() + 60_000;
      while (['queued', 'running'].includes((await get(`/workflows/runs/${runId}/status`)).body.status) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    });
  });
}
