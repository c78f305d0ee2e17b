// `scan` (docs/engines.md, "Frequencies and scans"): a relaxed torsion
// scan with xtb. For each angle from start_deg to end_deg (`steps` points, both ends included)
// the torsion is turned to the angle (the atoms on l's side of the j-k bond rotate, unless j-k
// is in a ring) and the structure optimised with the dihedral held by xtb's `$constrain`
// restraint; each point starts from the one before. MOPAC has no dihedral restraint in
// Cartesian coordinates, so pm7 and pm6 are refused (422 at payload.method). Result item:
// points [{angle_deg, energy_hartree, relative_kcal, molblock}]; the `plot` port holds the
// energy profile of each structure.
import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { StructureInfoOutcome } from '../../chem/jobs/types.js';
import { invalid } from '../../errors.js';
import type { EstimateContext, OutputRecord } from '../job-type.js';
import { dihedralProblem, molblockBonds, turnDihedral, wrapDeg } from '../../engines/qm/geometry.js';
import { qmFields, structureFields, XTB_METHODS, type QmPayload } from './kit/payload.js';
import { scanProfileSvg } from '../../engines/qm/plots.js';
import { methodOf, qmEstimate, runQmItems } from './kit/qm.js';
import { engineOutput } from './kit/run.js';
import { displayName } from './kit/structures.js';
import { readMolblockAtoms, withCoords } from '../../engines/molblock.js';
import { ItemFailure, type Prepared } from '../../engines/tools.js';
import { HARTREE_PER_KCAL, runXtb } from '../../engines/qm/xtb.js';
import { engineJob } from './kit/engine-job.js';
import { qmMethods } from './optimize.js';
import { ScanResult } from './kit/results.js';

const Payload = Type.Object(
  {
    ...structureFields(),
    ...qmFields(),
    dihedral: Type.Array(Type.Integer({ minimum: 0, maximum: 999 }), {
      minItems: 4,
      maxItems: 4,
      description:
        'The torsion i, j, k, l: 4 atom indices, 0-based, in the input atom order (hydrogens after the heavy atoms, each atom’s in turn); i-j, j-k and k-l must be bonds',
    }),
    start_deg: Type.Number({ minimum: -360, maximum: 360, description: 'First angle, degrees' }),
    end_deg: Type.Number({ minimum: -360, maximum: 360, description: 'Last angle, degrees (at most 360 from start_deg)' }),
    steps: Type.Integer({ minimum: 2, maximum: 72, description: 'Points of the scan, both ends included (evenly spaced)' }),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload> & QmPayload;

/** Force constant of the dihedral restraint (xtb's $constrain, Eh per rad^2): a point lands within about 0.1 degree. */
export const FORCE_CONSTANT = 1.0;

/** The angles of a scan, degrees. */
export function scanAngles(p: { start_deg: number; end_deg: number; steps: number }): number[] {
  return Array.from({ length: p.steps }, (_, k) => Math.round((p.start_deg + ((p.end_deg - p.start_deg) * k) / (p.steps - 1)) * 1e6) / 1e6);
}

async function estimate(p: Payload, ctx: EstimateContext) {
  const method = methodOf(p);
  if (!XTB_METHODS.includes(method))
    throw invalid(
      ['method'],
      `scan runs with xtb methods only (gfn2, gfn1, gfnff): MOPAC (${method}) has no dihedral restraint for Cartesian structures`,
      method,
      'unsupported_method',
    );
  if (p.end_deg === p.start_deg) throw invalid(['end_deg'], 'end_deg must differ from start_deg', p.end_deg);
  if (Math.abs(p.end_deg - p.start_deg) > 360) throw invalid(['end_deg'], 'a scan spans at most 360 degrees', p.end_deg);
  if (new Set(p.dihedral).size !== 4) throw invalid(['dihedral'], `the dihedral needs 4 different atoms, got ${p.dihedral.join(', ')}`, p.dihedral);
  // Inline structures are read once, with their bonds, for both the qm checks and the dihedral's.
  let infos: Promise<StructureInfoOutcome[]> | null = null;
  const read = ctx.structureInfo ? (inputs: string[]) => (infos ??= ctx.structureInfo!(inputs, { bonds: true })) : undefined;
  const est = await qmEstimate(p, { ...ctx, structureInfo: read }, 'scan_point', p.steps);
  if (p.molecules && read) {
    (await read(p.molecules)).forEach((info, i) => {
      if (info.error || !info.bonds) return; // an item error when the job runs
      const problem = dihedralProblem(p.dihedral, info.atoms, info.bonds);
      if (problem) throw invalid(['dihedral'], p.molecules!.length > 1 ? `structure ${i}: ${problem}` : problem, p.dihedral, 'invalid_dihedral');
    });
  }
  return est;
}

/** The restraint's energy in xtb's last summary (included in its TOTAL ENERGY). */
function restraintEnergy(stdout: string): number {
  let v = 0;
  for (const m of stdout.matchAll(/add\. restraining\s+(-?\d+\.\d+)\s+Eh/g)) v = Number(m[1]);
  return v;
}

// Only xtb scans; a pm7/pm6 payload is refused by the estimate (422 at payload.method).
export const scanJob = engineJob<Payload>('scan', { structures: 'molecules', table: 'table' }, ['obabel', 'xtb'], {
  summary: 'Relaxed torsion scan with GFN2-xTB, GFN1-xTB or GFN-FF: the energy profile of a dihedral, each point optimised with the dihedral held',
  payload: Payload,
  result: ScanResult,
  methods: ['gfn2', 'gfn1', 'gfnff', 'alpb', 'openbabel'],
  methodsOf: qmMethods,
  estimate,
  async run(ctx) {
    const p = ctx.payload;
    const method = methodOf(p) as 'gfn2' | 'gfn1' | 'gfnff';
    const angles = scanAngles(p);
    const plots: OutputRecord[] = [];
    const run = await runQmItems(ctx, 'scan', async ({ s, tools, dir, spin, prepared, total }) => {
      const bonds = molblockBonds(prepared.molblock);
      const problem = dihedralProblem(p.dihedral, prepared.symbols.length, bonds);
      if (problem) throw new ItemFailure('invalid_dihedral', problem);
      const [i, j, k, l] = p.dihedral.map((a) => a + 1);
      let current: Prepared = prepared;
      const raw: { angle_deg: number; energy_hartree: number; molblock: string }[] = [];
      for (const [n, angle] of angles.entries()) {
        const coords = turnDihedral(current.coords, bonds, p.dihedral, angle);
        const start: Prepared = { ...current, coords, molblock: withCoords(current.molblock, coords) };
        fs.writeFileSync(path.join(dir, 'scan.inp'), `$constrain\n  force constant=${FORCE_CONSTANT}\n  dihedral: ${i},${j},${k},${l},${wrapDeg(angle)}\n$end\n`);
        let r;
        try {
          r = await runXtb(tools, dir, start, { method, solvent: p.solvent, ...spin, optimize: { maxIterations: p.max_iterations }, extra: ['--input', 'scan.inp'] });
        } catch (err) {
          if (err instanceof ItemFailure) throw new ItemFailure(err.code, `point ${n + 1} of ${angles.length} (${angle} degrees): ${err.message}`, err.molblock);
          throw err;
        }
        raw.push({ angle_deg: angle, energy_hartree: Math.round((r.energyHartree - restraintEnergy(r.stdout)) * 1e12) / 1e12, molblock: r.molblock });
        current = { ...current, molblock: r.molblock, ...readMolblockAtoms(r.molblock) };
        ctx.progress(
          0.02 + (0.96 * (s.index + (n + 1) / angles.length)) / total,
          `structure ${s.index + 1} of ${total}: point ${n + 1} of ${angles.length}`,
          { structure: s.index, structures: total, done: n + 1, total: angles.length },
          false,
        );
      }
      const lowest = Math.min(...raw.map((q) => q.energy_hartree));
      const ordered = raw.map((q) => ({
        angle_deg: q.angle_deg,
        energy_hartree: q.energy_hartree,
        relative_kcal: Math.round(((q.energy_hartree - lowest) / HARTREE_PER_KCAL) * 1e4) / 1e4,
        molblock: q.molblock,
      }));
      const min = ordered.reduce((a, b) => (b.relative_kcal < a.relative_kcal ? b : a));
      plots.push({
        id: s.id,
        files: {
          primary: {
            name: 'scan-profile.svg',
            content: scanProfileSvg({ title: displayName(s), method, dihedral: p.dihedral, points: ordered }),
            contentType: 'image/svg+xml',
          },
        },
        metrics: { index: s.index },
      });
      return {
        fields: { points: ordered },
        structures: ordered.map((q) => ({ molblock: q.molblock, props: { angle_deg: q.angle_deg, energy_hartree: q.energy_hartree, relative_kcal: q.relative_kcal } })),
        row: {
          points: ordered.length,
          lowest_angle_deg: min.angle_deg,
          lowest_energy_hartree: min.energy_hartree,
          highest_relative_kcal: Math.max(...ordered.map((q) => q.relative_kcal)),
        },
        // The table: one row per point (docs/engines.md, "Frequencies and scans").
        rows: ordered.map((q, n) => ({ point: n + 1, angle_deg: q.angle_deg, energy_hartree: q.energy_hartree, relative_kcal: q.relative_kcal })),
      };
    });
    const out = engineOutput('scan', method, run, { solvent: p.solvent ?? null, dihedral: p.dihedral, start_deg: p.start_deg, end_deg: p.end_deg, steps: p.steps });
    plots.sort((a, b) => (a.metrics!.index ?? 0) - (b.metrics!.index ?? 0));
    (out.result as { ports: Record<string, string> }).ports.plot = 'the energy profile of each structure (image/svg+xml; record id = the structure id)';
    (out.result as { ports: Record<string, string> }).ports.table =
      "a CSV table, one row per point of each structure's scan (point, angle_deg, energy_hartree, relative_kcal) with the structure's index, id, name and SMILES (one row with the error for a structure that failed)";
    out.ports!.plot = { format: 'svg', kind: 'svg', records: plots };
    return out;
  },
});
