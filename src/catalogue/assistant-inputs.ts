// The Assistant's tool arguments (docs/assistant.md, "Tools"): its tools call the services
// directly (never a route), so their arguments are these compact schemas, kept short because
// a language model reads them in every step's prompt.
import { JOB_TYPES } from '../compute/registry.js';
import { OPERATIONS } from '../lookups/index.js';
import { jobTypeArg } from './job-types.js';
import type { JsonSchema } from './schemas.js';

export const smilesList = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 500 }, minItems: 1, maxItems: 20 };
const queries = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, minItems: 1, maxItems: 20 };
export const limit = (max: number) => ({ type: 'integer', minimum: 1, maximum: max });
export const obj = (properties: Record<string, unknown>, required: string[] = []): JsonSchema => ({ type: 'object', properties, required, additionalProperties: false });

/** A lookup's arguments: its operation, the queries and the endpoint's own (`limit`, `organism`). */
export const lookupArgs = (endpoint: keyof typeof OPERATIONS, extra: Record<string, unknown> = {}) =>
  obj({ operation: { type: 'string', enum: [...OPERATIONS[endpoint]] }, queries, ...extra }, ['operation', 'queries']);
export const compoundNames = obj({ names: queries }, ['names']);

/** Where a workflow comes from: a template (GET /workflows/templates) or an inline spec, with its inputs. */
export const workflowSource = {
  template_id: { type: 'string', description: 'library-triage, solubility-screen or similarity-expansion' },
  spec: { type: 'object', description: 'An inline workflow spec (docs/workflows.md), instead of template_id' },
  inputs: { type: 'object', description: 'The workflow inputs, e.g. {"library": "<artifact id>"}' },
};

/** estimate_job: a job of any registry type; list_job_types gives its payload's schema. */
export const jobEstimateArgs = obj(
  {
    job_type: jobTypeArg(),
    payload: { type: 'object', description: "The job type's payload: list_job_types with job_type gives its schema" },
    resource: { type: 'string' },
  },
  ['job_type', 'payload'],
);

/** What each engine job type is, for the job_type argument's description (kept short: it is in every step's prompt). */
const ENGINE_JOB_WHAT: Readonly<Record<string, string>> = {
  optimize: 'geometry optimisation',
  singlepoint: 'energy, gap, dipole, charges at the given geometry',
  frequencies: 'optimisation, then harmonic frequencies, IR and thermochemistry',
  conformers: 'a ranked conformer ensemble',
  docking: 'AutoDock Vina: the molecules are the ligands',
  pka: 'pKa and charge state at ph, water',
  tautomers: 'ranked tautomers',
  bde: 'X-H bond energies',
  reactivity: 'Fukui indices, IP, EA',
};

/**
 * The engine job types the Assistant estimates and proposes (docs/engines.md; the payload
 * fields of docs/assistant.md, "Engine jobs" and "Chemistry questions"): those of this list the
 * registry has. `reactivity` joins by itself once it is registered; until then the Assistant says
 * it cannot compute it.
 */
const ENGINE_JOB_CANDIDATES = ['optimize', 'singlepoint', 'frequencies', 'conformers', 'docking', 'pka', 'tautomers', 'bde', 'reactivity'] as const;
export type EngineJobType = (typeof ENGINE_JOB_CANDIDATES)[number];
export const ENGINE_JOB_TYPES: readonly EngineJobType[] = ENGINE_JOB_CANDIDATES.filter((t) => JOB_TYPES.has(t));

/** The structures of an engine job and its parameters (each type takes those it names; the type's own schema checks them). */
export const engineJob = {
  job_type: {
    type: 'string',
    enum: [...ENGINE_JOB_TYPES],
    description: ENGINE_JOB_TYPES.map((t) => `${t} (${ENGINE_JOB_WHAT[t]})`).join(', '),
  },
  molecules: {
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 2000 },
    minItems: 1,
    maxItems: 1000,
    description: 'The structures as SMILES (or give input_artifact_id)',
  },
  input_artifact_id: { type: 'string', description: "One of the user's molecule sets, or an earlier job's structures (instead of molecules)" },
  port: { type: 'string', description: 'The port of input_artifact_id holding the structures, e.g. "structures"' },
  method: {
    type: 'string',
    enum: ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6', 'b3lyp'],
    description: 'gfn2 (default), gfn1, gfnff: xtb; pm7, pm6: MOPAC; conformers take gfn2 or gfnff; bde also b3lyp',
  },
  solvent: { type: ['string', 'null'], description: 'An ALPB solvent name (water, methanol, dmso, chcl3, ch2cl2, thf, toluene, ...); null or absent: gas phase' },
  charge: { type: 'integer', minimum: -10, maximum: 10 },
  multiplicity: { type: 'integer', minimum: 1, maximum: 7 },
  max_iterations: { type: 'integer', minimum: 1, maximum: 5000, description: 'optimize, frequencies' },
  temperature_k: { type: 'number', description: 'frequencies and conformers (298.15)' },
  max_conformers: { type: 'integer', minimum: 1, maximum: 500, description: 'conformers (50)' },
  energy_window_kcal: { type: 'number', description: 'conformers (6)' },
  rmsd_threshold: { type: 'number', description: 'conformers, Å (0.5)' },
  // docking (kept short: these schemas are in every step's prompt)
  pdb_id: { type: 'string', description: 'docking: the receptor, an RCSB PDB entry (1IEP)' },
  receptor_artifact_id: { type: 'string', description: 'docking: the receptor, an uploaded PDB file' },
  box_site: { type: 'string', description: 'docking: box around a hetero group (STI), or "ligand": its ligand' },
  box: { type: 'object', description: 'docking: {center, size} (Å, x y z), or box_site' },
  padding: { type: 'number' },
  exhaustiveness: { type: 'integer', minimum: 1, maximum: 64 },
  num_modes: { type: 'integer', minimum: 1, maximum: 20 },
  seed: { type: 'integer', minimum: 0 },
  ph: { type: ['number', 'null'], description: 'pka (7.4), docking' },
  keep_best: { type: 'integer', minimum: 1 },
  // chemistry questions
  max_tautomers: { type: 'integer', minimum: 1 },
  bonds: { type: 'array', description: 'bde: [[i, j], ...]; default every X-H' },
  energies: { type: 'string', enum: ['b3lyp', 'gfn2'], description: 'bde: b3lyp (default, accurate) or gfn2 (fast)' },
};
