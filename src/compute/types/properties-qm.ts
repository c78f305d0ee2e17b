// `properties_qm` (docs/engines.md, "DFT"): one DFT or HF single point per structure that
// returns its electronic properties: the energy, the dipole, the HOMO and LUMO energies, every
// orbital energy, Mulliken and Löwdin charges, and on request cube files of the HOMO, the LUMO or
// the electron density (Psi4's cubeprop) as the `cubes` port, one record per structure and kind.
import fs from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { BASIS_SETS, DFT_METHODS, dftPaperMethods, enginePaperMethods, type DftMethod } from '../../engines/dft/methods.js';
import { runDft } from '../../engines/dft/run.js';
import type { CubeKind } from '../../engines/dft/types.js';
import { prepare } from '../../engines/prepare.js';
import type { EngineTools, Structure } from '../../engines/tools.js';
import type { JobType, OutputRecord, RunContext } from '../job-type.js';
import { checkDftPayload, checkDftStructure, DFT_ENGINE_SETS, dftEngineOf, dftEngines, dftEstimateOf, dftItemFields, type DftPayload } from './kit/dft.js';
import { engineJob } from './kit/engine-job.js';
import { structureFields } from './kit/payload.js';
import { chargeAndSpin, QM_CALL_MS } from './kit/qm.js';
import { PropertiesQmResult } from './kit/results.js';
import { engineOutput, runItems, type ItemOutput } from './kit/run.js';
import { checkStructure, loadStructures } from './kit/structures.js';
import { SOLVENTS } from '../../engines/qm/solvents.js';

const CUBE_KINDS = ['homo', 'lumo', 'density'] as const;

const Payload = Type.Object(
  {
    ...structureFields(),
    method: Type.Optional(
      Type.Union(
        DFT_METHODS.map((m) => Type.Literal(m)),
        { default: 'b3lyp', description: 'hf, pbe, pbe0, b3lyp, wb97x-d: Psi4 (in a solvent NWChem, except wb97x-d); b3lyp-d3bj, pbe0-d3bj: NWChem' },
      ),
    ),
    basis: Type.Optional(
      Type.Union(
        BASIS_SETS.map((b) => Type.Literal(b)),
        { default: 'def2-svp', description: 'def2-svp, def2-tzvp, 6-31g*, cc-pvdz' },
      ),
    ),
    engine: Type.Optional(Type.Union([Type.Literal('psi4'), Type.Literal('nwchem')], { description: 'The DFT engine (default: Psi4 where it can run the method, else NWChem)' })),
    solvent: Type.Optional(
      Type.Union([Type.Union(Object.keys(SOLVENTS).map((s) => Type.Literal(s))), Type.Null()], {
        description: 'Implicit solvent (COSMO, run by NWChem); null or absent: gas phase',
      }),
    ),
    charge: Type.Optional(Type.Integer({ minimum: -10, maximum: 10, description: "Total charge (default: each molecule's formal charge)" })),
    multiplicity: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, description: 'Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons)' })),
    scf_max_iterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000, description: 'SCF iterations at most (100 when absent)' })),
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

/** The payload with its defaults: B3LYP/def2-SVP. */
function withDefaults(p: Payload): DftPayload & { method: DftMethod } {
  return { ...p, method: p.method ?? 'b3lyp', basis: p.basis ?? 'def2-svp' } as DftPayload & { method: DftMethod };
}

/** The DFT payload's rules, and cube files only where Psi4 runs the calculation. */
function check(p: Payload): DftPayload & { method: DftMethod } {
  const d = withDefaults(p);
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
  const p = withDefaults(ctx.payload);
  checkStructure(s, p.method);
  checkDftStructure(s, p.basis!);
  const spin = chargeAndSpin(p, s);
  const prepared = await prepare(s, tools, dir);
  const r = await runDft(dftEngineOf(p), tools, dir, prepared, {
    method: p.method,
    basis: p.basis!,
    solvent: p.solvent,
    ...spin,
    scfMaxIterations: p.scf_max_iterations,
    cubes: (ctx.payload.cubes ?? []) as CubeKind[],
  });
  for (const kind of CUBE_KINDS) {
    const file = r.cubes[kind];
    if (!file) continue;
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
    const d = withDefaults(p);
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
export const propertiesQmJob: JobType<Payload> = { ...job, engines: (p) => dftEngines(withDefaults(p)), engineSets: DFT_ENGINE_SETS };
