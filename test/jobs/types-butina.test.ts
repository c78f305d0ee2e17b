// In-process checks of the job kinds' chemistry against native RDKit (fixture made by
// scripts/rdkit/jobs_reference.py with Debian's RDKit 2022.09): Morgan fingerprints
// (radius 2, 2048 bits) bit for bit, Tanimoto, Butina clusters identical to
// rdkit.ML.Cluster.Butina.ClusterData, also when the passes are time-sliced.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { butinaAssign, butinaCluster, butinaCount, butinaOrder, buildTable } from '../../src/chem/jobs/butina.js';
import { maxTanimoto, tanimotoBytes } from '../../src/chem/similarity.js';
import { morganFp, substructureMatch, substructureQuery } from '../../src/chem/jobs/handlers.js';
import { loadRDKit, type RDKitModule } from '../../src/chem/rdkit.js';
import type { ButinaOptions } from '../../src/chem/jobs/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = JSON.parse(fs.readFileSync(path.join(here, '../fixtures/chem/jobs-reference.json'), 'utf8'));
const reference = JSON.parse(fs.readFileSync(path.join(here, '../fixtures/chem/reference.json'), 'utf8')).molecules as { smiles: string }[];
const MORGAN = { radius: 2, nBits: 2048 };

function onBits(fp: Uint8Array): number[] {
  const out: number[] = [];
  for (const [byte, bits] of fp.entries()) for (let bit = 0; bit < 8; bit++) if (bits & (1 << bit)) out.push(byte * 8 + bit);
  return out;
}

describe('job chemistry vs native RDKit', () => {
  let rdkit: RDKitModule;
  let refFps: Uint8Array[];

  before(async () => {
    rdkit = await loadRDKit();
    refFps = (fixture.reference.indices as number[]).map((i) => {
      const mol = reference[i];
      assert.ok(mol, `reference molecule ${i} exists`);
      const r = morganFp(rdkit, mol.smiles, MORGAN);
      assert.ok(r.fp, `MinimalLib reads ${mol.smiles}`);
      return r.fp;
    });
  });

  it('Morgan fingerprints are bit-identical to GetMorganFingerprintAsBitVect(m, 2, 2048)', () => {
    for (const [i, bits] of Object.entries(fixture.library_on_bits as Record<string, number[]>)) {
      const r = morganFp(rdkit, fixture.library[Number(i)], MORGAN);
      assert.deepEqual(onBits(r.fp!), bits, fixture.library[Number(i)]);
      assert.equal(r.bits, bits.length);
    }
    const hashes = refFps.map((fp) => crypto.createHash('sha1').update(onBits(fp).join(',')).digest('hex').slice(0, 16));
    const same = hashes.filter((h, k) => h === fixture.reference.bits_sha1_16[k]).length;
    assert.equal(same, refFps.length, `${refFps.length - same} of ${refFps.length} fingerprints differ from native`);
  });

  it('Tanimoto equals DataStructs.TanimotoSimilarity', () => {
    for (const s of fixture.similarity) {
      const q = morganFp(rdkit, s.query, MORGAN).fp!;
      const natives = Object.entries(s.similarities as Record<string, number>);
      for (const [i, native] of natives) {
        const fp = morganFp(rdkit, fixture.library[Number(i)], MORGAN).fp!;
        assert.equal(tanimotoBytes(q, fp), native, `${s.query} vs ${fixture.library[Number(i)]}`);
      }
      // the applicability domain's form: the library packed end to end, the highest similarity
      const packed = Buffer.concat(natives.map(([i]) => morganFp(rdkit, fixture.library[Number(i)], MORGAN).fp!));
      assert.equal(maxTanimoto(q, new Uint8Array(packed)), Math.max(0, ...natives.map(([, v]) => v)), s.query);
    }
    assert.equal(maxTanimoto(new Uint8Array(256), new Uint8Array(0)), 0, 'an empty library');
  });

  it('substructure matches equal GetSubstructMatch / GetSubstructMatches', () => {
    for (const s of fixture.substructure) {
      const q = substructureQuery(rdkit, s.query, { format: s.format });
      assert.equal(q.format, s.format, s.query);
      const got: Record<string, { atoms: number[]; count: number }> = {};
      for (const i of fixture.library_parsed as number[]) {
        const m = substructureMatch(rdkit, fixture.library[i], { query: s.query, format: s.format, useChirality: false });
        if (m.matched) got[String(i)] = { atoms: m.atoms!, count: m.count };
      }
      assert.deepEqual(got, s.matches, `${s.query} (${s.format})`);
    }
  });

  it('auto reads a query as SMARTS first, SMILES when it is not SMARTS, and refuses garbage', () => {
    assert.equal(substructureQuery(rdkit as never, 'c1ccccc1O', { format: 'auto' }).format, 'smarts');
    assert.equal(substructureQuery(rdkit as never, '[OX2H]', { format: 'auto' }).format, 'smarts');
    assert.equal(substructureQuery(rdkit as never, '[OX2H]', { format: 'smiles' }).format, null);
    const bad = substructureQuery(rdkit, 'C1CC(', { format: 'auto' });
    assert.equal(bad.format, null);
    assert.match(bad.error!, /not a valid SMARTS or SMILES/);
  });

  for (const cutoff of ['0.35', '0.6']) {
    it(`Butina clusters equal rdkit.ML.Cluster.Butina.ClusterData at cutoff ${cutoff} (${fixture.reference.indices.length} molecules)`, () => {
      const got = butinaCluster(refFps, 2048, Number(cutoff));
      const native = fixture.reference.clusters[cutoff] as number[][];
      assert.equal(got.length, native.length, 'number of clusters');
      assert.deepEqual(got, native);
      assert.ok(
        native.some((c) => c.length > 3),
        'the reference has real clusters',
      );
    });
  }

  it('time-sliced passes (tiny budgets, many ranges) give the same clusters', () => {
    const cutoff = 0.35;
    const table = buildTable(refFps, 2048);
    const n = refFps.length;
    const base: ButinaOptions = { table, cutoff, counts: new SharedArrayBuffer(n * 4), budgetMs: 0 };
    // Budget 0: each call does one row, then returns.
    const ranges: [number, number][] = [
      [0, 300],
      [300, 301],
      [301, n],
    ];
    for (const [from, to] of ranges) {
      let at = from;
      while (at < to) at = butinaCount({ from: at, to }, base).next;
    }
    const order = new SharedArrayBuffer(n * 4);
    new Int32Array(order).set(butinaOrder(new Int32Array(base.counts)));
    const opts = { ...base, order, seen: new SharedArrayBuffer(n) };
    const clusters: number[][] = [];
    for (let pos = 0; pos < n;) {
      const o = butinaAssign(pos, opts);
      pos = o.next;
      clusters.push(...o.clusters);
    }
    assert.deepEqual(clusters, fixture.reference.clusters['0.35']);
  });

  it('handles the edges: no molecule, one molecule, identical molecules, cutoff 0 and 1', () => {
    assert.deepEqual(butinaCluster([], 2048, 0.35), []);
    const [fp, other] = refFps;
    assert.ok(fp && other);
    assert.deepEqual(butinaCluster([fp], 2048, 0.35), [[0]]);
    assert.deepEqual(butinaCluster([fp, fp, other, fp], 2048, 0), [[3, 0, 1], [2]]);
    const all = butinaCluster(refFps.slice(0, 50), 2048, 1);
    assert.equal(all.length, 1, 'cutoff 1: everything is one cluster');
    assert.equal(all[0]?.length, 50);
  });
});
