// Exports of the engine jobs that people can use (issue 32 point 8; docs/engines.md,
// "Structures" and "Frequencies and scans"): every CSV table names the molecule on each row
// (index, id, name, SMILES), a scan's table has one row per point, the structures port
// downloads as one multi-record SDF, the IR spectrum is titled with the molecule's name, and
// frequencies take a scale factor, applied to the frequencies and the spectrum and stated in
// the result.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sdfRecord } from '../../src/engines/molblock.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { upload } from '../artifacts/helpers.js';

describe("an SDF record (the structures port of the engine jobs, docking's poses and best)", () => {
  it('titles the molblock, writes the fields in order without the null ones, and ends with $$$$', () => {
    const molblock = 'old title\n  RDKit          3D\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 O   0  0\nM  END\n\n  \n';
    assert.equal(
      sdfRecord(molblock, 'water\r\nmolecule', { index: 0, energy: -5.07, note: null, rank: 1 }),
      'water  molecule\n  RDKit          3D\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 O   0  0\nM  END\n' +
        '>  <index>\n0\n\n>  <energy>\n-5.07\n\n>  <rank>\n1\n\n$$$$\n',
    );
    assert.equal(sdfRecord('t\nM  END', 'x'.repeat(90), {}), `${'x'.repeat(80)}\nM  END\n$$$$\n`);
  });
});

for (const backend of onlyOn('postgres')) {
  describe(`engine job exports (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    let set: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
      const up = await upload(h, { token }, { mode: 'molecules', file: { name: 'small.smi', content: 'OCC ethanol\nO water\n' } });
      assert.equal(up.status, 201, JSON.stringify(up.body));
      set = up.body.id;
    });
    after(async () => h?.close());

    async function run(jobType: string, payload: Record<string, unknown>) {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: jobType, job_type: jobType, payload } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 240_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const res = await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token });
      const get = (q: string) => h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}/download?${q}`, { token });
      const csv = (await get('port=table')).text.trim().split('\n');
      return { result: res.body, csv, get };
    }

    it('singlepoint: the table names each molecule (index, id, name, SMILES); the structures download as one SDF', async () => {
      const { result, csv, get } = await run('singlepoint', { input_artifact_id: set, method: 'gfnff' });
      assert.equal(csv[0]!.split(',').slice(0, 5).join(','), 'index,id,name,smiles,error');
      const rows = csv.slice(1).map((l) => l.split(','));
      assert.deepEqual(
        rows.map((r) => r.slice(0, 4)),
        [
          ['0', '1', 'ethanol', 'OCC'],
          ['1', '2', 'water', 'O'],
        ],
      );
      assert.deepEqual(
        rows.map((r) => r[4]),
        ['', ''],
      );
      assert.deepEqual(
        result.items.map((i: any) => i.name),
        ['ethanol', 'water'],
      );
      const sdf = await get('port=structures');
      assert.equal(sdf.headers.get('content-type'), 'chemical/x-mdl-sdfile');
      const records = sdf.text.split('$$$$\n').filter((x: string) => x.trim());
      assert.deepEqual(
        records.map((x: string) => x.split('\n')[0]),
        ['ethanol', 'water'],
      );
    });

    it('scan: one row per point, after the molecule’s index, id, name and SMILES; the plot is titled with the molecule', async () => {
      // Ethanol's H-C-C-O torsion: atoms O0 C1 C2, hydrogens 3 (O), 4-5 (C1), 6-8 (C2).
      const { result, csv, get } = await run('scan', { molecules: ['OCC'], method: 'gfnff', dihedral: [6, 2, 1, 0], start_deg: 0, end_deg: 120, steps: 3 });
      assert.equal(csv[0], 'index,id,name,smiles,error,point,angle_deg,energy_hartree,relative_kcal');
      const points = result.items[0].points as { angle_deg: number; energy_hartree: number; relative_kcal: number }[];
      assert.equal(points.length, 3);
      assert.deepEqual(
        csv.slice(1),
        points.map((p, n) => `0,0,,OCC,,${n + 1},${p.angle_deg},${p.energy_hartree},${p.relative_kcal}`),
      );
      const plot = (await get('port=plot')).text;
      assert.match(plot, /Torsion scan: OCC</);
    });

    it('frequencies: scale_factor multiplies the frequencies and the spectrum, and the result states it; the IR plot is titled with the name', async () => {
      const water = { input_artifact_id: set, method: 'gfnff' };
      const plain = await run('frequencies', water);
      const scaled = await run('frequencies', { ...water, scale_factor: 0.96 });
      assert.equal(plain.result.scale_factor, 1);
      assert.equal(scaled.result.scale_factor, 0.96);
      for (const k of [0, 1]) {
        const a = plain.result.items[k].frequencies_cm1 as number[];
        const b = scaled.result.items[k].frequencies_cm1 as number[];
        assert.ok(a.length >= 3);
        // Two runs build their 3D start alike, not bit for bit (a torsion's mode moves a few cm-1):
        // once unscaled the modes agree within 1 %, where the factor moves them by 4 %.
        assert.equal(b.length, a.length);
        b.forEach((f, i) => assert.ok(Math.abs(f / 0.96 - a[i]!) < 0.01 * Math.abs(a[i]!) + 1, `mode ${i}: ${f} / 0.96 vs ${a[i]}`));
        // The thermochemistry is the engine's, from the unscaled modes (scaled, the ZPVE would be 4 % lower).
        const [zs, zp] = [scaled.result.items[k].zpve_hartree, plain.result.items[k].zpve_hartree];
        assert.ok(Math.abs(zs - zp) < 0.002 * zp, `${zs} vs ${zp}`);
      }
      const header = scaled.csv[0]!.split(',');
      const low = header.indexOf('lowest_frequency_cm1');
      assert.equal(Number(scaled.csv[2]!.split(',')[low]), scaled.result.items[1].frequencies_cm1[0]);
      const plot = (await scaled.get('port=plot&record=2')).text;
      assert.match(plot, /IR spectrum: water</);
      assert.match(plot, /scaled ×0\.96/);
      assert.doesNotMatch(plot, /structure \d/);
      const bad = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'f', job_type: 'frequencies', payload: { ...water, scale_factor: 1.5 } } });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(bad.body.errors[0].loc, ['body', 'payload', 'scale_factor']);
    });
  });
}
