// The result documents of the engine job types (docs/engines.md), as
// JSON schemas: published in the OpenAPI document's components (<Type>Result) and checked
// against real results by test/engines/schemas.test.ts.
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import { InteractionsSchema, PoseChecksSchema, StrainSchema } from './pose-results.js';

const Num = Type.Number();
const NullNum = Type.Union([Type.Number(), Type.Null()]);
const Molblock = Type.String({ description: 'V2000 molblock, 3D coordinates in Å, atoms in the input order (hydrogens after the heavy atoms)' });

/** The fields every item has: its place in the input and its error, if any. */
export function item(fields: TProperties, description: string) {
  return Type.Object(
    {
      index: Type.Integer({ description: 'Position in the input (0-based)' }),
      id: Type.String({ description: 'The record id of an uploaded set, else the index' }),
      name: Type.Union([Type.String(), Type.Null()]),
      error: Type.Union([Type.String(), Type.Null()], {
        description:
          'null, or a code: unparseable, too_large, unsupported_element, preparation_failed, charge_multiplicity, scf_not_converged, not_converged, engine_failed, timeout, ...',
      }),
      detail: Type.Union([Type.String(), Type.Null()], { description: "What happened, in the engine's own words where it has some" }),
      ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])),
    },
    { additionalProperties: true, description },
  );
}

export function result(id: string, jobType: string, itemSchema: TObject, extra: TProperties = {}) {
  return Type.Object(
    {
      job_type: Type.Literal(jobType),
      method: Type.String(),
      ...extra,
      summary: Type.Object({ structures: Type.Integer(), completed: Type.Integer(), errors: Type.Integer() }, { additionalProperties: true }),
      items: Type.Array(itemSchema, { description: 'One per input structure, in input order' }),
      ports: Type.Record(Type.String(), Type.String(), {
        description: "The result artifact's ports: structures or poses (SDF), table (CSV), logs, and plots where there are some",
      }),
    },
    { $id: id, additionalProperties: true },
  );
}

/** What every item of a DFT or HF job carries (docs/engines.md, "DFT"), and the result's top level. */
const dftCarried = {
  engine: Type.Union([Type.Literal('psi4'), Type.Literal('nwchem')], { description: 'DFT and HF: the engine that ran it' }),
  engine_version: Type.Union([Type.String(), Type.Null()], { description: "DFT and HF: the engine's version" }),
  basis: Type.Union([Type.Literal('def2-svp'), Type.Literal('def2-tzvp'), Type.Literal('6-31g*'), Type.Literal('cc-pvdz')], { description: 'DFT and HF: the basis set' }),
};

const qmItem = {
  molblock: Molblock,
  energy_hartree: Type.Number({ description: "Total energy (xtb; Psi4 and NWChem: the SCF energy, with D3 and COSMO where they ran); MOPAC's heat of formation in Hartree" }),
  heat_of_formation_kcal_mol: Type.Number({ description: 'MOPAC methods only' }),
  homo_lumo_gap_ev: NullNum,
  dipole_debye: NullNum,
  charges: Type.Union([Type.Array(Num), Type.Null()], { description: 'Partial charges, per atom' }),
  charge: Type.Integer(),
  multiplicity: Type.Integer(),
  ...dftCarried,
  method: Type.String({ description: 'DFT and HF: the method (hf, pbe, pbe0, b3lyp, wb97x-d, b3lyp-d3bj, pbe0-d3bj)' }),
  homo_ev: NullNum,
  lumo_ev: NullNum,
  basis_functions: Type.Union([Type.Integer(), Type.Null()], { description: 'DFT and HF: basis functions of the calculation' }),
};

/** The top level of a result that may come from DFT (optimize, singlepoint). */
const qmTop = {
  solvent: Type.Union([Type.String(), Type.Null()]),
  ...Object.fromEntries(Object.entries(dftCarried).map(([k, v]) => [k, Type.Optional(v)])),
};

export const OptimizeResult = result(
  'OptimizeResult',
  'optimize',
  item({ ...qmItem, converged: Type.Boolean(), iterations: Type.Union([Type.Integer(), Type.Null()]) }, 'An optimised structure'),
  qmTop,
);
export const SinglepointResult = result('SinglepointResult', 'singlepoint', item(qmItem, 'A structure at its given geometry'), qmTop);

export const ConformersResult = result(
  'ConformersResult',
  'conformers',
  item(
    {
      conformers: Type.Array(Type.Object({ molblock: Molblock, energy_hartree: Num, relative_kcal: Num, boltzmann_weight: Num }, { additionalProperties: true }), {
        description: 'Lowest first; the weights sum to 1',
      }),
    },
    "A structure's conformer ensemble",
  ),
);

export const FrequenciesResult = result(
  'FrequenciesResult',
  'frequencies',
  item(
    {
      molblock: Molblock,
      energy_hartree: Num,
      frequencies_cm1: Type.Array(Num, { description: 'Harmonic frequencies; imaginary ones negative' }),
      ir_intensities_km_mol: Type.Array(Num),
      n_imaginary: Type.Integer(),
      zpve_hartree: Num,
      enthalpy_hartree: Num,
      entropy_cal_mol_k: Num,
      gibbs_hartree: Num,
      temperature_k: Num,
    },
    'Frequencies and thermochemistry of an optimised structure',
  ),
  {
    scale_factor: Type.Number({
      description:
        "The frequency scale factor applied to frequencies_cm1 and the IR spectrum (payload scale_factor; 1: the engine's frequencies); the thermochemistry is from the unscaled ones",
    }),
  },
);

export const ScanResult = result(
  'ScanResult',
  'scan',
  item(
    { points: Type.Array(Type.Object({ angle_deg: Num, energy_hartree: Num, relative_kcal: Num, molblock: Molblock }, { additionalProperties: true })) },
    'A relaxed torsion scan',
  ),
);

export const DockingResult = result(
  'DockingResult',
  'docking',
  item(
    {
      poses: Type.Array(
        Type.Object(
          {
            molblock: Molblock,
            score_kcal_mol: Num,
            rmsd_lb: Num,
            rmsd_ub: Num,
            checks: Type.Optional(PoseChecksSchema),
            strain_kcal_mol: Type.Optional(StrainSchema),
            interactions: Type.Optional(InteractionsSchema),
          },
          { additionalProperties: true },
        ),
        { description: "In the payload's pose_order (Vina's score by default, best first); checks, strain_kcal_mol and interactions with pose_checks (the default)" },
      ),
    },
    "A ligand's docked poses",
  ),
);

export const PropertiesQmResult = result(
  'PropertiesQmResult',
  'properties_qm',
  item(
    {
      molblock: Molblock,
      energy_hartree: Type.Number({ description: 'The SCF energy (with D3 and COSMO where they ran)' }),
      dipole_debye: NullNum,
      homo_ev: NullNum,
      lumo_ev: NullNum,
      homo_lumo_gap_ev: NullNum,
      orbital_energies_ev: Type.Array(Num, { description: 'Every orbital energy, lowest first (the alpha orbitals of an open shell)' }),
      orbital_energies_beta_ev: Type.Array(Num, { description: 'Open shells: the beta orbitals' }),
      mulliken_charges: Type.Union([Type.Array(Num), Type.Null()], { description: 'Mulliken charges, per atom in the molblock order' }),
      lowdin_charges: Type.Union([Type.Array(Num), Type.Null()], { description: 'Löwdin charges, per atom (null where the engine gives none)' }),
      charge: Type.Integer(),
      multiplicity: Type.Integer(),
      basis_functions: Type.Union([Type.Integer(), Type.Null()]),
      cubes: Type.Array(Type.Union([Type.Literal('homo'), Type.Literal('lumo'), Type.Literal('density')]), {
        description: 'The cube files written for this structure (when cubes were asked for): the `cubes` port, record id <id>-<kind>',
      }),
      ...dftCarried,
      method: Type.String(),
    },
    "A structure's electronic properties",
  ),
  qmTop,
);

export const RerankResult = result(
  'RerankResult',
  'rerank',
  item(
    {
      conformers: Type.Array(
        Type.Object(
          {
            id: Type.String({ description: "The conformer's record id in the input" }),
            molblock: Molblock,
            energy_hartree: Type.Number({ description: 'The DFT energy (with D3 and COSMO where they ran)' }),
            relative_kcal: Num,
            boltzmann_weight: Num,
            xtb_relative_kcal: Type.Union([Type.Number(), Type.Null()], {
              description: 'Its xtb energy relative to the lowest re-ranked, as it came (null when the input had no energy_hartree)',
            }),
          },
          { additionalProperties: true },
        ),
        { description: 'The re-ranked conformers, lowest DFT energy first; the weights sum to 1' },
      ),
      ensemble_size: Type.Integer({ description: 'Conformers in the ensemble given' }),
      reranked: Type.Integer({ description: 'Conformers re-ranked (at most top_n)' }),
      ranked_by_xtb_energy: Type.Boolean({ description: 'Whether the re-ranked ones were chosen by their xtb energy (else the first top_n as given)' }),
      basis_functions: Type.Union([Type.Integer(), Type.Null()]),
      ...dftCarried,
      method: Type.String(),
    },
    'An ensemble re-ranked at DFT (one per input structure of a conformer search)',
  ),
  { ...qmTop, temperature_k: Num, optimize: Type.Boolean() },
);

export const ReactivityResult = result(
  'ReactivityResult',
  'reactivity',
  item(
    {
      molblock: Molblock,
      homo_ev: Type.Union([Type.Number(), Type.Null()], { description: "The neutral's HOMO, eV (xtb's orbital table, 4 decimals)" }),
      lumo_ev: Type.Union([Type.Number(), Type.Null()], { description: "The neutral's LUMO, eV" }),
      ip_ev: Type.Number({ description: "Vertical ionisation potential, eV (xtb's delta SCC IP, with its empirical shift)" }),
      ea_ev: Type.Number({ description: "Vertical electron affinity, eV (xtb's delta SCC EA; negative: the anion lies above the neutral)" }),
      electrophilicity_ev: Type.Number({ description: 'Global electrophilicity index (IP+EA)^2/(8(IP-EA)), eV' }),
      fukui: Type.Array(
        Type.Object(
          {
            atom_index: Type.Integer({ description: '0-based, the input order (hydrogens after the heavy atoms)' }),
            f_plus: Type.Number({ description: 'f+: charge change on adding an electron, q(N) - q(N+1): where a nucleophile attacks' }),
            f_minus: Type.Number({ description: 'f-: charge change on removing an electron, q(N-1) - q(N): where an electrophile attacks' }),
            f_zero: Type.Number({ description: 'f0 = (f+ + f-)/2: radical attack' }),
          },
          { additionalProperties: false },
        ),
        { description: 'Condensed Fukui indices, one per atom in atom order (3 decimals, as xtb prints them); each kind sums to about 1' },
      ),
    },
    "A structure's frontier orbitals, vertical IP and EA, electrophilicity and Fukui indices, on its GFN2-xTB optimised geometry",
  ),
  {
    solvent: Type.Union([Type.String(), Type.Null()]),
    xtb_version: Type.Union([Type.String(), Type.Null()], { description: 'The xtb version that computed the figures' }),
  },
);

export const ENGINE_RESULT_SCHEMAS = [
  ReactivityResult,
  RerankResult,
  PropertiesQmResult,
  OptimizeResult,
  SinglepointResult,
  ConformersResult,
  FrequenciesResult,
  ScanResult,
  DockingResult,
];
