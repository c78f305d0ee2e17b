// The chemistry job types through the HTTP API, against native RDKit values
// (test/fixtures/chem/reference.json and jobs-reference.json, both made with Debian's RDKit
// 2022.09): properties, depict, similarity_search, substructure_search, cluster. Inputs inline
// and by uploaded molecule set (.smi, .sdf), 422 payload cases with loc, estimates that scale
// with the molecule count, cancel in the middle of a large job, result artifacts and ports.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadRDKit } from '../../src/chem/rdkit.js';
import { walletStore } from '../../src/modules/wallet/store.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { uploadArtifact } from '../helpers/uploads.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = JSON.parse(fs.readFileSync(path.join(here, '../fixtures/chem/jobs-reference.json'), 'utf8'));
const reference = JSON.parse(fs.readFileSync(path.join(here, '../fixtures/chem/reference.json'), 'utf8')).molecules as { name: string; smiles: string; ref: any }[];
const LIBRARY: string[] = fixture.library;
const RATE = 0.0002;
const JOB_TIMEOUT = 240_000;

type User = Awaited<ReturnType<Harness['user']>>;

async function submit(h: Harness, u: User, job_type: string, payload: unknown): Promise<string> {
  const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: `${job_type}-test`, job_type, payload } });
  assert.equal(r.status, 200, `${job_type}: ${r.text}`);
  return r.body.process_id;
}

async function run(h: Harness, u: User, job_type: string, payload: unknown): Promise<{ pid: string; result: any; artifactId: string }> {
  const pid = await submit(h, u, job_type, payload);
  const done = await h.waitForJob(u.token, pid, undefined, JOB_TIMEOUT);
  assert.equal(done.status, 'completed', `${job_type} ended ${done.status}: ${done.message}`);
  const r = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token });
  assert.equal(r.status, 200);
  return { pid, result: r.body, artifactId: done.result_artifact_id! };
}

async function record(h: Harness, u: User, artifactId: string, port: string, id: string): Promise<{ type: string | null; text: string }> {
  const r = await fetch(`${h.base}/api/v1/artifacts/${artifactId}/download?record=${encodeURIComponent(id)}&port=${port}`, { headers: { authorization: `Bearer ${u.token}` } });
  assert.equal(r.status, 200, `record ${port}/${id}`);
  return { type: r.headers.get('content-type'), text: await r.text() };
}

async function manifest(h: Harness, u: User, artifactId: string): Promise<any> {
  const r = await h.req('GET', `/api/v1/artifacts/${artifactId}`, { token: u.token });
  assert.equal(r.status, 200);
  return r.body.manifest;
}

function refOf(smiles: string) {
  const r = reference.find((m) => m.smiles === smiles);
  assert.ok(r, `${smiles} is in reference.json`);
  return r.ref;
}

function assertProperties(got: any, smiles: string) {
  const ref = refOf(smiles);
  for (const f of ['formula', 'heavy_atoms', 'hbd', 'rotatable_bonds', 'aromatic_rings', 'formal_charge']) assert.equal(got[f], ref[f], `${smiles} ${f}`);
  assert.ok([ref.hba, ref.hba_rdkit2026].includes(got.hba), `${smiles} hba`);
  for (const f of ['mw', 'monoisotopic_mass', 'clogp', 'tpsa']) assert.ok(Math.abs(got[f] - ref[f]) < 0.01, `${smiles} ${f}: ${got[f]} vs native ${ref[f]}`);
  assert.ok(Math.abs(got.qed - ref.qed) < 0.01, `${smiles} qed ${got.qed} vs ${ref.qed}`);
  assert.deepEqual(got.alerts.pains, ref.pains);
  assert.deepEqual(got.alerts.brenk, ref.brenk);
}

const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
const CAFFEINE = 'Cn1cnc2c1c(=O)n(C)c(=O)n2C';

describe('chemistry job types [pglite]', () => {
  let h: Harness;
  let u: User;
  before(async () => {
    h = await startHarness(BACKENDS[0], { CRUCIBLE_CHEM_THREADS: '2', CRUCIBLE_CHEM_CACHE: '0' }, { workers: 2, runtime: { heartbeatMs: 200 } });
    u = await h.user();
    await h.credit(u.userId, 50);
    await h.services.chem.start();
  });
  after(async () => h?.close());

  it('properties: every MolecularProperties field per molecule, matching native RDKit; per-item errors; ports', async () => {
    const { result, artifactId } = await run(h, u, 'properties', { smiles: [ASPIRIN, CAFFEINE, 'not a smiles', 'CCX(', ''] });
    assert.deepEqual(result.summary, { molecules: 5, described: 2, unparseable: 3, too_large: 0, failed: 0 });
    assert.equal(result.items.length, 5);
    assert.deepEqual(
      result.items.map((i: any) => [i.index, i.id, i.error]),
      [
        [0, '0', null],
        [1, '1', null],
        [2, '2', 'unparseable'],
        [3, '3', 'unparseable'],
        [4, '4', 'unparseable'],
      ],
    );
    assertProperties(result.items[0].properties, ASPIRIN);
    assertProperties(result.items[1].properties, CAFFEINE);
    assert.equal(result.errors_total, 3);
    assert.deepEqual(
      result.errors.map((e: any) => e.index),
      [2, 3, 4],
    );
    // Port `properties`: one record per molecule with metrics; port `table`: a CSV.
    const m = await manifest(h, u, artifactId);
    assert.equal(m.job_type, 'properties');
    assert.equal(m.ports.properties.record_count, 5);
    const rec0 = m.ports.properties.records.find((r: any) => r.id === '0');
    assert.ok(Math.abs(rec0.metrics.mw - refOf(ASPIRIN).mw) < 0.01);
    assert.ok(Math.abs(rec0.metrics.qed - refOf(ASPIRIN).qed) < 0.01);
    assert.equal(rec0.metrics.hbd, 1);
    assert.equal(m.ports.properties.records.find((r: any) => r.id === '2').metrics, undefined, 'no metrics for a failed molecule');
    const one = await record(h, u, artifactId, 'properties', '1');
    assert.match(one.type!, /application\/json/);
    assertProperties(JSON.parse(one.text).properties, CAFFEINE);
    const csv = await record(h, u, artifactId, 'table', 'properties.csv');
    assert.match(csv.type!, /text\/csv/);
    const lines = csv.text.trim().split(/\r\n/);
    assert.equal(lines.length, 6);
    const [header = '', aspirin = '', , failed = ''] = lines;
    assert.match(header, /^index,id,name,smiles,error,formula,mw,/);
    assert.match(aspirin, /^0,0,,CC\(=O\)Oc1ccccc1C\(=O\)O,,C9H8O4,180\.1/);
    assert.match(failed, /^2,2,,not a smiles,unparseable,/);
  });

  it('depict: SVGs at the asked size, image/svg+xml records, per-item errors', async () => {
    const { result, artifactId } = await run(h, u, 'depict', { smiles: [ASPIRIN, 'c1ccccc1', 'xyz'], width: 200, height: 150 });
    assert.deepEqual(result.summary, { molecules: 3, depicted: 2, unparseable: 1, too_large: 0, render_failed: 0, failed: 0 });
    assert.deepEqual(result.size, { width: 200, height: 150 });
    const svg = result.items[0].svg as string;
    assert.match(svg, /^<svg[^>]*width=['"]200(px)?['"]/);
    assert.match(svg, /height=['"]150(px)?['"]/);
    assert.equal((svg.match(/<text [^>]*>O<\/text>/g) ?? []).length, 4, 'aspirin has four oxygens');
    assert.equal(result.items[2].error, 'unparseable');
    assert.equal(result.items[2].svg, null);
    const m = await manifest(h, u, artifactId);
    assert.equal(m.ports.depictions.record_count, 2);
    const r = await record(h, u, artifactId, 'depictions', '1');
    assert.match(r.type!, /image\/svg\+xml/);
    assert.equal(new Set(r.text.match(/bond-\d+/g)).size, 6, 'benzene: six bonds drawn');
  });

  it('similarity_search: hits and Tanimoto values equal native RDKit, best first, threshold and top_k', async () => {
    const ref = fixture.similarity[0]; // aspirin
    const native = Object.entries(ref.similarities as Record<string, number>)
      .map(([i, s]) => ({ index: Number(i), s }))
      .filter((x) => x.s >= 0.3)
      .sort((a, b) => b.s - a.s || a.index - b.index);
    assert.ok(native.length >= 6);
    const { result, artifactId } = await run(h, u, 'similarity_search', { query: ref.query, smiles: LIBRARY, threshold: 0.3, top_k: 5 });
    assert.equal(result.summary.molecules, LIBRARY.length);
    assert.equal(result.summary.unparseable, 1);
    assert.equal(result.summary.screened, LIBRARY.length - 1);
    assert.equal(result.summary.above_threshold, native.length);
    assert.equal(result.hits.length, 5);
    assert.deepEqual(
      result.hits.map((x: any) => [x.rank, x.index, x.similarity]),
      native.slice(0, 5).map((x, k) => [k + 1, x.index, x.s]),
    );
    assert.equal(result.hits[0].smiles, ASPIRIN);
    assert.equal(result.hits[0].similarity, 1);
    assert.deepEqual(result.fingerprint, { type: 'morgan', radius: 2, n_bits: 2048 });
    // Defaults: threshold 0.7, top_k 100.
    const d = await run(h, u, 'similarity_search', { query: fixture.similarity[1].query, smiles: LIBRARY });
    assert.equal(d.result.threshold, 0.7);
    assert.equal(d.result.top_k, 100);
    const nativeD = Object.entries(fixture.similarity[1].similarities as Record<string, number>).filter(([, s]) => s >= 0.7);
    assert.equal(d.result.hits.length, nativeD.length);
    for (const hit of d.result.hits) assert.equal(hit.similarity, fixture.similarity[1].similarities[String(hit.index)]);
    // The hits port is a molecule set: another job takes it as input.
    const m = await manifest(h, u, artifactId);
    assert.equal(m.ports.hits.kind, 'molecules');
    assert.equal(m.ports.hits.records[0].metrics.similarity, 1);
    const chained = await run(h, u, 'properties', { input_artifact_id: artifactId, port: 'hits' });
    assert.equal(chained.result.summary.described, 5);
    assertProperties(chained.result.items[0].properties, ASPIRIN);
  });

  it('substructure_search: matches, atoms of the first match and counts equal native RDKit; SMARTS first, SMILES on request', async () => {
    for (const s of fixture.substructure) {
      const { result } = await run(h, u, 'substructure_search', { query: s.query, query_format: s.format, smiles: LIBRARY });
      assert.equal(result.query.read_as, s.format);
      const got = Object.fromEntries(result.matches.map((m: any) => [String(m.index), { atoms: m.atoms, count: m.match_count }]));
      assert.deepEqual(got, s.matches, `${s.query} (${s.format})`);
      assert.equal(result.summary.matched, Object.keys(s.matches).length);
      assert.equal(result.summary.unparseable, 1);
    }
    // auto: a SMILES-looking query is read as SMARTS.
    const auto = await run(h, u, 'substructure_search', { query: 'c1ccccc1O', smiles: [ASPIRIN, 'CCO', 'Oc1ccccc1'] });
    assert.equal(auto.result.query.read_as, 'smarts');
    assert.deepEqual(
      auto.result.matches.map((m: any) => m.index),
      [0, 2],
    );
  });

  it('substructure_search: a query RDKit refuses ends the job `error` before reading the library (input error, charged)', async () => {
    const pid = await submit(h, u, 'substructure_search', { query: '[Q]C', smiles: [ASPIRIN] });
    const done = await h.waitForJob(u.token, pid, undefined, JOB_TIMEOUT);
    assert.equal(done.status, 'error');
    assert.match(done.message!, /^query: the query is not a valid SMARTS or SMILES/);
    const r = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token });
    assert.equal(r.status, 409);
  });

  it('cluster: Butina clusters equal rdkit.ML.Cluster.Butina.ClusterData at two cutoffs', async () => {
    for (const cutoff of ['0.35', '0.6']) {
      const { result, artifactId } = await run(h, u, 'cluster', { smiles: LIBRARY, cutoff: Number(cutoff) });
      const native = fixture.library_clusters[cutoff] as number[][];
      assert.deepEqual(
        result.clusters.map((c: any) => c.member_indices),
        native,
        `cutoff ${cutoff}`,
      );
      assert.deepEqual(
        result.sizes,
        native.map((c) => c.length),
      );
      assert.equal(result.summary.clusters, native.length);
      assert.equal(result.summary.clustered, LIBRARY.length - 1);
      assert.equal(result.summary.unparseable, 1);
      const [largest] = native;
      assert.ok(largest);
      assert.equal(result.clusters[0].centroid.index, largest[0]);
      assert.deepEqual(result.clusters[0].members, largest.map(String));
      const m = await manifest(h, u, artifactId);
      assert.equal(m.ports.clusters.record_count, native.length);
      assert.equal(m.ports.assignments.record_count, LIBRARY.length - 1);
      const centroid = m.ports.assignments.records.find((r: any) => r.id === String(largest[0]));
      assert.deepEqual([centroid.metrics.cluster, centroid.metrics.is_centroid], [1, 1]);
    }
    // Default cutoff 0.35.
    const d = await run(h, u, 'cluster', { smiles: LIBRARY.slice(0, 10) });
    assert.equal(d.result.cutoff, 0.35);
  });

  it('takes uploaded molecule sets: .smi (ids and names from the file) and .sdf (molblocks)', async () => {
    // Record ids of a .smi upload are the entry numbers (1-based); the unparseable entry is left
    // out of the set at upload (a warning), so the set holds the 33 others.
    const smi = LIBRARY.map((s, i) => `${s} mol${i}`).join('\n');
    const aid = await uploadArtifact(h, u.token, 'molecules', 'library.smi', `${smi}\n`);
    const est = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'cluster', payload: { input_artifact_id: aid, cutoff: 0.6 } } });
    assert.equal(est.status, 200, est.text);
    assert.equal(est.body.assumptions.input, 'artifact');
    assert.equal(est.body.assumptions.molecules, LIBRARY.length - 1);
    const { result } = await run(h, u, 'cluster', { input_artifact_id: aid, cutoff: 0.6 });
    const native = fixture.library_clusters['0.6'] as number[][];
    assert.equal(result.input.source, 'artifact');
    assert.equal(result.input.artifact_id, aid);
    assert.equal(result.summary.molecules, LIBRARY.length - 1);
    assert.deepEqual(
      result.clusters.map((c: any) => c.members.map((id: string) => Number(id) - 1)),
      native,
    );

    const sim = await run(h, u, 'similarity_search', { query: ASPIRIN, input_artifact_id: aid, threshold: 0.6 });
    assert.equal(sim.result.hits[0].similarity, 1);
    assert.equal(sim.result.hits[0].name, 'mol0');

    // SDF: molblocks (no SMILES field) are converted by RDKit.
    const rdkit = await loadRDKit();
    const blocks = [ASPIRIN, CAFFEINE].map((s) => {
      const mol = rdkit.get_mol(s)!;
      try {
        return mol.get_molblock();
      } finally {
        mol.delete();
      }
    });
    const sdf = blocks.map((b, i) => `${b.replace(/^[^\n]*/, `sdfmol${i}`)}\n$$$$\n`).join('');
    const sdfId = await uploadArtifact(h, u.token, 'molecules', 'two.sdf', sdf);
    const props = await run(h, u, 'properties', { input_artifact_id: sdfId });
    assert.equal(props.result.summary.described, 2, JSON.stringify(props.result.summary));
    assertProperties(props.result.items[0].properties, ASPIRIN);
    assertProperties(props.result.items[1].properties, CAFFEINE);
  });

  it('refuses bad payloads with 422 at the field, writing nothing', async () => {
    const before = (await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total;
    const cases: [string, Record<string, unknown>, (string | number)[], string][] = [
      ['properties', {}, ['body', 'payload', 'smiles'], 'missing'],
      ['properties', { smiles: [ASPIRIN], input_artifact_id: '00000000-0000-0000-0000-000000000000' }, ['body', 'payload', 'input_artifact_id'], 'value_error'],
      ['properties', { smiles: [ASPIRIN], port: 'molecules' }, ['body', 'payload', 'port'], 'value_error'],
      ['properties', { smiles: [] }, ['body', 'payload', 'smiles'], 'too_short'],
      ['properties', { smiles: [ASPIRIN, 'C'.repeat(2001)] }, ['body', 'payload', 'smiles', 1], 'string_too_long'],
      ['properties', { smiles: [ASPIRIN, 5] }, ['body', 'payload', 'smiles', 1], 'string_type'],
      ['properties', { smiles: [ASPIRIN], colour: 'blue' }, ['body', 'payload', 'colour'], 'extra_forbidden'],
      ['depict', { smiles: [ASPIRIN], width: 50 }, ['body', 'payload', 'width'], 'greater_than_equal'],
      ['depict', { smiles: [ASPIRIN], height: 601 }, ['body', 'payload', 'height'], 'less_than_equal'],
      ['similarity_search', { smiles: [ASPIRIN] }, ['body', 'payload', 'query'], 'missing'],
      ['similarity_search', { query: ASPIRIN, smiles: [ASPIRIN], threshold: 1.5 }, ['body', 'payload', 'threshold'], 'less_than_equal'],
      ['similarity_search', { query: ASPIRIN, smiles: [ASPIRIN], top_k: 10_001 }, ['body', 'payload', 'top_k'], 'less_than_equal'],
      ['similarity_search', { query: ASPIRIN, smiles: [ASPIRIN], top_k: 0 }, ['body', 'payload', 'top_k'], 'greater_than_equal'],
      ['similarity_search', { query: 'C1CC(', smiles: [ASPIRIN] }, ['body', 'payload', 'query'], 'value_error'],
      ['substructure_search', { query: 'c1ccc(', smiles: [ASPIRIN] }, ['body', 'payload', 'query'], 'value_error'],
      ['substructure_search', { query: '[OH', smiles: [ASPIRIN] }, ['body', 'payload', 'query'], 'value_error'],
      ['substructure_search', { query: 'CO', query_format: 'inchi', smiles: [ASPIRIN] }, ['body', 'payload', 'query_format'], 'enum'],
      ['cluster', { smiles: [ASPIRIN], cutoff: -0.1 }, ['body', 'payload', 'cutoff'], 'greater_than_equal'],
      ['cluster', { smiles: [ASPIRIN], cutoff: '0.3' }, ['body', 'payload', 'cutoff'], 'float_type'],
    ];
    for (const [job_type, payload, loc, type] of cases) {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'bad', job_type, payload } });
      assert.equal(r.status, 422, `${job_type} ${JSON.stringify(payload).slice(0, 80)}: ${r.status} ${r.text.slice(0, 300)}`);
      assert.equal(r.headers.get('content-type')?.split(';')[0], 'application/problem+json');
      const issue = r.body.errors.find((e: any) => JSON.stringify(e.loc) === JSON.stringify(loc));
      assert.ok(issue, `${job_type}: expected loc ${JSON.stringify(loc)}, got ${JSON.stringify(r.body.errors.map((e: any) => e.loc))}`);
      assert.equal(issue.type, type, `${job_type} ${JSON.stringify(loc)}`);
    }
    // An artifact that is not the user's (or not there): 404; one that is not a molecule set: 422 at the port.
    const other = await h.user();
    const theirs = await uploadArtifact(h, other.token, 'molecules', 'x.smi', 'CCO\n');
    const nf = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'bad', job_type: 'properties', payload: { input_artifact_id: theirs } } });
    assert.equal(nf.status, 404);
    const mine = await uploadArtifact(h, u.token, 'molecules', 'y.smi', 'CCO\nc1ccccc1\n');
    const badPort = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'properties', payload: { input_artifact_id: mine, port: 'nope' } } });
    assert.equal(badPort.status, 422);
    assert.deepEqual(badPort.body.errors[0].loc, ['body', 'payload', 'port']);
    assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, before, 'nothing written');
  });

  it('estimates scale with the molecule count (linear; quadratic for cluster) and are reserved', async () => {
    const est = async (job_type: string, payload: Record<string, unknown>) => {
      const r = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type, payload } });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const mols = (n: number) => Array.from({ length: n }, (_, i) => `${'C'.repeat((i % 20) + 1)}O`);
    for (const [type, extra] of [
      ['properties', {}],
      ['depict', {}],
      ['similarity_search', { query: ASPIRIN }],
      ['substructure_search', { query: 'C(=O)O' }],
    ] as const) {
      const e10 = await est(type, { ...extra, smiles: mols(10) });
      const e1k = await est(type, { ...extra, smiles: mols(1000) });
      const e2k = await est(type, { ...extra, smiles: mols(2000) });
      assert.equal(e10.assumptions.molecules, 10);
      assert.ok(e1k.expected_runtime_sec > e10.expected_runtime_sec, type);
      const per1 = (e1k.expected_runtime_sec - e10.expected_runtime_sec) / 990;
      const per2 = (e2k.expected_runtime_sec - e1k.expected_runtime_sec) / 1000;
      assert.ok(Math.abs(per1 - per2) < 1e-5, `${type} linear: ${per1} vs ${per2}`);
      assert.ok(e10.expected_runtime_sec >= 1, `${type} fixed overhead`);
      assert.ok(Math.abs(e2k.cost - e2k.expected_runtime_sec * RATE) < 2e-6, `${type} cost = runtime x rate`);
    }
    const c1 = await est('cluster', { smiles: mols(2000) });
    const c2 = await est('cluster', { smiles: mols(4000) });
    const c4 = await est('cluster', { smiles: mols(8000) });
    const d1 = c2.expected_runtime_sec - c1.expected_runtime_sec;
    const d2 = c4.expected_runtime_sec - c2.expected_runtime_sec;
    // A linear model would add exactly twice as much from 4,000 to 8,000 as from 2,000 to 4,000.
    assert.ok(d2 > 2 * d1 + 0.5, `cluster grows faster than linearly: +${d1} s then +${d2} s`);
    assert.equal(c4.assumptions.pairs, (8000 * 7999) / 2);
    // The estimate is what submit reserves.
    const v = await h.user();
    await h.credit(v.userId, 1);
    await submit(h, v, 'properties', { smiles: mols(1000) });
    const w = await h.req('GET', '/api/v1/wallet', { token: v.token });
    const e = await est('properties', { smiles: mols(1000) });
    assert.equal(w.body.reserved_usd, e.cost);
  });

  it('cancels a large properties job in the middle: it stops, is charged the runtime used, and has no result', async () => {
    const v = await h.user();
    await h.credit(v.userId, 5);
    const drugs = reference.map((r) => r.smiles);
    const smiles = Array.from({ length: 3000 }, (_, i) => drugs[i % drugs.length]);
    const pid = await submit(h, v, 'properties', { smiles });
    // Wait for real progress (past reading the input), then cancel.
    const until = Date.now() + JOB_TIMEOUT;
    for (;;) {
      const { rows } = await h.services.db.query<{ status: string; progress: number }>('SELECT status, progress FROM jobs WHERE id = $1', [pid]);
      const [job] = rows;
      assert.ok(job, 'the job has a row');
      if (job.status === 'running' && job.progress > 0.06) break;
      assert.ok(job.status !== 'completed', 'the job finished before it could be cancelled: make it bigger');
      assert.ok(Date.now() < until, 'the job did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const c = await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${pid}`, { token: v.token });
    assert.equal(c.status, 200, c.text);
    const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token: v.token })).body.info;
    assert.equal(info.status, 'cancelled');
    assert.ok(info.progress < 0.95, `cancelled mid-run (progress ${info.progress})`);
    assert.ok(info.runtime_seconds < info.expected_runtime_sec, 'stopped before the expected runtime');
    assert.equal(info.charged_amount, Math.min(Math.round(info.runtime_seconds * 200), Math.round(info.reserved_usd * 1e6)) / 1e6);
    // The worker lets go of it within a chunk or so.
    const stop = Date.now() + 20_000;
    while (h.runtime!.busy > 0 && Date.now() < stop) await new Promise((r) => setTimeout(r, 50));
    assert.equal(h.runtime!.busy, 0, 'the job stopped running');
    assert.equal((await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: v.token })).status, 409);
    const wallet = await walletStore.read(h.services.db, v.userId);
    assert.equal(wallet.reserved_micros, 0, 'reservation released');
    assert.equal(wallet.balance_micros, 5_000_000 - Math.round(info.charged_amount * 1e6));
  });

  it('cancels a cluster job during its pairwise pass', async () => {
    const v = await h.user();
    await h.credit(v.userId, 5);
    // Distinct molecules (every reference molecule with several chain lengths): many pairs.
    const smiles: string[] = [];
    for (let k = 0; smiles.length < 6000; k++) for (const r of reference) smiles.push(k === 0 ? r.smiles : `${r.smiles}.${'C'.repeat(k)}`);
    const pid = await submit(h, v, 'cluster', { smiles: smiles.slice(0, 6000) });
    const until = Date.now() + JOB_TIMEOUT;
    for (;;) {
      const { rows } = await h.services.db.query<{ status: string; progress: number }>('SELECT status, progress FROM jobs WHERE id = $1', [pid]);
      const [job] = rows;
      assert.ok(job, 'the job has a row');
      if (job.status === 'running' && job.progress > 0.15) break;
      assert.ok(job.status !== 'completed', 'the job finished before it could be cancelled');
      assert.ok(Date.now() < until, 'the job did not reach its pairwise pass');
      await new Promise((r) => setTimeout(r, 50));
    }
    const t0 = Date.now();
    assert.equal((await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${pid}`, { token: v.token })).status, 200);
    while (h.runtime!.busy > 0 && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 50));
    assert.equal(h.runtime!.busy, 0);
    assert.equal((await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: v.token })).body.status, 'cancelled');
  });
});

// One properties job on PostgreSQL as well (when the runner found a server).
for (const backend of BACKENDS.filter((b) => b.name === 'postgres')) {
  describe(`chemistry job types [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, { CRUCIBLE_CHEM_THREADS: '1' }, { workers: 1, runtime: { heartbeatMs: 200 } });
    });
    after(async () => h?.close());

    it('runs a properties job', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const { result } = await run(h, u, 'properties', { smiles: [ASPIRIN, 'nope'] });
      assert.equal(result.summary.described, 1);
      assertProperties(result.items[0].properties, ASPIRIN);
    });
  });
}
