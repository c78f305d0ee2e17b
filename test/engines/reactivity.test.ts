// The `reactivity` job type through the API (docs/engines.md, "Reactivity"): every figure equals
// xtb run here by hand on the returned molblock with the same flags (--vomega, --vipea,
// --vfukui), parsed here on its own, to the printed precision; the Fukui indices mean what
// their names say (checked against separate single points of the neutral, the cation and the
// anion: f+ = q(N) - q(N+1), f- = q(N-1) - q(N)); each kind sums to about 1; acrolein's beta
// carbon has the largest f+ of its carbons (a Michael acceptor) and its oxygen the largest f-;
// a method other than gfn2 is a 422; the depictions port draws each structure's top sites.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { after, before, describe, it } from 'node:test';
import { readFukui, readVomega, SITE_COLOURS, topSites } from '../../src/engines/qm/reactivity.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const exec = promisify(execFile);

interface Fukui {
  atom_index: number;
  f_plus: number;
  f_minus: number;
  f_zero: number;
}
interface Item {
  index: number;
  error: string | null;
  detail: string | null;
  molblock: string;
  homo_ev: number;
  lumo_ev: number;
  ip_ev: number;
  ea_ev: number;
  electrophilicity_ev: number;
  fukui: Fukui[];
}

/** xtb run by hand on `molblock` in a directory of its own: its standard output and its `charges` file. */
async function xtb(molblock: string, args: string[]): Promise<{ out: string; charges: number[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-reactivity-'));
  try {
    fs.writeFileSync(path.join(dir, 'm.sdf'), `${molblock.trimEnd()}\n$$$$\n`);
    const { stdout } = await exec('xtb', ['m.sdf', '--gfn', '2', ...args, '-P', '1'], { cwd: dir, env: { ...process.env, OMP_NUM_THREADS: '1' } });
    const charges = fs.existsSync(path.join(dir, 'charges')) ? fs.readFileSync(path.join(dir, 'charges'), 'utf8').trim().split(/\s+/).map(Number) : [];
    return { out: stdout, charges };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The number after `label` on its first line, as printed. */
const after_ = (out: string, label: string): number => {
  const line = out.split('\n').find((l) => l.includes(label));
  assert.ok(line, `xtb printed "${label}"`);
  return Number(
    line
      .slice(line.indexOf(label) + label.length)
      .trim()
      .split(/\s+/)[0],
  );
};
/** The eV column of the first orbital line marked `mark` ("(HOMO)"): the neutral's table comes first. */
const orbital = (out: string, mark: string): number => {
  const line = out.split('\n').find((l) => l.trimEnd().endsWith(mark));
  assert.ok(line, `xtb printed a ${mark} line`);
  return Number(line.trim().split(/\s+/).at(-2));
};
/** The rows under "f(+) f(-) f(0)": the three printed columns per atom. */
const fukuiRows = (out: string): [number, number, number][] => {
  const lines = out.split('\n');
  const rows: [number, number, number][] = [];
  for (const l of lines.slice(lines.findIndex((x) => x.includes('f(+)')) + 1)) {
    const t = l.trim().split(/\s+/);
    if (t.length !== 4 || !/^\d+[A-Za-z]+$/.test(t[0]!)) break;
    rows.push([Number(t[1]), Number(t[2]), Number(t[3])]);
  }
  return rows;
};
const symbolsOf = (molblock: string) => {
  const lines = molblock.split('\n');
  return lines.slice(4, 4 + Number(lines[3]!.slice(0, 3))).map((l) => l.slice(31, 34).trim());
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Checks an item against xtb run by hand on its molblock with `flags` (the solvent), and the
 * meaning of its Fukui indices against single points of the cation and the anion.
 */
async function equalsXtbByHand(it: Item, flags: string[]): Promise<void> {
  assert.equal(it.error, null, it.detail ?? '');
  const omega = (await xtb(it.molblock, [...flags, '--chrg', '0', '--uhf', '0', '--vomega', '--norestart'])).out;
  assert.equal(it.homo_ev, orbital(omega, '(HOMO)'), 'HOMO as printed');
  assert.equal(it.lumo_ev, orbital(omega, '(LUMO)'), 'LUMO as printed');
  assert.equal(it.ip_ev, after_(omega, 'delta SCC IP (eV):'), 'IP as printed');
  assert.equal(it.ea_ev, after_(omega, 'delta SCC EA (eV):'), 'EA as printed');
  assert.equal(it.electrophilicity_ev, after_(omega, 'Global electrophilicity index (eV):'), 'electrophilicity as printed');
  // --vipea alone prints the same vertical IP and EA.
  const ipea = (await xtb(it.molblock, [...flags, '--chrg', '0', '--uhf', '0', '--vipea', '--norestart'])).out;
  assert.equal(it.ip_ev, after_(ipea, 'delta SCC IP (eV):'), '--vipea IP');
  assert.equal(it.ea_ev, after_(ipea, 'delta SCC EA (eV):'), '--vipea EA');
  // The index is (IP+EA)^2 / (8 (IP-EA)) of the printed IP and EA, to the printed rounding.
  const w = (it.ip_ev + it.ea_ev) ** 2 / (8 * (it.ip_ev - it.ea_ev));
  assert.ok(Math.abs(it.electrophilicity_ev - w) < 6e-4, `omega ${it.electrophilicity_ev} vs ${w}`);
  assert.ok(it.homo_ev < it.lumo_ev && it.ip_ev > it.ea_ev);

  const fukuiOut = (await xtb(it.molblock, [...flags, '--chrg', '0', '--uhf', '0', '--vfukui', '--norestart'])).out;
  const rows = fukuiRows(fukuiOut);
  const symbols = symbolsOf(it.molblock);
  assert.equal(rows.length, symbols.length);
  assert.deepEqual(
    it.fukui.map((f) => f.atom_index),
    symbols.map((_, i) => i),
  );
  // Each value is one of the printed columns, as printed: f0 the third; f+ and f- the first two,
  // which xtb 6.5 heads under each other's name (docs/engines.md, "Reactivity").
  const swapped = /xtb version 6\.5\./.test(fukuiOut);
  it.fukui.forEach((f, i) => {
    const [a, b, c] = rows[i]!;
    assert.deepEqual([f.f_plus, f.f_minus, f.f_zero], swapped ? [b, a, c] : [a, b, c], `atom ${i}`);
  });
  // What they are: charge changes between separate single points at this geometry.
  const q = async (charge: number) => (await xtb(it.molblock, [...flags, '--chrg', String(charge), '--uhf', String(charge === 0 ? 0 : 1), '--norestart'])).charges;
  const [qN, qCation, qAnion] = [await q(0), await q(1), await q(-1)];
  it.fukui.forEach((f, i) => {
    assert.ok(Math.abs(f.f_plus - (qN[i]! - qAnion[i]!)) < 1.5e-3, `atom ${i}: f+ ${f.f_plus} vs q(N) - q(N+1) ${qN[i]! - qAnion[i]!}`);
    assert.ok(Math.abs(f.f_minus - (qCation[i]! - qN[i]!)) < 1.5e-3, `atom ${i}: f- ${f.f_minus} vs q(N-1) - q(N) ${qCation[i]! - qN[i]!}`);
    assert.ok(Math.abs(f.f_zero - (qCation[i]! - qAnion[i]!) / 2) < 1.5e-3, `atom ${i}: f0`);
  });
  // One electron added or removed: each kind sums to about 1.
  for (const key of ['f_plus', 'f_minus', 'f_zero'] as const) {
    const total = sum(it.fukui.map((f) => f[key]));
    assert.ok(Math.abs(total - 1) < 0.02, `${key} sums to ${total}`);
  }
}

describe('reactivity: reading xtb', () => {
  const VOMEGA = [
    '        11        2.0000           -0.4071896             -11.0802 (HOMO)',
    '        12                         -0.3027324              -8.2378 (LUMO)',
    'delta SCC IP (eV):    9.8971',
    'delta SCC EA (eV):   -0.3261',
    'Global electrophilicity index (eV):    1.1200',
    '        12        1.0000           -0.0300262              -0.8171 (HOMO)',
    '        13                          0.0833943               2.2693 (LUMO)',
  ].join('\n');
  it('takes the first (the neutral’s) HOMO and LUMO, the IP, EA and index as printed', () => {
    assert.deepEqual(readVomega(VOMEGA), { homoEv: -11.0802, lumoEv: -8.2378, ipEv: 9.8971, eaEv: -0.3261, electrophilicityEv: 1.12 });
  });
  const table = (version: string, rows: string[]) => [`   * xtb version ${version} (unknown)`, '     #        f(+)     f(-)     f(0)', ...rows, '', 'next'].join('\n');
  const ROWS = ['     1C       0.039    0.102    0.071', '     2O       0.961    0.898    0.929'];
  it('reads xtb 6.5’s "f(+)" column as f- and its "f(-)" as f+; other versions as headed, negated when they sum to -1', () => {
    assert.deepEqual(readFukui(table('6.5.1', ROWS), ['C', 'O']), [
      { atom_index: 0, f_plus: 0.102, f_minus: 0.039, f_zero: 0.071 },
      { atom_index: 1, f_plus: 0.898, f_minus: 0.961, f_zero: 0.929 },
    ]);
    assert.deepEqual(readFukui(table('6.7.1', ROWS), ['C', 'O'])![0], { atom_index: 0, f_plus: 0.039, f_minus: 0.102, f_zero: 0.071 });
    const negative = ROWS.map((r) => r.replace(/ 0\./g, '-0.'));
    assert.deepEqual(readFukui(table('6.4.1', negative), ['C', 'O'])![1], { atom_index: 1, f_plus: 0.961, f_minus: 0.898, f_zero: 0.929 });
    assert.equal(readFukui(table('6.5.1', ROWS), ['C', 'N']), null, 'another molecule’s table');
    assert.equal(readFukui(table('6.5.1', ROWS.slice(0, 1)), ['C', 'O']), null, 'a row missing');
  });
  it('top sites: the two heavy atoms with the largest f+ and f-, never a hydrogen', () => {
    const f = [0.1, 0.06, 0.07, 0.25, 0.3].map((x, i) => ({ atom_index: i, f_plus: x, f_minus: 0.5 - x, f_zero: 0 }));
    assert.deepEqual(topSites(f, ['C', 'C', 'C', 'O', 'H']), { nucleophilic: [3, 0], electrophilic: [1, 2] });
    // Pyridine's meta carbons tie at the second place: both are sites.
    const pyridine = [0.089, 0.051, 0.042, 0.172, 0.042, 0.051, 0.115].map((x, i) => ({ atom_index: i, f_plus: x, f_minus: 0, f_zero: 0 }));
    assert.deepEqual(topSites(pyridine, ['C', 'C', 'C', 'N', 'C', 'C', 'H']).nucleophilic, [3, 0]);
    assert.deepEqual(topSites(pyridine, ['C', 'C', 'C', 'N', 'C', 'C', 'H']).electrophilic, [0, 1, 2, 3, 4, 5], 'all tied at 0');
    const meta = pyridine.map((x, i) => ({ ...x, f_minus: [0.029, 0.046, 0.012, 0.257, 0.012, 0.046, 0.134][i]! }));
    assert.deepEqual(topSites(meta, ['C', 'C', 'C', 'N', 'C', 'C', 'H']).electrophilic, [3, 1, 5]);
  });
});

for (const backend of onlyOn('postgres')) {
  describe(`reactivity [${backend.name}]`, { timeout: 300_000 }, () => {
    let h: Harness;
    let token = '';
    let doc: any;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 5);
      token = u.token;
      doc = (await h.req('GET', '/openapi.json')).body;
    });
    after(() => h?.close());

    const job = async (payload: Record<string, unknown>) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'reactivity', job_type: 'reactivity', payload } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 120_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const res = await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token });
      assert.equal(res.status, 200, res.text);
      return { result: res.body as any, artifact: done.result_artifact_id! };
    };

    it('acrolein and formaldehyde (gas phase): every figure is xtb’s by hand; the beta carbon leads f+ among the carbons, the oxygen f-; the sites drawn', async () => {
      const est = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'reactivity', payload: { molecules: ['C=CC=O', 'C=O'] } } });
      assert.equal(est.status, 200, est.text);
      assert.ok(est.body.expected_runtime_sec > 0);

      const { result, artifact } = await job({ molecules: ['C=CC=O', 'C=O'] });
      assert.equal(result.job_type, 'reactivity');
      assert.equal(result.method, 'gfn2');
      assert.equal(result.solvent, null);
      assert.match(result.xtb_version, /^\d+\.\d+\.\d+$/);
      const validate = new Ajv({ strict: false, allErrors: true }).compile<any>({ ...doc.components.schemas.ReactivityResult, $id: undefined });
      assert.ok(validate(result), JSON.stringify(validate.errors?.slice(0, 5)));
      const [acrolein, formaldehyde] = result.items as Item[];
      await equalsXtbByHand(acrolein!, []);
      await equalsXtbByHand(formaldehyde!, []);
      assert.deepEqual(symbolsOf(acrolein!.molblock), ['C', 'C', 'C', 'O', 'H', 'H', 'H', 'H'], 'the input atom order: C=CC=O, then the hydrogens');

      // Acrolein C0=C1-C2=O3: a nucleophile adds at the beta carbon (a Michael acceptor), so f+
      // is largest there among the carbons (above the carbonyl carbon C2 and the alpha carbon
      // C1); an electrophile (a proton, a Lewis acid) takes the carbonyl oxygen's lone pair, so
      // f- is largest on O3 of all atoms. GFN2's charges put the largest f+ of all on O3.
      const f = acrolein!.fukui;
      assert.ok(f[0]!.f_plus > f[2]!.f_plus && f[0]!.f_plus > f[1]!.f_plus, `beta carbon f+ ${f[0]!.f_plus} vs C1 ${f[1]!.f_plus}, C2 ${f[2]!.f_plus}`);
      assert.equal([...f].sort((a, b) => b.f_minus - a.f_minus)[0]!.atom_index, 3, 'largest f- on the oxygen');
      assert.equal([...formaldehyde!.fukui].sort((a, b) => b.f_minus - a.f_minus)[0]!.atom_index, 1, "formaldehyde's largest f- on its oxygen");

      // The depictions: one SVG per structure, the sites in the two colours, the legend saying which is which.
      assert.ok(result.ports.depictions);
      const svg = await h.req('GET', `/api/v1/artifacts/${artifact}/download?port=depictions&record=0`, { token });
      assert.equal(svg.status, 200);
      assert.match(svg.headers.get('content-type') ?? '', /image\/svg\+xml/);
      assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.ok(svg.text.includes(`fill:${SITE_COLOURS.nucleophilic}`) && svg.text.includes(`fill:${SITE_COLOURS.electrophilic}`), 'both highlight colours drawn');
      assert.ok(svg.text.includes(`fill="${SITE_COLOURS.nucleophilic}"`) && svg.text.includes(`fill="${SITE_COLOURS.electrophilic}"`), 'both legend swatches');
      const sites = topSites(f, symbolsOf(acrolein!.molblock));
      assert.ok(sites.nucleophilic.includes(0), `the beta carbon is a drawn nucleophilic site: ${JSON.stringify(sites)}`);
      assert.match(svg.text, new RegExp(`nucleophilic attack, largest f\\+: ${sites.nucleophilic.map((i) => `[A-Z][a-z]?${i} \\d\\.\\d{3}`).join(', ')}`));
      assert.match(svg.text, /electrophilic attack, largest f−: O3 0\.\d{3}/);
      assert.match(svg.text, />C=CC=O</, 'titled with its SMILES');
      assert.doesNotMatch(svg.text, /<script|href=/i);
      const second = await h.req('GET', `/api/v1/artifacts/${artifact}/download?port=depictions&record=1`, { token });
      assert.equal(second.status, 200);
      assert.match(second.text, /<svg/);
      const table = await h.req('GET', `/api/v1/artifacts/${artifact}/download?port=table`, { token });
      assert.match(table.text.split('\n')[0]!, /^index,id,name,smiles,error,homo_ev,lumo_ev,ip_ev,ea_ev,electrophilicity_ev,nucleophilic_attack_sites,electrophilic_attack_sites$/);
    });

    it('in water: the optimisation and the properties in ALPB water, equal to xtb’s by hand with --alpb water', async () => {
      const { result } = await job({ molecules: ['C=O'], method: 'gfn2', solvent: 'water' });
      assert.equal(result.solvent, 'water');
      await equalsXtbByHand(result.items[0], ['--alpb', 'water']);
    });

    it('a method other than gfn2, or an unknown solvent, is a 422 from the schema', async () => {
      for (const [payload, field] of [
        [{ molecules: ['C=O'], method: 'gfn1' }, 'method'],
        [{ molecules: ['C=O'], method: 'pm7' }, 'method'],
        [{ molecules: ['C=O'], solvent: 'lava' }, 'solvent'],
      ] as const) {
        for (const route of ['estimate', 'submit']) {
          const body = { ...(route === 'submit' ? { job_name: 'r' } : {}), job_type: 'reactivity', payload };
          const r = await h.req('POST', `/api/v1/jobs/${route}`, { token, body });
          assert.equal(r.status, 422, r.text);
          assert.deepEqual(r.body.errors[0].loc.slice(0, 3), ['body', 'payload', field], r.text);
        }
      }
    });
  });
}
