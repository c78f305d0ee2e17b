// The `receptor_prepare` job type through the API (docs/structure.md, "Receptor preparation"):
// 1IEP (Abl kinase) without its hydrogens, Lys 271 cut back to its CB, a water and a hetero group
// (EDO) added. The job puts back the lysine's side chain, removes the water and the EDO (each
// listed in changes), adds about as many hydrogens as the original file had, lists every His's
// state; at pH 4 PROPKA protonates Asp and Glu (ASH, GLH) and every His (HIP) where at 7.4 none
// are; kept, the water gets its hydrogens and the EDO stays once. The prepared receptor (the
// result artifact) docks. An RCSB entry (the lookups' stand-in) loses imatinib, its waters and
// its sulfate, each listed. A file with no protein is a 422 at
// submit; PDBFixer and PDB2PQR failing on strange files are job errors in their own words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { StandIn } from '../lookups/stand-in.js';
import { boxOf, download, readData, uploadFile } from './docking-helpers.js';
import { resultSchemaErrors } from './helpers.js';

interface Item {
  error: string | null;
  atoms: number;
  hydrogens_added: number;
  changes: { residue: string; what: string }[];
  protonation: { residue: string; state: string }[];
  missing_residues: unknown[];
}

const ORIGINAL = readData('1iep_receptorH.pdb');
const atomLines = (text: string) => text.split('\n').filter((l) => l.startsWith('ATOM  ') || l.startsWith('HETATM'));
const isH = (l: string) => l.slice(76, 78).trim() === 'H';
const ORIGINAL_H = atomLines(ORIGINAL).filter(isH).length;

/** 1IEP's heavy atoms, Lys 271 past its CB removed, a water and an ethylene glycol (EDO) added. */
function damaged(): string {
  const out: string[] = [];
  for (const l of ORIGINAL.split('\n')) {
    if (l.startsWith('TER')) out.push(l);
    if (!l.startsWith('ATOM  ') || isH(l)) continue;
    if (l.slice(17, 20) === 'LYS' && l.slice(22, 26).trim() === '271' && !['N', 'CA', 'C', 'O', 'CB'].includes(l.slice(12, 16).trim())) continue;
    out.push(l);
  }
  out.push(
    'HETATM 9001  O   HOH A 601      30.000  60.000  20.000  1.00  0.00           O  ',
    'HETATM 9002  C1  EDO A 602      31.000  61.000  21.000  1.00  0.00           C  ',
    'HETATM 9003  O1  EDO A 602      32.200  61.000  21.000  1.00  0.00           O  ',
    'END',
  );
  return out.join('\n') + '\n';
}

/** The first `n` residues of 1IEP's heavy atoms, each line changed by `edit`. */
function fragment(n: number, edit: (l: string) => string | null): string {
  const lines = atomLines(ORIGINAL).filter((l) => !isH(l) && Number(l.slice(22, 26)) < 225 + n);
  return `${lines
    .map(edit)
    .filter((l): l is string => l !== null)
    .join('\n')}\nEND\n`;
}

for (const backend of onlyOn('postgres')) {
  describe(`receptor_prepare (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    let standIn: StandIn;
    before(async () => {
      // RCSB PDB's files through the lookups' stand-in (1IEP: chain A, STI, two waters, a sulfate).
      standIn = await new StandIn().start();
      h = await startHarness(backend, { CRUCIBLE_RCSB_FILES_URL: standIn.base }, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(async () => {
      await h?.close();
      await standIn?.stop();
    });

    const submit = (jobType: string, payload: Record<string, unknown>) => h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: jobType, job_type: jobType, payload } });
    const run = async (jobType: string, payload: Record<string, unknown>) => {
      const r = await submit(jobType, payload);
      assert.equal(r.status, 200, r.text);
      const t0 = Date.now();
      const done = await h.waitForJob(token, r.body.process_id, undefined, 300_000);
      const res = done.status === 'completed' ? (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body : null;
      return { done, res, ms: Date.now() - t0 };
    };

    it('1IEP with a cut lysine, a water and a hetero group: atoms restored, groups removed, hydrogens added, His states; pH 4 protonates Asp/Glu; the result docks', async () => {
      const receptor = await uploadFile(h, token, '1iep_damaged.pdb', damaged());
      const at74 = await run('receptor_prepare', { receptor_artifact_id: receptor });
      assert.equal(at74.done.status, 'completed', at74.done.message ?? '');
      console.log(`receptor_prepare of 1IEP at pH 7.4: ${at74.ms} ms from submit to completed`);
      assert.equal(await resultSchemaErrors(h, 'ReceptorPrepareResult', at74.res), null);
      assert.equal(at74.res.ph, 7.4);
      assert.deepEqual(at74.res.receptor.removed_hetero, { HOH: 1, EDO: 1 });
      const item = at74.res.items[0] as Item;
      assert.equal(item.error, null);
      assert.deepEqual(
        item.changes.filter((c) => /LYS A 271|HOH|EDO/.test(c.residue)),
        [
          { residue: 'LYS A 271', what: 'added side-chain atoms CG, CD, CE, NZ' },
          { residue: 'HOH A 601', what: 'removed water' },
          { residue: 'EDO A 602', what: 'removed hetero group EDO' },
        ],
      );
      // The file has no OXT on its last residue: PDBFixer adds it.
      assert.ok(item.changes.some((c) => c.residue === 'GLN A 498' && c.what === 'added terminal atoms OXT'));
      assert.deepEqual(item.missing_residues, []);
      // Every hydrogen is PDB2PQR's: within 2% of the original file's 2,183.
      assert.ok(Math.abs(item.hydrogens_added - ORIGINAL_H) <= 0.02 * ORIGINAL_H, `${item.hydrogens_added} hydrogens, the original has ${ORIGINAL_H}`);
      const heavy = atomLines(ORIGINAL).filter((l) => !isH(l)).length;
      assert.equal(item.atoms, heavy + 1 + item.hydrogens_added, 'the original heavy atoms and OXT, with the hydrogens');
      const his = item.protonation.filter((p) => p.residue.startsWith('HIS '));
      assert.equal(his.length, 6, "1IEP's six His, each with its state");
      assert.ok(
        his.every((p) => ['HID', 'HIE', 'HIP'].includes(p.state)),
        JSON.stringify(his),
      );
      assert.deepEqual(
        item.protonation.filter((p) => ['ASH', 'GLH'].includes(p.state)),
        [],
        'no Asp or Glu protonated at 7.4',
      );

      // The prepared PDB: the lysine whole and charged (NZ with three hydrogens), no water, no EDO.
      const pdb = await download(h, token, at74.done.result_artifact_id!, 'receptor');
      const lys = atomLines(pdb).filter((l) => l.slice(17, 26) === 'LYS A 271');
      assert.deepEqual(
        ['NZ', 'HZ1', 'HZ2', 'HZ3'].map((n) => lys.some((l) => l.slice(12, 16).trim() === n)),
        [true, true, true, true],
      );
      assert.equal(atomLines(pdb).length, item.atoms);
      assert.ok(!/HOH|EDO/.test(pdb));

      const at4 = await run('receptor_prepare', { receptor_artifact_id: receptor, ph: 4 });
      assert.equal(at4.done.status, 'completed', at4.done.message ?? '');
      const item4 = at4.res.items[0] as Item;
      const acids = item4.protonation.filter((p) => ['ASH', 'GLH'].includes(p.state));
      assert.ok(acids.length >= 5, `PROPKA protonates Asp and Glu at pH 4: ${JSON.stringify(acids)}`);
      assert.ok(acids.every((p) => /^(ASP|GLU) A \d+$/.test(p.residue)));
      assert.deepEqual(
        item4.protonation.filter((p) => p.residue.startsWith('HIS ')).map((p) => p.state),
        Array<string>(6).fill('HIP'),
      );
      assert.ok(item4.hydrogens_added > item.hydrogens_added, 'more protons at pH 4');

      // Kept: the water gets its two hydrogens (PDB2PQR names it WAT), the EDO stays as it is; each once.
      const kept = await run('receptor_prepare', { receptor_artifact_id: receptor, keep_waters: true, keep_hetero: ['edo'] });
      assert.equal(kept.done.status, 'completed', kept.done.message ?? '');
      const itemK = kept.res.items[0] as Item;
      assert.deepEqual(
        itemK.changes.filter((c) => c.what.startsWith('removed')),
        [],
      );
      assert.deepEqual(kept.res.receptor.kept_hetero, { HOH: 1, EDO: 1 });
      assert.equal(itemK.hydrogens_added, item.hydrogens_added + 2);
      assert.equal(itemK.atoms, item.atoms + 3 + 2);
      const keptPdb = atomLines(await download(h, token, kept.done.result_artifact_id!, 'receptor'));
      assert.deepEqual(
        keptPdb.filter((l) => / 60[12] /.test(l.slice(20, 27))).map((l) => `${l.slice(17, 20)} ${l.slice(12, 16).trim()}`),
        ['WAT OW', 'WAT HW', 'WAT HW', 'EDO C1', 'EDO O1'],
      );

      // fill_missing false: PDBFixer adds nothing, PDB2PQR still rebuilds the lysine, and says so.
      const unfilled = await run('receptor_prepare', { receptor_artifact_id: receptor, fill_missing: false });
      assert.equal(unfilled.done.status, 'completed', unfilled.done.message ?? '');
      assert.deepEqual(
        (unfilled.res.items[0] as Item).changes.filter((c) => c.residue === 'LYS A 271'),
        [{ residue: 'LYS A 271', what: "added atoms CG, CD, CE, NZ (PDB2PQR's repair)" }],
      );

      // The result artifact is a docking receptor: a small ligand docks into imatinib's site.
      const dock = await run('docking', {
        molecules: ['NC(=O)c1ccccc1'],
        receptor_artifact_id: at74.done.result_artifact_id,
        box: boxOf('1iep'),
        exhaustiveness: 1,
        num_modes: 1,
      });
      assert.equal(dock.done.status, 'completed', dock.done.message ?? '');
      assert.equal(dock.res.receptor.hydrogens, "the file's own");
      assert.equal(dock.res.items[0].error, null, dock.res.items[0].detail ?? '');
      assert.ok(dock.res.items[0].poses[0].score_kcal_mol < -3, JSON.stringify(dock.res.items[0].poses[0].score_kcal_mol));
    });

    it('an RCSB PDB entry (1IEP): imatinib (STI), the waters and the sulfate removed, each listed in file order', async () => {
      const r = await run('receptor_prepare', { pdb_id: '1iep' });
      assert.equal(r.done.status, 'completed', r.done.message ?? '');
      assert.equal(r.res.receptor.pdb_id, '1IEP');
      const item = r.res.items[0] as Item;
      assert.deepEqual(
        item.changes.filter((c) => c.what.startsWith('removed')),
        [
          { residue: 'STI A 201', what: 'removed hetero group STI' },
          { residue: 'HOH A 401', what: 'removed water' },
          { residue: 'HOH A 402', what: 'removed water' },
          { residue: 'SO4 A 301', what: 'removed hetero group SO4' },
        ],
      );
      assert.ok(Math.abs(item.hydrogens_added - ORIGINAL_H) <= 0.02 * ORIGINAL_H, `${item.hydrogens_added} hydrogens`);
    });

    it('a file without protein is a 422 at submit; PDBFixer and PDB2PQR failing are job errors carrying their messages', async () => {
      const hetOnly = await uploadFile(h, token, 'water.pdb', 'HETATM    1  O   HOH A 601      30.000  60.000  20.000  1.00  0.00           O  \nEND\n');
      const r = await submit('receptor_prepare', { receptor_artifact_id: hetOnly });
      assert.equal(r.status, 422, r.text);
      assert.match(r.body.detail, /no ATOM records: it is not a protein structure/);
      assert.deepEqual(r.body.errors?.[0]?.loc ?? r.body.issues?.[0]?.loc, ['body', 'payload', 'receptor_artifact_id']);
      const neither = await submit('receptor_prepare', {});
      assert.equal(neither.status, 422, neither.text);

      // Every atom at the origin: PDBFixer's own exception.
      const collapsed = await uploadFile(
        h,
        token,
        'collapsed.pdb',
        fragment(10, (l) => `${l.slice(0, 30)}   0.000   0.000   0.000${l.slice(54)}`),
      );
      const fixer = await run('receptor_prepare', { receptor_artifact_id: collapsed });
      assert.equal(fixer.done.status, 'error');
      assert.match(fixer.done.message ?? '', /PDBFixer could not read or complete the structure: ZeroDivisionError/);

      // Alpha carbons only and nothing filled: PDB2PQR gives up (its message, whatever its words).
      const caOnly = await uploadFile(
        h,
        token,
        'ca.pdb',
        fragment(10, (l) => (l.slice(12, 16) === ' CA ' ? l : null)),
      );
      const pqr = await run('receptor_prepare', { receptor_artifact_id: caOnly, fill_missing: false });
      assert.equal(pqr.done.status, 'error');
      assert.match(pqr.done.message ?? '', /PDB2PQR \(PROPKA\) could not protonate the structure: \S/);
    });
  });
}
