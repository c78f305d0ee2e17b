// Docking's bad input (issue 24 point 4; docs/engines.md, "Docking"), the box around "its ligand", and receptors from RCSB PDB
// through the lookups' file host (a local stand-in serving the PDB format, never the network):
// a receptor that is not a protein PDB, a box that misses it or passes 126 A, a PDB ID RCSB PDB
// does not have, the rcsb source disabled or unreachable, over 1,000 ligands, a receptor over
// 50 MB, and a receptor that disappears before the job runs (a job error with the reason).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { workersStore } from '../../src/compute/workers-store.js';
import { BACKENDS, onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { closedPortBase, StandIn } from '../lookups/stand-in.js';
import { boxOf, download, readData, twoLigandReceptor, uploadFile } from './docking-helpers.js';

const LIGAND = 'c1ccccc1O';

for (const backend of onlyOn('pglite')) {
  describe(`docking inputs [${backend.name}]`, () => {
    let h: Harness;
    let standIn: StandIn;
    before(async () => {
      standIn = await new StandIn().start();
      h = await startHarness(backend, { CRUCIBLE_RCSB_FILES_URL: standIn.base }, { workers: 1 });
    });
    after(async () => {
      await h?.close();
      await standIn?.stop();
    });

    const estimate = (token: string, payload: Record<string, unknown>) => h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'docking', payload } });
    const problemAt = (r: { status: number; body: any; text: string }, loc: (string | number)[], pattern: RegExp) => {
      assert.equal(r.status, 422, r.text);
      const e = r.body.errors.find((x: { loc: unknown[] }) => JSON.stringify(x.loc) === JSON.stringify(['body', 'payload', ...loc]));
      assert.ok(e, `no error at ${loc.join('.')}: ${r.text}`);
      assert.match(e.msg, pattern);
    };

    it('422 for a receptor that is not a protein PDB, a box that misses it or passes 126 A, a reference without coordinates, over 1,000 ligands', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const receptor = await uploadFile(h, u.token, '5x72.pdb', readData('5x72_receptorH.pdb'));
      const box = boxOf('5x72');
      assert.equal((await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, box })).status, 200);

      const sdf = await uploadFile(h, u.token, 'ligand.sdf', readData('5x72_ligand_p59.sdf'));
      problemAt(await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: sdf, box }), ['receptor_artifact_id'], /not a PDB file/);
      const hetOnly = await uploadFile(h, u.token, 'het.pdb', 'HETATM    1  O   HOH A   1      10.000  10.000  10.000  1.00  0.00           O\nEND\n');
      problemAt(await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: hetOnly, box }), ['receptor_artifact_id'], /no ATOM records/);
      const text = await uploadFile(h, u.token, 'notes.pdb', 'this is not a structure\n');
      problemAt(await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: text, box }), ['receptor_artifact_id'], /no ATOM records/);
      const noResidues = await uploadFile(h, u.token, 'lig.pdb', 'ATOM      1  C1  LIG A   1      10.000  10.000  10.000  1.00  0.00           C\nEND\n');
      problemAt(await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: noResidues, box }), ['receptor_artifact_id'], /no amino-acid or nucleotide residue/);
      const badCoords = await uploadFile(h, u.token, 'bad.pdb', 'ATOM      1  CA  ALA A   1      10.000  ten.000  10.000  1.00  0.00           C\nEND\n');
      problemAt(
        await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: badCoords, box }),
        ['receptor_artifact_id'],
        /line 1 is an atom record without valid coordinates/,
      );

      problemAt(
        await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, box: { center: [200, 200, 200], size: [20, 20, 20] } }),
        ['box'],
        /holds no atom of the receptor/,
      );
      problemAt(
        await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, box: { center: box.center, size: [127, 20, 20] } }),
        ['box', 'size', 0],
        /less than or equal to 126/,
      );
      problemAt(
        await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, box: { center: box.center, size: [0, 20, 20] } }),
        ['box', 'size', 0],
        /greater than 0/,
      );
      const smi = await uploadFile(h, u.token, 'ref.smi', 'c1ccccc1 benzene\n');
      problemAt(
        await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, reference_ligand_artifact_id: smi }),
        ['reference_ligand_artifact_id'],
        /no atoms with coordinates/,
      );
      const far = await uploadFile(h, u.token, 'far.pdb', 'HETATM    1  C1  LIG A   1     300.000 300.000 300.000  1.00  0.00           C\nEND\n');
      problemAt(
        await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, reference_ligand_artifact_id: far }),
        ['reference_ligand_artifact_id'],
        /holds no atom/,
      );
      const wide = await uploadFile(
        h,
        u.token,
        'wide.pdb',
        'HETATM    1  C1  LIG A   1     -60.000  15.000 129.000  1.00  0.00           C\nHETATM    2  C2  LIG A   1      60.000  15.000 129.000  1.00  0.00           C\nEND\n',
      );
      problemAt(
        await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, reference_ligand_artifact_id: wide, padding: 4 }),
        ['reference_ligand_artifact_id'],
        /128 A along x; at most 126/,
      );

      problemAt(await estimate(u.token, { molecules: [LIGAND], box }), ['receptor_artifact_id'], /Field required/);
      problemAt(await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, pdb_id: '1IEP', box }), ['pdb_id'], /not both/);
      problemAt(await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor }), ['box'], /Field required/);
      problemAt(await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: receptor, box, padding: 2 }), ['padding'], /reference_ligand_artifact_id and box_site only/);
      problemAt(
        await estimate(u.token, { molecules: Array.from({ length: 1001 }, () => 'C'), receptor_artifact_id: receptor, box }),
        ['molecules'],
        /at most 1000 ligands, not 1001: dock a larger library through a workflow/,
      );
      // A submit that is refused reserves nothing.
      const refused = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'x', job_type: 'docking', payload: { molecules: [LIGAND], receptor_artifact_id: sdf, box } },
      });
      assert.equal(refused.status, 422);
      assert.equal((await h.req('GET', '/api/v1/wallet', { token: u.token })).body.reserved_usd, 0);
    });

    it('box_site "ligand" when the receptor has several ligands: a 422 listing them; named, the box is around that one', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const two = await uploadFile(h, u.token, 'two.pdb', twoLigandReceptor());
      problemAt(
        await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: two, box_site: 'ligand' }),
        ['box_site'],
        /the receptor has 2 ligands, so "its ligand" cannot be told: STI \(37 heavy atoms\), XYZ \(37 heavy atoms\); give box_site as one of their residue names/,
      );
      const named = await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: two, box_site: 'XYZ' });
      assert.equal(named.status, 200, named.text);
      assert.deepEqual(named.body.assumptions.box.center, [35.19, 53.903, 16.917]);
    });

    it('413 for a receptor over 50 MB', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const line = 'ATOM      1  CA  ALA A   1      10.000  10.000  10.000  1.00  0.00           C\n';
      const big = await uploadFile(h, u.token, 'big.pdb', Buffer.from(line.repeat(Math.ceil((50 * 1024 * 1024 + 1) / line.length))));
      const r = await estimate(u.token, { molecules: [LIGAND], receptor_artifact_id: big, box: { center: [10, 10, 10], size: [10, 10, 10] } });
      assert.equal(r.status, 413, r.text);
      assert.equal(r.body.type, '/api/v1/problems/payload-too-large');
      assert.match(r.body.detail, /at most 52428800 bytes \(50 MB\)/);
    });

    it('a pdb_id is fetched from RCSB PDB (the file host), prepared (waters and hetero groups out unless kept, hydrogens added) and cached; one RCSB does not have is a 422 naming it', async () => {
      const u = await h.user();
      await h.credit(u.userId, 10);
      standIn.reset();
      const box = boxOf('1iep');
      const missing = await estimate(u.token, { molecules: [LIGAND], pdb_id: '9ZZZ', box });
      problemAt(missing, ['pdb_id'], /PDB entry 9ZZZ was not found at RCSB PDB/);
      problemAt(await estimate(u.token, { molecules: [LIGAND], pdb_id: '1IEPX', box }), ['pdb_id'], /pattern/);
      assert.deepEqual(
        standIn.requests.map((q) => q.path),
        ['/download/9ZZZ.pdb'],
      );
      // box_site: a hetero group of the entry by residue name (the first of its groups).
      problemAt(await estimate(u.token, { molecules: [LIGAND], pdb_id: '1IEP', box_site: 'XYZ' }), ['box_site'], /no hetero group XYZ \(its hetero groups: STI, SO4\)/);
      problemAt(await estimate(u.token, { molecules: [LIGAND], pdb_id: '1IEP', box, box_site: 'STI' }), ['box_site'], /one of box, reference_ligand_artifact_id and box_site/);
      const site = await estimate(u.token, { molecules: [LIGAND], pdb_id: '1IEP', box_site: 'sti', padding: 5 });
      assert.equal(site.status, 200, site.text);
      assert.deepEqual(site.body.assumptions.box, { center: [15.19, 53.903, 16.917], size: [18.664, 26.739, 23.526], box_site: 'STI' });
      // box_site "ligand": its ligand, the one hetero group that is neither water, an ion or additive, nor kept (SO4 is an ion: STI).
      const its = await estimate(u.token, { molecules: [LIGAND], pdb_id: '1IEP', box_site: 'ligand', padding: 5 });
      assert.equal(its.status, 200, its.text);
      assert.deepEqual(its.body.assumptions.box, site.body.assumptions.box);
      problemAt(
        await estimate(u.token, { molecules: [LIGAND], pdb_id: '1IEP', box_site: 'ligand', keep_hetero: ['STI'] }),
        ['box_site'],
        /no ligand to dock around: its hetero groups are STI \(37 heavy atoms\), kept in the receptor; SO4 \(5 heavy atoms\), an ion or small additive; give box_site/,
      );
      problemAt(await estimate(u.token, { molecules: [LIGAND], pdb_id: '1IEP', box_site: 'LIGAND' }), ['box_site'], /pattern/);

      const run = async (extra: Record<string, unknown>) => {
        const s = await h.req('POST', '/api/v1/jobs/submit', {
          token: u.token,
          body: { job_name: '1iep', job_type: 'docking', payload: { molecules: [LIGAND], pdb_id: '1iep', box, exhaustiveness: 1, num_modes: 1, ...extra } },
        });
        assert.equal(s.status, 200, s.text);
        const done = await h.waitForJob(u.token, s.body.process_id, undefined, 300_000);
        assert.equal(done.status, 'completed', done.message ?? '');
        const status = (await h.req('GET', `/api/v1/jobs/status?process_id=${s.body.process_id}`, { token: u.token })).body;
        const body = (await h.req('GET', `/api/v1/jobs/result?process_id=${s.body.process_id}`, { token: u.token })).body;
        return { ...body, artifact: status.result_artifact_id as string };
      };
      const r = await run({});
      assert.equal(r.receptor.pdb_id, '1IEP');
      assert.equal(r.receptor.license, 'CC0 1.0');
      assert.match(r.receptor.attribution, /RCSB Protein Data Bank/);
      assert.equal(r.receptor.url, 'https://www.rcsb.org/structure/1IEP');
      assert.deepEqual(r.receptor.removed_hetero, { STI: 1, HOH: 2, SO4: 1 });
      assert.deepEqual(r.receptor.kept_hetero, {});
      // RCSB's entry has no hydrogens: docking prepared it as receptor_prepare does and says so
      // (docs/structure.md, "Docking a raw receptor").
      assert.equal(r.receptor.hydrogens, 'added by PDBFixer and PDB2PQR with PROPKA at pH 7.4');
      assert.equal(r.receptor.preparation.by, 'pdbfixer+pdb2pqr');
      assert.ok(r.receptor.preparation.hydrogens_added > 2000, String(r.receptor.preparation.hydrogens_added));
      assert.equal(r.receptor.preparation.protonation.filter((x: { residue: string }) => x.residue.startsWith('HIS ')).length, 6);
      const log = await download(h, u.token, r.artifact, 'logs', 'receptor');
      assert.match(log, /\$ pdb2pqr .*--titration-state-method=propka --with-ph=7\.4/);
      assert.match(log, /\$ obabel receptor\.pdb -xr -O receptor\.pdbqt/, "Open Babel keeps PDB2PQR's hydrogens");
      const ob = await run({ receptor_protonation: 'openbabel', pose_checks: false });
      assert.equal(ob.receptor.hydrogens, 'added by Open Babel at pH 7.4');
      assert.equal(ob.receptor.preparation, undefined);
      assert.equal(r.items[0].error, null, r.items[0].detail);
      assert.ok(r.items[0].best_score_kcal_mol < -3, String(r.items[0].best_score_kcal_mol));
      // The receptor as docked is the result's `receptor` port: RCSB's entry without its waters,
      // STI and SO4 (the console draws the poses in it).
      const pdb = await download(h, u.token, r.artifact, 'receptor');
      const atoms = pdb.split('\n').filter((l) => /^(ATOM|HETATM)/.test(l));
      assert.ok(atoms.length > 1000, `${atoms.length} atoms`);
      assert.ok(
        atoms.every((l) => l.startsWith('ATOM')),
        'no hetero group left',
      );
      assert.match(r.ports.receptor, /^the receptor as docked/);
      // The file came once (submit), then from the cache (run).
      assert.equal(standIn.requests.filter((q) => q.path === '/download/1IEP.pdb').length, 1);
      const kept = await run({ keep_hetero: ['HOH', 'so4'] });
      assert.deepEqual(kept.receptor.kept_hetero, { HOH: 2, SO4: 1 });
      assert.deepEqual(kept.receptor.removed_hetero, { STI: 1 });
      assert.ok(kept.receptor.atoms_pdbqt > r.receptor.atoms_pdbqt);
      // Around its ligand: resolved when the job runs, and named in the result.
      const around = await run({ box: undefined, box_site: 'ligand' });
      assert.deepEqual(around.box, { center: [15.19, 53.903, 16.917], size: [16.664, 24.739, 21.526], from: 'site', box_site: 'STI', asked: 'ligand', padding: 4 });
      assert.equal(around.items[0].error, null, around.items[0].detail);
      assert.equal(standIn.requests.filter((q) => q.path === '/download/1IEP.pdb').length, 1);
    });

    it('a receptor that is gone when the job runs: the job ends error with the reason', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const receptor = await uploadFile(h, u.token, '5x72.pdb', readData('5x72_receptorH.pdb'));
      // No worker fetches while the artifact goes: the runtime stops, and a worker row that fetches nothing keeps submit open.
      const engines = h.runtime!.foundEngines!;
      await h.runtime!.stop();
      await workersStore.register(h.services.db, { workerId: 'idle-test-worker', hostname: 'test', pid: process.pid, slots: 1, engines });
      try {
        const s = await h.req('POST', '/api/v1/jobs/submit', {
          token: u.token,
          body: { job_name: 'gone', job_type: 'docking', payload: { molecules: [LIGAND], receptor_artifact_id: receptor, box: boxOf('5x72') } },
        });
        assert.equal(s.status, 200, s.text);
        assert.equal((await h.req('DELETE', `/api/v1/artifacts/${receptor}`, { token: u.token })).status, 200);
        await h.runtime!.start();
        const done = await h.waitForJob(u.token, s.body.process_id, undefined, 120_000);
        assert.equal(done.status, 'error');
        assert.match(done.message ?? '', /the receptor file cannot be read: .*not found/);
      } finally {
        await workersStore.remove(h.services.db, 'idle-test-worker');
        await h.runtime!.start().catch(() => undefined);
      }
    });
  });
}

describe('docking by pdb_id when RCSB PDB is disabled or unreachable [pglite]', () => {
  it('503 source-disabled with CRUCIBLE_LOOKUPS_DISABLED=rcsb; 503 naming the failure when the host does not answer', async () => {
    const closed = await closedPortBase();
    for (const [env, type, pattern] of [
      [{ CRUCIBLE_LOOKUPS_DISABLED: 'rcsb', CRUCIBLE_RCSB_FILES_URL: closed }, 'source-disabled', /rcsb lookup source, which is disabled/],
      [{ CRUCIBLE_RCSB_FILES_URL: closed }, 'http-503', /RCSB PDB could not be reached for 1IEP \(rcsb_files: connection refused by 127\.0\.0\.1:\d+\)/],
    ] as const) {
      const h = await startHarness(BACKENDS[0]!, env, { workers: 1 });
      try {
        const u = await h.user();
        await h.credit(u.userId, 1);
        const r = await h.req('POST', '/api/v1/jobs/estimate', {
          token: u.token,
          body: { job_type: 'docking', payload: { molecules: [LIGAND], pdb_id: '1IEP', box: boxOf('1iep') } },
        });
        assert.equal(r.status, 503, r.text);
        assert.equal(r.body.type, `/api/v1/problems/${type}`);
        assert.match(r.body.detail, pattern);
      } finally {
        await h.close();
      }
    }
  });
});
