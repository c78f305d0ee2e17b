// `properties_qm` (docs/engines.md, "DFT"): one DFT or HF single point per structure that
// returns its electronic properties: the energy, the dipole, the HOMO and LUMO energies, every
// orbital energy, Mulliken and Löwdin charges, and on request cube files of the HOMO, the LUMO or
// the electron density (Psi4's cubeprop) as the `cubes` port, one record per structure and kind.
import fs from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { dftPaperMethods, enginePaperMethods, type DftMethod } from '../../engines/dft/methods.js';
import type { CubeKind } from '../../engines/dft/types.js';
import type { EngineTools, Structure } from '../../engines/tools.js';
import type { JobType, OutputRecord, RunContext } from '../job-type.js';
import { checkDftPayload, DFT_ENGINE_SETS, dftEngineOf, dftEngines, dftEstimateOf, dftItemFields, dftOnlyFields, runDftItem, withDftDefaults, type DftPayload } from './kit/dft.js';
import { engineJob } from './kit/engine-job.js';
import { structureFields } from './kit/payload.js';
import { QM_CALL_MS } from './kit/qm.js';
import { PropertiesQmResult } from './kit/results.js';
import { engineOutput, runItems, type ItemOutput } from './kit/run.js';
import { loadStructures } from './kit/structures.js';

const CUBE_KINDS = ['homo', 'lumo', 'density'] as const;

const Payload = Type.Object(
  {
    ...structureFields(),
    ...dftOnlyFields('b3lyp'),
    cubes: Type.Optional(
      Type.Array(Type.Union(CUBE_KINDS.map((k) => Type.Literal(k))), {
        uniqueItems: true,
        maxItems: 3,
        description: 'Cube files to write (Psi4): homo, lumo (the alpha orbitals), density; the `cubes` port, record id `<structure id>-<kind>`',
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

/** The DFT payload's rules, and cube files only where Psi4 runs the calculation. */
function check(p: Payload): DftPayload & { method: DftMethod } {
  const d = withDftDefaults(p, 'b3lyp');
  checkDftPayload(d);
  if (p.cubes?.length && dftEngineOf(d) !== 'psi4')
    throw invalid(
      ['cubes'],
      `cube files are written by Psi4; this calculation runs in NWChem (${p.solvent ? 'in a solvent' : `${d.method} is NWChem's`}): ask without cubes, or in the gas phase with a method Psi4 runs`,
      p.cubes,
    );
  return d;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

async function one(ctx: RunContext<Payload>, s: Structure, tools: EngineTools, dir: string, cubes: OutputRecord[]): Promise<ItemOutput> {
  const p = withDftDefaults(ctx.payload, 'b3lyp');
  const { r, spin } = await runDftItem(p, s, tools, dir, { cubes: (ctx.payload.cubes ?? []) as CubeKind[] });
  const written: string[] = [];
  for (const kind of CUBE_KINDS) {
    const file = r.cubes[kind];
    if (!file) continue;
    written.push(kind);
    cubes.push({
      id: `${s.id}-${kind}`,
      files: { primary: { name: `${kind}.cube`, content: fs.readFileSync(file), contentType: 'chemical/x-cube' } },
      metrics: { index: s.index },
    });
  }
  const fields = {
    molblock: r.molblock,
    energy_hartree: r.energyHartree,
    dipole_debye: r.dipoleDebye,
    homo_ev: r.homoEv,
    lumo_ev: r.lumoEv,
    homo_lumo_gap_ev: r.gapEv,
    orbital_energies_ev: r.orbitalEnergiesEv,
    ...(r.orbitalEnergiesBetaEv ? { orbital_energies_beta_ev: r.orbitalEnergiesBetaEv } : {}),
    mulliken_charges: r.mulliken?.map(round6) ?? null,
    lowdin_charges: r.lowdin?.map(round6) ?? null,
    charge: spin.charge,
    multiplicity: spin.multiplicity,
    basis_functions: r.basisFunctions,
    ...(ctx.payload.cubes?.length ? { cubes: written } : {}),
  };
  const scalars = { energy_hartree: r.energyHartree, dipole_debye: r.dipoleDebye, homo_ev: r.homoEv, lumo_ev: r.lumoEv, homo_lumo_gap_ev: r.gapEv };
  return { fields, structures: [{ molblock: r.molblock, props: scalars }], row: scalars };
}

const job = engineJob<Payload>('properties_qm', { structures: 'molecules', table: 'table' }, ['obabel', 'psi4'], {
  summary: 'Electronic properties at DFT or HF (Psi4, NWChem): energy, dipole, HOMO/LUMO and orbital energies, Mulliken and Löwdin charges, cube files of orbitals and density',
  payload: Payload,
  result: PropertiesQmResult,
  methods: ['openbabel', ...new Set([...enginePaperMethods('psi4'), ...enginePaperMethods('nwchem')])],
  methodsOf: (p) => {
    const d = withDftDefaults(p, 'b3lyp');
    return [...dftPaperMethods(d.method, d.basis!, d.solvent, dftEngineOf(d)), 'openbabel'];
  },
  estimate: async (p, ctx) => dftEstimateOf(check(p), ctx, 'properties'),
  async run(ctx) {
    const p = check(ctx.payload);
    const structures = await loadStructures(ctx);
    const cubes: OutputRecord[] = [];
    const run = await runItems(ctx, structures, { perCallTimeoutMs: QM_CALL_MS, label: 'properties_qm' }, (s, tools, dir) => one(ctx, s, tools, dir, cubes));
    const engine = dftEngineOf(p);
    const carried = dftItemFields(p, ctx.deps.engines?.[engine]?.version ?? null);
    for (const it of run.items) Object.assign(it.fields, carried);
    const out = engineOutput('properties_qm', p.method, run, { solvent: p.solvent ?? null, ...carried });
    if (ctx.payload.cubes?.length) {
      cubes.sort((a, b) => (a.metrics!.index ?? 0) - (b.metrics!.index ?? 0));
      (out.result as { ports: Record<string, string> }).ports.cubes = 'Gaussian cube files (Bohr) of the HOMO, LUMO or density asked for; record id = <structure id>-<kind>';
      out.ports!.cubes = { format: 'cube', kind: 'cube', records: cubes };
    }
    return out;
  },
});

/** The engines follow the payload's method and solvent (Psi4 or NWChem, with Open Babel). */
export const propertiesQmJob: JobType<Payload> = { ...job, engines: (p) => dftEngines(withDftDefaults(p, 'b3lyp')), engineSets: DFT_ENGINE_SETS };
