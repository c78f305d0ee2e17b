// The `scan` job type through the API (docs/engines.md, "Frequencies and scans"): n-butane's
// C-C-C-C profile with GFN2 (minima at 180 and +-65 degrees, the syn barrier highest); every
// point's molblock has the dihedral at its angle, measured on the atoms the payload named
// (hydrogens counted after the heavy atoms; a molblock's own order kept); a dihedral over
// atoms that are not bonded in sequence is a 422 for inline structures and an item error in
// an uploaded set; MOPAC methods and bad ranges are 422s; the energy profile plot.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { readMolblockAtoms } from '../../src/engines/molblock.js';
import { BACKENDS, onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

type Vec3 = readonly [number, number, number];
interface Point {
  angle_deg: number;
  energy_hartree: number;
  relative_kcal: number;
  molblock: string;
}
interface Item {
  index: number;
  error: string | null;
  detail: string | null;
  points?: Point[];
}

/**
 * The dihedral i-j-k-l in degrees, measured here independently of the job's code: IUPAC sign
 * (positive when the front bond turns clockwise onto the back one, looking from j to k), as xtb's
 * constraint takes it: atan2(|b1| b0.(b1 x b2), (b0 x b1).(b1 x b2)) with b0 = j-i, b1 = k-j, b2 = l-k.
 */
function dihedral(c: readonly Vec3[], [i, j, k, l]: readonly number[]): number {
  const sub = (a: Vec3, b: Vec3) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]] as Vec3;
  const cross = (a: Vec3, b: Vec3) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]] as Vec3;
  const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const b0 = sub(c[j!]!, c[i!]!);
  const b1 = sub(c[k!]!, c[j!]!);
  const b2 = sub(c[l!]!, c[k!]!);
  const n2 = cross(b1, b2);
  return (Math.atan2(Math.hypot(...b1) * dot(b0, n2), dot(cross(b0, b1), n2)) * 180) / Math.PI;
}

/** The difference of two angles in degrees, in [0, 180]. */
const angleGap = (a: number, b: number) => Math.abs(((((a - b + 180) % 360) + 360) % 360) - 180);

/** Every point: the dihedral of its molblock at its angle (within 1 degree), and relative_kcal from the lowest. */
function checkPoints(points: Point[], d: number[], angles: number[]): void {
  assert.deepEqual(
    points.map((p) => p.angle_deg),
    angles,
  );
  const lowest = Math.min(...points.map((p) => p.energy_hartree));
  for (const p of points) {
    const measured = dihedral(readMolblockAtoms(p.molblock).coords, d);
    assert.ok(angleGap(measured, p.angle_deg) < 1, `point at ${p.angle_deg}: the molblock's dihedral is ${measured.toFixed(2)}`);
    assert.ok(Math.abs(p.relative_kcal - (p.energy_hartree - lowest) * 627.5094740631) < 1e-3);
  }
  assert.equal(Math.min(...points.map((p) => p.relative_kcal)), 0);
}

async function submit(h: Harness, token: string, payload: Record<string, unknown>) {
  const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'scan', job_type: 'scan', payload } });
  assert.equal(r.status, 200, r.text);
  const done = await h.waitForJob(token, r.body.process_id, undefined, 300_000);
  assert.equal(done.status, 'completed', done.message ?? '');
  const res = await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token });
  assert.equal(res.status, 200, res.text);
  return { items: res.body.items as Item[], artifact: done.result_artifact_id! };
}

/** Butane's 3D molblock from Open Babel with its atoms permuted: new atom k is old atom order[k]. */
function permutedButane(order: number[]): string {
  const mb = execFileSync('obabel', ['-:CCCC', '-h', '--gen3d', '-omol'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const lines = mb.split('\n');
  const n = Number(lines[3]!.slice(0, 3));
  const m = Number(lines[3]!.slice(3, 6));
  const atoms = lines.slice(4, 4 + n);
  const where = new Map(order.map((old, k) => [old, k]));
  const bonds = lines.slice(4 + n, 4 + n + m).map((l) => {
    const a = where.get(Number(l.slice(0, 3)) - 1)! + 1;
    const b = where.get(Number(l.slice(3, 6)) - 1)! + 1;
    return `${String(a).padStart(3)}${String(b).padStart(3)}${l.slice(6)}`;
  });
  return [...lines.slice(0, 4), ...order.map((old) => atoms[old]!), ...bonds, 'M  END', ''].join('\n');
}

for (const backend of onlyOn('postgres')) {
  describe(`scan (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(async () => h?.close());

    it('a dihedral through a hydrogen (numbered after the heavy atoms) and through a molblock in its own atom order', async () => {
      // Ethanol "CCO": C0 C1 O2, then C0's hydrogens 3-5, C1's 6-7, O2's 8: the H-O-C-C torsion is 8-2-1-0.
      const angles = [0, 60, 120, 180];
      const { items } = await submit(h, token, { molecules: ['CCO'], method: 'gfnff', dihedral: [8, 2, 1, 0], start_deg: 0, end_deg: 180, steps: 4 });
      assert.equal(items[0]!.error, null, items[0]!.detail ?? '');
      checkPoints(items[0]!.points!, [8, 2, 1, 0], angles);
      const symbols = readMolblockAtoms(items[0]!.points![0]!.molblock).symbols;
      assert.deepEqual(symbols, ['C', 'C', 'O', 'H', 'H', 'H', 'H', 'H', 'H']);

      // Butane with two hydrogens first: its carbons are atoms 2, 3, 4 and 5 of the input, and of every point.
      const order = [4, 13, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12];
      const mb = permutedButane(order);
      const symbolsIn = readMolblockAtoms(mb).symbols;
      assert.deepEqual(symbolsIn.slice(0, 6), ['H', 'H', 'C', 'C', 'C', 'C']);
      const r = await submit(h, token, { molecules: [mb], method: 'gfnff', dihedral: [2, 3, 4, 5], start_deg: -60, end_deg: 60, steps: 3 });
      assert.equal(r.items[0]!.error, null, r.items[0]!.detail ?? '');
      checkPoints(r.items[0]!.points!, [2, 3, 4, 5], [-60, 0, 60]);
      for (const p of r.items[0]!.points!) assert.deepEqual(readMolblockAtoms(p.molblock).symbols, symbolsIn, 'the input atom order is kept');
      // The syn point (0 degrees) lies above both gauche points.
      const [g1, syn, g2] = r.items[0]!.points!;
      assert.ok(syn!.relative_kcal > g1!.relative_kcal + 1 && syn!.relative_kcal > g2!.relative_kcal + 1, `${g1!.relative_kcal} ${syn!.relative_kcal} ${g2!.relative_kcal}`);
    });

    it('bad dihedrals and ranges: 422 at the field for inline structures; an item error in an uploaded set; never a 500', async () => {
      const est = (payload: Record<string, unknown>) =>
        h.req('POST', '/api/v1/jobs/estimate', {
          token,
          body: { job_type: 'scan', payload: { molecules: ['CCCC'], dihedral: [0, 1, 2, 3], start_deg: -180, end_deg: 180, steps: 13, ...payload } },
        });
      assert.equal((await est({})).status, 200);
      for (const [payload, loc, pattern] of [
        [{ dihedral: [0, 2, 1, 3] }, 'dihedral', /atoms 0 and 2 are not bonded/],
        [{ dihedral: [1, 0, 4, 2] }, 'dihedral', /atoms 0 and 4 are not bonded|atoms 4 and 2 are not bonded/],
        [{ dihedral: [0, 1, 2, 14] }, 'dihedral', /atom 14 does not exist: the structure has 14 atoms/],
        [{ dihedral: [0, 1, 1, 3] }, 'dihedral', /4 different atoms/],
        [{ dihedral: [0, 1, 2] }, 'dihedral', null],
        [{ dihedral: [0, 1, 2, -1] }, 'dihedral', null],
        [{ dihedral: undefined }, 'dihedral', null],
        [{ method: 'pm7' }, 'method', /xtb methods only/],
        [{ method: 'pm6' }, 'method', /xtb methods only/],
        [{ steps: 1 }, 'steps', null],
        [{ steps: 73 }, 'steps', null],
        [{ steps: 2.5 }, 'steps', null],
        [{ start_deg: 30, end_deg: 30 }, 'end_deg', /differ/],
        [{ start_deg: -360, end_deg: 180 }, 'end_deg', /at most 360/],
        [{ end_deg: 400 }, 'end_deg', null],
        [{ start_deg: 'x' }, 'start_deg', null],
        [{ molecules: ['CCCC', 'CC(C)C'] }, 'dihedral', /structure 1: atoms 2 and 3 are not bonded/],
      ] as const) {
        const r = await est(payload);
        assert.equal(r.status, 422, `${JSON.stringify(payload)}: ${r.text}`);
        const e = r.body.errors.find((x: { loc: string[] }) => x.loc.join('.').startsWith(`body.payload.${loc}`) || (loc === 'dihedral' && x.loc.join('.') === 'body.payload'));
        assert.ok(e, `${JSON.stringify(payload)}: ${JSON.stringify(r.body.errors)}`);
        if (pattern) assert.match(e.msg, pattern);
      }

      // An uploaded set is read when the job runs: its structure that has no such dihedral is an item error.
      const form = new FormData();
      form.append('mode', 'molecules');
      form.append('file', new Blob(['CCCC butane\nCC(C)C isobutane\nCC(C)(C)(C)(C)C pentavalent\n']), 'scan.smi');
      const up = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      const set = (await up.json()) as { id: string };
      assert.equal(up.status, 201, JSON.stringify(set));
      const { items } = await submit(h, token, { input_artifact_id: set.id, method: 'gfnff', dihedral: [0, 1, 2, 3], start_deg: 60, end_deg: 180, steps: 2 });
      assert.equal(items[0]!.error, null, items[0]!.detail ?? '');
      checkPoints(items[0]!.points!, [0, 1, 2, 3], [60, 180]);
      assert.equal(items[1]!.error, 'invalid_dihedral');
      assert.match(items[1]!.detail!, /atoms 2 and 3 are not bonded/);
      assert.equal(items[2]!.error, 'unparseable');
    });
  });
}

describe('scan: n-butane with GFN2 (pglite)', { timeout: 900_000 }, () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness(BACKENDS[0], {}, { workers: 1 });
    const u = await h.user();
    await h.credit(u.userId, 20);
    token = u.token;
  });
  after(async () => h?.close());

  it('minima at 180 and +-65 degrees, the syn barrier highest; each point at its angle; the profile plot', async () => {
    const angles = Array.from({ length: 37 }, (_, k) => -180 + 10 * k);
    const { items, artifact } = await submit(h, token, { molecules: ['CCCC'], method: 'gfn2', dihedral: [0, 1, 2, 3], start_deg: -180, end_deg: 180, steps: 37 });
    const points = items[0]!.points!;
    assert.equal(items[0]!.error, null, items[0]!.detail ?? '');
    checkPoints(points, [0, 1, 2, 3], angles);
    // -180 and 180 are the same conformation.
    assert.ok(Math.abs(points[0]!.energy_hartree - points[36]!.energy_hartree) < 2e-5);
    const ring = points.slice(0, 36);
    const minima = ring.filter((p, k) => p.energy_hartree < ring[(k + 35) % 36]!.energy_hartree && p.energy_hartree < ring[(k + 1) % 36]!.energy_hartree).map((p) => p.angle_deg);
    assert.equal(minima.length, 3, `minima at ${minima.join(', ')}`);
    for (const expected of [180, 65, -65])
      assert.ok(
        minima.some((a) => angleGap(a, expected) <= 10),
        `a minimum near ${expected}: ${minima.join(', ')}`,
      );
    const at = (a: number) => points.find((p) => p.angle_deg === a)!.relative_kcal;
    assert.ok(at(180) < 0.01, `anti ${at(180)}`);
    const gauche = Math.min(at(60), at(70));
    assert.ok(gauche > 0.3 && gauche < 1.5, `gauche ${gauche} kcal/mol`);
    const highest = points.reduce((a, b) => (b.relative_kcal > a.relative_kcal ? b : a));
    assert.equal(highest.angle_deg, 0, 'the syn conformation is the top of the profile');
    assert.ok(highest.relative_kcal > 3 && highest.relative_kcal < 8, `syn barrier ${highest.relative_kcal}`);

    const svg = await h.req('GET', `/api/v1/artifacts/${artifact}/download?port=plot&record=0`, { token });
    assert.equal(svg.status, 200);
    assert.match(svg.headers.get('content-type') ?? '', /image\/svg\+xml/);
    assert.match(svg.text, /Relative energy \(kcal\/mol\)/);
    assert.match(svg.text, /Dihedral angle 0-1-2-3/);
    assert.equal((svg.text.match(/<circle /g) ?? []).length, 37, 'a marker per point');
    const sdf = await h.req('GET', `/api/v1/artifacts/${artifact}/download?port=structures&record=0-37`, { token });
    assert.equal(sdf.status, 200);
    assert.match(sdf.text, />\s+<angle_deg>\n180\n/);
  });
});
