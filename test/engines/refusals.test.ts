// What the engine jobs refuse before they charge, and what they say (issue 32 point 3;
// docs/engines.md): a system without electrons ([H+], methane at +10) is a 422 at submit (an
// item error in an uploaded set); NaN, Infinity or absurd V3000 coordinates are refused when the
// molblock is read (a 422 inline, an upload warning); an xtb crash's detail is its first line,
// the backtrace only in the log; a receptor with an atom at 1e8 A is a 422; a 422 about a
// receptor of 20,000 hetero groups names a few and counts the rest; and the prepared-receptor
// cache is each user's own and lives under the instance's data directory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MAX_MESSAGE_CHARS } from '../../src/errors.js';
import { upload } from '../artifacts/helpers.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { boxOf, download, readData, uploadFile } from './docking-helpers.js';

/** A V3000 molblock of formaldehyde with `x` as the carbon's x coordinate. */
const v3000 = (x: string) =>
  [
    'formaldehyde',
    '     RDKit          3D',
    '',
    '  0  0  0  0  0  0  0  0  0  0999 V3000',
    'M  V30 BEGIN CTAB',
    'M  V30 COUNTS 2 1 0 0 0',
    'M  V30 BEGIN ATOM',
    `M  V30 1 C ${x} 0.0 0.5 0`,
    'M  V30 2 O 1.2 0.0 0.5 0',
    'M  V30 END ATOM',
    'M  V30 BEGIN BOND',
    'M  V30 1 2 1 2',
    'M  V30 END BOND',
    'M  V30 END CTAB',
    'M  END',
    '',
  ].join('\n');

/** H2 with both atoms at one point: xtb stops ("very close") and prints a backtrace. */
const COLLAPSED_H2 = [
  'collapsed',
  '     RDKit          3D',
  '',
  '  2  1  0  0  0  0  0  0  0  0999 V2000',
  '    1.0000    1.0000    1.0000 H   0  0  0  0  0  0  0  0  0  0  0  0',
  '    1.0000    1.0000    1.0000 H   0  0  0  0  0  0  0  0  0  0  0  0',
  '  1  2  1  0',
  'M  END',
  '',
].join('\n');

const atomLine = (rec: 'ATOM  ' | 'HETATM', serial: number, name: string, res: string, seq: number, x: number | string, el: string) =>
  `${rec}${String(serial).padStart(5)} ${name.padEnd(4)} ${res.padStart(3)} A${String(seq).padStart(4)}    ${(typeof x === 'number' ? x.toFixed(3) : x).padStart(8)}${'10.000'.padStart(8)}${'10.000'.padStart(8)}  1.00  0.00          ${el.padStart(2)}`;

/** One alanine, and `n` one-atom hetero groups of distinct 3-character names (none "ZZZ", no water's). */
function manyGroupsReceptor(n: number): string {
  const lines = [atomLine('ATOM  ', 1, ' CA', 'ALA', 1, 10, 'C'), atomLine('ATOM  ', 2, ' CB', 'ALA', 1, 11.5, 'C')];
  for (let i = 0, k = 0; k < n; i++) {
    const name = i.toString(36).toUpperCase().padStart(3, '0');
    if (['DOD', 'HOH', 'H2O', 'SOL', 'TIP', 'WAT'].includes(name)) continue;
    lines.push(atomLine('HETATM', 3 + (k % 90000), ' O', name, 1000 + (k % 8000), 12 + (k % 50) / 10, 'O'));
    k++;
  }
  return `${lines.join('\n')}\nEND\n`;
}

for (const backend of onlyOn('pglite')) {
  describe(`engine refusals [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    const submit = (token: string, job_type: string, payload: Record<string, unknown>) =>
      h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: job_type, job_type, payload } });
    const finished = async (token: string, pid: string) => {
      const done = await h.waitForJob(token, pid, undefined, 120_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token })).body.info;
      return { done, info, result: (await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token })).body };
    };
    const problemAt = (r: { status: number; body: any; text: string }, loc: (string | number)[], pattern: RegExp) => {
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(r.body.errors[0].loc, ['body', 'payload', ...loc], r.text);
      assert.match(r.body.errors[0].msg, pattern);
    };

    it('a system without electrons is refused: a 422 at submit inline, nothing reserved; an item error in an uploaded set', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const wallet = (await h.req('GET', '/api/v1/wallet', { token: u.token })).body;
      problemAt(
        await submit(u.token, 'singlepoint', { molecules: ['C', '[H+]'], method: 'gfnff' }),
        ['molecules', 1],
        /structure 1 has 0 electrons with charge 1: a calculation needs at least one electron/,
      );
      problemAt(
        await submit(u.token, 'optimize', { molecules: ['C'], charge: 10, method: 'gfn2' }),
        ['charge'],
        /structure 0 has 0 electrons with charge 10: a calculation needs at least one/,
      );
      problemAt(await submit(u.token, 'frequencies', { molecules: ['[Li+]'], charge: 3, method: 'gfn2' }), ['charge'], /has 0 electrons with charge 3/);
      assert.equal(
        (await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'singlepoint', payload: { molecules: ['[H+]'] } } })).status,
        422,
        'the estimate says so too',
      );
      assert.deepEqual((await h.req('GET', '/api/v1/wallet', { token: u.token })).body, wallet, 'nothing reserved');

      const set = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'ions.smi', content: 'C methane\n[H+] proton\n' } });
      assert.equal(set.status, 201, JSON.stringify(set.body));
      const r = await submit(u.token, 'singlepoint', { input_artifact_id: set.body.id, method: 'gfnff' });
      assert.equal(r.status, 200, r.text);
      const { result } = await finished(u.token, r.body.process_id);
      assert.equal(result.items[0].error, null);
      assert.equal(result.items[1].error, 'charge_multiplicity');
      assert.match(result.items[1].detail, /0 electrons with charge 1: a calculation needs at least one electron/);
      assert.equal(result.items[1].energy_hartree, undefined, 'no energy of nothing');
    });

    it('NaN, Infinity or absurd V3000 coordinates are refused when read: a 422 inline, an upload warning', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      for (const [x, why] of [
        ['NaN', /atom 1: its x coordinate "NaN" is not a number/],
        ['inf', /"inf" is not a number/],
        ['-Infinity', /"-Infinity" is not a number/],
        ['1e400', /1e400 Å is beyond ±100,000 Å/],
        ['1e8', /1e8 Å is beyond/],
      ] as const) {
        problemAt(await submit(u.token, 'optimize', { molecules: [v3000('0.0'), v3000(x)], method: 'gfnff' }), ['molecules', 1], why);
        problemAt(await submit(u.token, 'docking', { molecules: [v3000(x)], pdb_id: '1IEP', box: boxOf('1iep') }), ['molecules', 0], why);
      }
      const sdf = `${v3000('0.0')}$$$$\n${v3000('nan')}$$$$\n`;
      const set = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'v3000.sdf', content: sdf } });
      assert.equal(set.status, 201, JSON.stringify(set.body));
      assert.equal(set.body.manifest.ports.molecules.record_count, 1);
      assert.deepEqual(
        set.body.manifest.warnings.map((w: { type: string; entry: number; msg: string }) => [w.type, w.entry, /its x coordinate "nan" is not a number/.test(w.msg)]),
        [['unparseable', 2, true]],
      );
      // A finite V3000 molblock runs.
      const ok = await submit(u.token, 'singlepoint', { molecules: [v3000('0.0')], method: 'gfnff' });
      assert.equal(ok.status, 200, ok.text);
      assert.equal((await finished(u.token, ok.body.process_id)).result.items[0].error, null);
    });

    it("an xtb crash: the item's detail is its first line; the backtrace stays in the log", async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const r = await submit(u.token, 'singlepoint', { molecules: [COLLAPSED_H2], method: 'gfn2' });
      assert.equal(r.status, 200, r.text);
      const { done, result } = await finished(u.token, r.body.process_id);
      const item = result.items[0];
      assert.equal(item.error, 'engine_failed');
      assert.equal(item.detail, 'xtb: Some atoms in the start geometry are *very* close (its whole output is in the logs port)');
      const log = await download(h, u.token, done.result_artifact_id!, 'logs', '0');
      assert.match(log, /Backtrace|#0 {2}0x/, 'the log keeps the whole output');
      assert.match(log, /Found \*very\* short distance/);
    });

    it('a receptor with an atom at 1e8 A is a 422 at submit; a 422 about 20,000 hetero groups names five and counts the rest', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const far = [atomLine('ATOM  ', 1, ' CA', 'ALA', 1, 10, 'C'), atomLine('ATOM  ', 2, ' CB', 'ALA', 1, '1e8', 'C'), 'END', ''].join('\n');
      const farId = await uploadFile(h, u.token, 'far.pdb', far);
      const payload = { molecules: ['c1ccccc1O'], box: { center: [10, 10, 10], size: [20, 20, 20] } };
      const wallet = (await h.req('GET', '/api/v1/wallet', { token: u.token })).body;
      problemAt(
        await submit(u.token, 'docking', { ...payload, receptor_artifact_id: farId }),
        ['receptor_artifact_id'],
        /line 2 places an atom at \(100000000, 10, 10\) A, beyond what the PDB format holds/,
      );
      assert.deepEqual((await h.req('GET', '/api/v1/wallet', { token: u.token })).body, wallet, 'nothing reserved');

      const many = await uploadFile(h, u.token, 'many.pdb', manyGroupsReceptor(20_000));
      const est = (body: Record<string, unknown>) =>
        h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'docking', payload: { molecules: ['c1ccccc1O'], receptor_artifact_id: many, ...body } } });
      const missing = await est({ box_site: 'ZZZ' });
      problemAt(missing, ['box_site'], /^the receptor has no hetero group ZZZ \(its hetero groups: 000, 001, 002, 003, 004 and 19,995 more\)$/);
      const ligand = await est({ box_site: 'ligand' });
      problemAt(ligand, ['box_site'], /its hetero groups are .+; .+ and 19,995 more; give box_site/);
      for (const r of [missing, ligand]) {
        assert.ok(r.text.length < 2_000, `${r.text.length} characters`);
        assert.ok(r.body.detail.length <= MAX_MESSAGE_CHARS + 60);
      }
    });

    it("the prepared-receptor cache is each user's own, under the data directory", { skip: backend.name !== 'pglite' && 'the cache does not depend on the database' }, async () => {
      const [a, b] = [await h.user(), await h.user()];
      for (const x of [a, b]) await h.credit(x.userId, 5);
      const text = readData('5x72_receptorH.pdb');
      const dock = async (token: string) => {
        const receptor = await uploadFile(h, token, '5x72.pdb', text);
        const r = await submit(token, 'docking', { molecules: ['c1ccccc1O'], receptor_artifact_id: receptor, box: boxOf('5x72'), exhaustiveness: 1, num_modes: 1 });
        assert.equal(r.status, 200, r.text);
        const { result } = await finished(token, r.body.process_id);
        assert.equal(result.items[0].error, null, result.items[0].detail);
        return result.receptor.prepared_from_cache as boolean;
      };
      assert.equal(await dock(a.token), false, "A's first docking prepares the receptor");
      assert.equal(await dock(a.token), true, "A's second takes it from A's cache");
      assert.equal(await dock(b.token), false, 'B, docking the same file, learns nothing of A');
      const dir = path.join(h.services.config.dataDir, 'cache', 'receptors');
      assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.pdbqt')).length, 2, 'one prepared receptor per user, under the data directory');
    });
  });
}
