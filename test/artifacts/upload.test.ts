// POST /artifacts in each mode, over HTTP, against each database backend.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { countRows, download, makeZip, readZip, storedObjects, upload } from './helpers.js';

const SMI = `# a comment line
smiles name
CCO ethanol
c1ccccc1\tbenzene ring
CC(=O)Oc1ccccc1C(=O)O aspirin (acetylsalicylic acid)
C1CC(C
N[C@@H](C)C(=O)O L-alanine
not a smiles
OCC1OC(O)C(O)C(O)C1O
`;

// smiles in the third column, quoted fields with commas, escaped quotes and a line break, CRLF.
const CSV =
  'ID,Name,SMILES,pIC50,note\r\n' +
  'm1,"ethanol, absolute",CCO,4.5,plain\r\n' +
  'm2,"benzene ""the ring""",c1ccccc1,5,"multi\r\nline"\r\n' +
  'm3,broken,C1CC(,6.1,x\r\n' +
  'm4,"",CC(=O)O,not-a-number,y\r\n' +
  '\r\n' +
  'm1,duplicate id,CCC,7,z\r\n';

const molblock = (title: string, atoms: string[], bonds: string[], extra = '') =>
  `${title}\n  test\n\n${String(atoms.length).padStart(3)}${String(bonds.length).padStart(3)}  0  0  0  0  0  0  0  0999 V2000\n${atoms
    .map((a) => `    0.0000    0.0000    0.0000 ${a.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`)
    .join('\n')}${atoms.length ? '\n' : ''}${bonds.map((b) => b).join('\n')}${bonds.length ? '\n' : ''}M  END\n${extra}`;

const SDF =
  molblock('ethanol', ['C', 'C', 'O'], ['  1  2  1  0', '  2  3  1  0'], '> <SMILES>\nCCO\n\n> <logP>\n-0.31\n\n') +
  '$$$$\n' +
  molblock('broken', ['C', 'C'], ['  1  5  1  0']) + // bond to an atom that is not there
  '$$$$\n' +
  molblock('', ['O'], [], '> <ID>\nwater-1\n\n> <name>\nwater\n\n') +
  '$$$$\n' +
  'truncated\n  x\n\n  3  2  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\n$$$$\n' +
  molblock('methane', ['C'], []); // last record without $$$$

for (const backend of BACKENDS) {
  describe(`artifact upload [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    it('mode=molecules .smi: one record per molecule, names kept, bad lines in warnings, readable by jobs', async () => {
      const u = await h.user();
      const r = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'set.smi', content: SMI } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const port = r.body.manifest.ports.molecules;
      assert.equal(port.kind, 'molecules');
      assert.equal(port.format, 'smiles');
      assert.equal(port.record_count, 5);
      // ids are the entry positions (header and comment are not entries), so gaps show where entries were dropped
      assert.deepEqual(
        port.records.map((x: any) => [x.id, x.name]),
        [
          ['1', 'ethanol'],
          ['2', 'benzene ring'],
          ['3', 'aspirin (acetylsalicylic acid)'],
          ['5', 'L-alanine'],
          ['7', undefined],
        ],
      );
      assert.deepEqual(
        r.body.manifest.warnings.map((w: any) => [w.line, w.entry, w.type]),
        [
          [6, 4, 'unparseable'],
          [8, 6, 'unparseable'],
        ],
      );
      assert.match(r.body.manifest.warnings[0].msg, /unclosed '\('/);
      assert.equal(r.body.manifest.warnings[0].input, 'C1CC(C');
      assert.equal(r.body.manifest.job_type, 'upload');
      assert.equal(r.body.content_type, 'application/zip');
      assert.ok(r.body.size_bytes > 0);

      // The stored zip holds manifest.json and one member per record.
      const zip = await readZip((await download(h, { token: u.token }, r.body.id)).body);
      const manifest = JSON.parse(zip.get('manifest.json')!.toString());
      assert.deepEqual(manifest.ports.molecules.records, port.records);
      for (const rec of port.records) assert.ok(zip.has(rec.files.primary), rec.files.primary);
      assert.equal(zip.get(port.records[2].files.primary)!.toString(), 'CC(=O)Oc1ccccc1C(=O)O\taspirin (acetylsalicylic acid)\n');

      // What a job reads.
      assert.equal(await h.services.artifacts.countMolecules(u.userId, r.body.id), 5);
      const mols = [];
      for await (const m of h.services.artifacts.readMolecules(u.userId, r.body.id)) mols.push(m);
      assert.deepEqual(mols, [
        { id: '1', smiles: 'CCO', name: 'ethanol' },
        { id: '2', smiles: 'c1ccccc1', name: 'benzene ring' },
        { id: '3', smiles: 'CC(=O)Oc1ccccc1C(=O)O', name: 'aspirin (acetylsalicylic acid)' },
        { id: '5', smiles: 'N[C@@H](C)C(=O)O', name: 'L-alanine' },
        { id: '7', smiles: 'OCC1OC(O)C(O)C(O)C1O' },
      ]);
    });

    it('mode=molecules .csv: smiles column in any position and case, quoted fields, id and name columns, numeric columns as metrics', async () => {
      const u = await h.user();
      const r = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'assay.CSV', content: CSV, type: 'text/csv' } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const recs = r.body.manifest.ports.molecules.records;
      assert.deepEqual(
        recs.map((x: any) => [x.id, x.name, x.metrics]),
        [
          ['m1', 'ethanol, absolute', { pIC50: 4.5 }],
          ['m2', 'benzene "the ring"', { pIC50: 5 }],
          ['m4', undefined, undefined],
        ],
      );
      const w = r.body.manifest.warnings;
      assert.deepEqual(
        w.map((x: any) => [x.type, x.line, x.entry]),
        [
          ['unparseable', 5, 3],
          ['duplicate_id', 8, 5],
        ],
      );
      assert.match(w[0].msg, /column "SMILES"/);
      const mols = [];
      for await (const m of h.services.artifacts.readMolecules(u.userId, r.body.id, 'molecules')) mols.push(m);
      assert.deepEqual(
        mols.map((m) => [m.id, m.smiles, m.name]),
        [
          ['m1', 'CCO', 'ethanol, absolute'],
          ['m2', 'c1ccccc1', 'benzene "the ring"'],
          ['m4', 'CC(=O)O', undefined],
        ],
      );
    });

    it('mode=molecules .tsv and a semicolon CSV', async () => {
      const u = await h.user();
      const t = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'x.tsv', content: 'name\tSmiles\nwater\tO\nammonia\tN\n' } });
      assert.equal(t.status, 201, JSON.stringify(t.body));
      assert.deepEqual(
        t.body.manifest.ports.molecules.records.map((x: any) => x.name),
        ['water', 'ammonia'],
      );
      const s = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'x.csv', content: 'smiles;name\nO;water\n' } });
      assert.equal(s.status, 201, JSON.stringify(s.body));
      assert.equal(s.body.manifest.ports.molecules.records[0].name, 'water');
    });

    it('mode=molecules .csv without a smiles column: 422 naming the columns, nothing stored', async () => {
      const u = await h.user();
      const before = await storedObjects(h);
      const r = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'x.csv', content: 'id,structure,name\n1,CCO,ethanol\n' } });
      assert.equal(r.status, 422);
      assert.equal(r.body.type, '/api/v1/problems/http-422');
      assert.match(r.body.detail, /no "smiles" column/);
      assert.match(r.body.detail, /"id", "structure", "name"/);
      assert.deepEqual(r.body.errors[0].loc, ['body', 'file']);
      assert.equal(await countRows(h, u.userId), 0);
      assert.deepEqual(await storedObjects(h), before);
    });

    it('mode=molecules .sdf: one record per molblock, data fields, a broken record in warnings', async () => {
      const u = await h.user();
      const r = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'set.sdf', content: SDF } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const port = r.body.manifest.ports.molecules;
      assert.equal(port.format, 'sdf');
      assert.deepEqual(
        port.records.map((x: any) => [x.id, x.name, x.metrics]),
        [
          ['1', 'ethanol', { logP: -0.31 }],
          ['water-1', 'water', undefined],
          ['5', 'methane', undefined],
        ],
      );
      assert.deepEqual(
        r.body.manifest.warnings.map((w: any) => [w.entry, w.type]),
        [
          [2, 'unparseable'],
          [4, 'unparseable'],
        ],
      );
      assert.match(r.body.manifest.warnings[0].msg, /bond line 1 .* outside 1\.\.2/);
      assert.match(r.body.manifest.warnings[1].msg, /shorter/);
      const mols = [];
      for await (const m of h.services.artifacts.readMolecules(u.userId, r.body.id)) mols.push(m);
      assert.equal(mols.length, 3);
      const [first, second] = mols;
      assert.ok(first && second);
      assert.equal(first.smiles, 'CCO', 'the SMILES data field is used when present');
      assert.match(second.smiles, /V2000[\s\S]*M {2}END/, 'otherwise the molblock (RDKit reads both)');
      assert.equal(second.molblock, second.smiles);
      // The record member is a one-record SDF.
      const rec = await download(h, { token: u.token }, r.body.id, '?record=water-1');
      assert.equal(rec.status, 200);
      assert.equal(rec.headers.get('content-type'), 'chemical/x-mdl-sdfile');
      assert.match(rec.body.toString(), /^\n {2}test\n[\s\S]*M {2}END\n> <ID>\nwater-1\n[\s\S]*\$\$\$\$\n$/);
    });

    it('mode=molecules with nothing usable, or an unknown format: 422 with a precise detail', async () => {
      const u = await h.user();
      const bad = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'x.smi', content: 'C1CC\nC((C\n' } });
      assert.equal(bad.status, 422);
      assert.match(bad.body.detail, /no usable molecules: all 2 entries are unparseable \(first, line 1: not a SMILES: ring bond 1 not closed\)/);
      const unknown = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'x.dat', content: 'CCO\n' } });
      assert.equal(unknown.status, 422);
      assert.match(unknown.body.detail, /cannot tell the molecule file format from the name "x.dat"/);
      const viaField = await upload(h, { token: u.token }, { mode: 'molecules', fields: { data_format: 'smi' }, file: { name: 'x.dat', content: 'CCO\n' } });
      assert.equal(viaField.status, 201);
      const wrongKind = await upload(h, { token: u.token }, { mode: 'molecules', fields: { data_kind: 'proteins' }, file: { name: 'x.smi', content: 'CCO\n' } });
      assert.equal(wrongKind.status, 422);
      assert.deepEqual(wrongKind.body.errors[0].loc, ['body', 'data_kind']);
      assert.equal(await countRows(h, u.userId), 1);
    });

    it('mode=file: a one-record artifact holding the bytes as sent, with data_kind/data_format', async () => {
      const u = await h.user();
      const content = crypto.randomBytes(70_000);
      const r = await upload(
        h,
        { token: u.token },
        { mode: 'file', fields: { data_kind: 'structure', data_format: 'pdb' }, file: { name: '../../etc/1abc.pdb', content, type: 'chemical/x-pdb' } },
      );
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.deepEqual(r.body.manifest.ports, {
        file: {
          format: 'pdb',
          kind: 'structure',
          record_count: 1,
          records: [{ id: '1abc.pdb', files: { primary: 'file/1abc.pdb' }, content_types: { primary: 'chemical/x-pdb' } }],
        },
      });
      const rec = await download(h, { token: u.token }, r.body.id, '?record=1abc.pdb');
      assert.equal(rec.status, 200);
      assert.equal(rec.headers.get('content-type'), 'chemical/x-pdb');
      assert.match(rec.headers.get('content-disposition')!, /filename="1abc.pdb"/);
      assert.ok(rec.body.equals(content));
      const zip = await readZip((await download(h, { token: u.token }, r.body.id)).body);
      assert.ok(zip.get('file/1abc.pdb')!.equals(content));
      // Defaults: kind file, format from the extension.
      const d = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'notes.txt', content: 'hello' } });
      assert.equal(d.body.manifest.ports.file.kind, 'file');
      assert.equal(d.body.manifest.ports.file.format, 'txt');
    });

    it('mode=archive: a zip whose manifest checks out is stored byte for byte', async () => {
      const u = await h.user();
      const zip = await makeZip({
        'manifest.json': JSON.stringify({
          job_type: 'docking',
          manifest_version: 1,
          ports: {
            poses: { format: 'sdf', kind: 'molecules', records: [{ id: 'p1', files: { primary: 'poses/p1.sdf' }, metrics: { score: -7.5 } }] },
            report: { format: 'json', kind: 'report', records: [{ id: 'r', files: { primary: 'r.json' } }] },
          },
          warnings: ['w'],
        }),
        'poses/p1.sdf': molblock('p1', ['C', 'O'], ['  1  2  1  0']) + '$$$$\n',
        'r.json': '{"ok":true}',
      });
      const r = await upload(h, { token: u.token }, { mode: 'archive', file: { name: 'result.zip', content: zip, type: 'application/zip' } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(r.body.manifest.job_type, 'docking');
      assert.equal(r.body.manifest.ports.poses.record_count, 1, 'record_count filled in');
      assert.deepEqual(r.body.manifest.ports.poses.records[0].metrics, { score: -7.5 });
      assert.equal(r.body.size_bytes, zip.length);
      const whole = await download(h, { token: u.token }, r.body.id);
      assert.ok(whole.body.equals(zip), 'stored as sent');
      const rep = await download(h, { token: u.token }, r.body.id, '?record=r');
      assert.equal(rep.headers.get('content-type'), 'application/json');
      assert.deepEqual(JSON.parse(rep.body.toString()), { ok: true });
      assert.deepEqual(await h.services.artifacts.readPrimaryJson(u.userId, r.body.id, 'report', 'r'), { ok: true });
      // A molecule port of an uploaded archive (no bundle) is read record by record.
      const mols = [];
      for await (const m of h.services.artifacts.readMolecules(u.userId, r.body.id, 'poses')) mols.push(m);
      assert.deepEqual(
        mols.map((m) => [m.id, m.name]),
        [['p1', 'p1']],
      );
    });

    it('mode=archive refuses a non-zip, a zip without manifest, bad JSON and a manifest naming missing members (422, nothing stored)', async () => {
      const u = await h.user();
      const before = await storedObjects(h);
      const notZip = await upload(h, { token: u.token }, { mode: 'archive', file: { name: 'data.zip', content: 'this is plain text, not a zip archive' } });
      assert.equal(notZip.status, 422);
      assert.match(notZip.body.detail, /^body\.file: "data\.zip" is not a zip archive \(/);
      assert.deepEqual(notZip.body.errors[0].loc, ['body', 'file']);

      const noManifest = await upload(h, { token: u.token }, { mode: 'archive', file: { name: 'a.zip', content: await makeZip({ 'a.txt': 'x' }) } });
      assert.equal(noManifest.status, 422);
      assert.match(noManifest.body.detail, /no manifest\.json at its root \(its 1 entries include "a\.txt"\)/);

      const badJson = await upload(h, { token: u.token }, { mode: 'archive', file: { name: 'a.zip', content: await makeZip({ 'manifest.json': '{"ports": ' }) } });
      assert.equal(badJson.status, 422);
      assert.match(badJson.body.detail, /manifest\.json is not valid JSON/);
      assert.deepEqual(badJson.body.errors[0].loc, ['body', 'file', 'manifest.json']);

      const missing = await upload(
        h,
        { token: u.token },
        {
          mode: 'archive',
          file: {
            name: 'a.zip',
            content: await makeZip({
              'manifest.json': JSON.stringify({
                ports: {
                  out: {
                    format: 'json',
                    kind: 'x',
                    records: [
                      { id: 'a', files: { primary: 'a.json' } },
                      { id: 'a', files: { primary: 'gone.json' } },
                    ],
                  },
                },
              }),
              'a.json': '{}',
            }),
          },
        },
      );
      assert.equal(missing.status, 422);
      assert.deepEqual(
        missing.body.errors.map((e: any) => [e.loc, e.msg]),
        [
          [['body', 'file', 'manifest.json', 'ports', 'out', 'records', 1, 'id'], 'record id "a" repeats within port "out"'],
          [['body', 'file', 'manifest.json', 'ports', 'out', 'records', 1, 'files', 'primary'], 'member "gone.json" is not in the archive'],
        ],
      );
      assert.match(missing.body.detail, /^manifest\.json at ports\.out\.records\.1\.id: record id "a" repeats/);

      const noPrimary = await upload(
        h,
        { token: u.token },
        {
          mode: 'archive',
          file: {
            name: 'a.zip',
            content: await makeZip({ 'manifest.json': JSON.stringify({ manifest_version: 2, ports: { out: { kind: 'x', records: [{ id: 'a', files: {} }] } } }) }),
          },
        },
      );
      assert.equal(noPrimary.status, 422);
      assert.deepEqual(
        noPrimary.body.errors.map((e: any) => e.loc.slice(3).join('.')),
        ['manifest_version', 'ports.out.format', 'ports.out.records.0.files.primary'],
      );
      assert.equal(await countRows(h, u.userId), 0);
      assert.deepEqual(await storedObjects(h), before);
    });

    it('checks the form: file and mode required, mode values, unknown fields, multipart only', async () => {
      const u = await h.user();
      const none = await upload(h, { token: u.token }, {});
      assert.equal(none.status, 422);
      assert.deepEqual(
        none.body.errors.map((e: any) => [e.type, e.loc]),
        [
          ['missing', ['body', 'file']],
          ['missing', ['body', 'mode']],
        ],
      );
      const badMode = await upload(h, { token: u.token }, { mode: 'zip', file: { name: 'a', content: 'x' } });
      assert.equal(badMode.status, 422);
      assert.deepEqual(badMode.body.errors[0], { type: 'enum', loc: ['body', 'mode'], msg: 'Input should be "file", "molecules" or "archive"', input: 'zip' });
      const extra = await upload(h, { token: u.token }, { mode: 'file', fields: { colour: 'blue' }, file: { name: 'a', content: 'x' } });
      assert.equal(extra.status, 422);
      assert.deepEqual(extra.body.errors[0].loc, ['body', 'colour']);
      const json = await h.req('POST', '/api/v1/artifacts', { token: u.token, body: { mode: 'file' } });
      assert.equal(json.status, 415);
      assert.match(json.body.detail, /multipart\/form-data/);
      assert.equal(await countRows(h, u.userId), 0);
      // Nothing is left in the upload scratch space.
      const scratch = h.services.artifacts.scratchDir;
      assert.deepEqual(fs.existsSync(scratch) ? fs.readdirSync(scratch) : [], []);
    });

    it('needs the write scope and, for API keys, an Idempotency-Key', async () => {
      const u = await h.user();
      const ro = await h.key(u.token, { scopes: ['read'] });
      const r = await upload(h, { key: ro.secret }, { mode: 'file', file: { name: 'a.txt', content: 'x' }, idempotencyKey: 'k1' });
      assert.equal(r.status, 403);
      assert.equal(r.body.type, '/api/v1/problems/insufficient-scope');
      const rw = await h.key(u.token);
      const noKey = await upload(h, { key: rw.secret }, { mode: 'file', file: { name: 'a.txt', content: 'x' } });
      assert.equal(noKey.status, 400);
      assert.equal(noKey.body.type, '/api/v1/problems/missing-idempotency-key');
      const ok = await upload(h, { key: rw.secret }, { mode: 'file', file: { name: 'a.txt', content: 'x' }, idempotencyKey: 'k2' });
      assert.equal(ok.status, 201);
      assert.equal(await countRows(h, u.userId), 1);
    });
  });
}
