// The tools the Assistant's model may call (docs/assistant.md, "Tools"), as the model sees
// them: names, descriptions and JSON Schema parameters, and the JSON each answers to the model
// (the `tool` message content). src/modules/assistant/tools.ts runs them with the caller's own
// rights by calling the services directly. No tool starts charged work: propose_plan and
// propose_engine_job store a plan card that only the user's approval (POST
// /assistant/plans/{plan_id}/approve) can run; an engine job's card is a one-step workflow run.
import { OPERATIONS } from '../lookups/index.js';
import type { ToolSpec } from './provider.js';

const smilesList = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 500 }, minItems: 1, maxItems: 20 };
const queries = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, minItems: 1, maxItems: 20 };
const limit = (max: number) => ({ type: 'integer', minimum: 1, maximum: max });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required, additionalProperties: false });
const lookup = (endpoint: keyof typeof OPERATIONS, what: string, extra: Record<string, unknown> = {}): ToolSpec => ({
  name: `lookup_${endpoint}`,
  description: `${what} Only names and identifiers are sent: structures (SMILES, InChI) are never sent by the Assistant.`,
  parameters: obj({ operation: { type: 'string', enum: [...OPERATIONS[endpoint]] }, queries, ...extra }, ['operation', 'queries']),
});
/** Where a workflow comes from: a template (GET /workflows/templates) or an inline spec, with its inputs. */
const workflowSource = {
  template_id: { type: 'string', description: 'library-triage, solubility-screen or similarity-expansion' },
  spec: { type: 'object', description: 'An inline workflow spec (docs/workflows.md), instead of template_id' },
  inputs: { type: 'object', description: 'The workflow inputs, e.g. {"library": "<artifact id>"}' },
};

/**
 * The engine job types the Assistant estimates and proposes (docs/engines.md; the payload
 * fields of contract section 13).
 */
export const ENGINE_JOB_TYPES = ['optimize', 'singlepoint', 'frequencies', 'conformers', 'docking'] as const;
export type EngineJobType = (typeof ENGINE_JOB_TYPES)[number];

/** The structures of an engine job and its parameters (each type takes those it names; the type's own schema checks them). */
const engineJob = {
  job_type: {
    type: 'string',
    enum: [...ENGINE_JOB_TYPES],
    description:
      'optimize (geometry optimisation), singlepoint (energy, gap, dipole, charges at the given geometry), frequencies (optimisation, then harmonic frequencies, IR and thermochemistry), conformers (a ranked conformer ensemble), docking (AutoDock Vina: the molecules are the ligands)',
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
  method: { type: 'string', enum: ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6'], description: 'gfn2 (default), gfn1, gfnff: xtb; pm7, pm6: MOPAC; conformers take gfn2 or gfnff' },
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
  ph: { type: ['number', 'null'] },
  keep_best: { type: 'integer', minimum: 1 },
};

export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'describe_molecules',
    description: 'RDKit properties of molecules given as SMILES: formula, weight, cLogP, TPSA, donors, acceptors, QED, rule checks and alerts.',
    parameters: obj({ smiles: smilesList }, ['smiles']),
  },
  {
    name: 'depict_molecules',
    description: 'Draws molecules given as SMILES; the drawings (SVG) are shown to the user, the model is told which were drawn.',
    parameters: obj({ smiles: smilesList }, ['smiles']),
  },
  { name: 'lookup_compounds', description: 'PubChem: compound names to CIDs, titles and SMILES.', parameters: obj({ names: queries }, ['names']) },
  lookup('bioactivity', 'ChEMBL molecules, targets and activities by ChEMBL ID or name.', { limit: limit(100) }),
  lookup('targets', 'Open Targets: target-disease associations and drugs by gene symbol, Ensembl ID or disease.', { limit: limit(100) }),
  lookup('proteins', 'UniProt entries by accession, or search by gene or protein name.', { organism: { type: 'string', maxLength: 100 } }),
  lookup('structures', 'RCSB PDB entries by ID, by UniProt accession, or free-text search.', { limit: limit(100) }),
  lookup('properties', 'Measured properties from PubChem (boiling point, melting point, density, ...) by CID or name.'),
  {
    name: 'estimate_job',
    description: 'The cost and runtime of one job, without running it (POST /jobs/estimate).',
    parameters: obj({ job_type: { type: 'string' }, payload: { type: 'object' }, resource: { type: 'string' } }, ['job_type', 'payload']),
  },
  {
    name: 'estimate_workflow',
    description: 'The cost and runtime of a workflow run with its inputs, without running it.',
    parameters: obj(workflowSource),
  },
  {
    name: 'list_jobs',
    description: "The user's recent jobs, newest first; job_type filters them (conformers, docking, ...).",
    parameters: obj({ status: { type: 'string' }, job_type: { type: 'string' }, limit: limit(50) }),
  },
  { name: 'get_job', description: 'One of the user\u2019s jobs.', parameters: obj({ process_id: { type: 'string' } }, ['process_id']) },
  {
    name: 'get_job_result',
    description:
      "One of the user's jobs with its stored result (energies, conformers, poses and scores; structures left out). Use it to answer questions about existing results instead of proposing new work.",
    parameters: obj({ process_id: { type: 'string' } }, ['process_id']),
  },
  { name: 'list_runs', description: "The user's recent workflow runs.", parameters: obj({ status: { type: 'string' }, limit: limit(50) }) },
  { name: 'get_run', description: 'One of the user\u2019s workflow runs with its steps.', parameters: obj({ run_id: { type: 'string' } }, ['run_id']) },
  {
    name: 'list_artifacts',
    description:
      "The user's recent artifacts, newest first, one item per port: uploads (origin upload, named by the user or after the file) and results of jobs and workflow runs (origin job). kind filters by the port's kind (molecules: molecule sets).",
    parameters: obj({ kind: { type: 'string', maxLength: 100 }, limit: limit(50) }),
  },
  { name: 'get_artifact', description: 'One of the user\u2019s artifacts.', parameters: obj({ artifact_id: { type: 'string' } }, ['artifact_id']) },
  {
    name: 'estimate_engine_job',
    description:
      'The cost and runtime of a quantum-chemistry, conformer or docking job (xtb, MOPAC, Open Babel, Vina) on molecules or a molecule set, as approving its plan card would reserve them; nothing runs. Docking: also the box and its group.',
    parameters: obj(engineJob, ['job_type']),
  },
  {
    name: 'propose_engine_job',
    description:
      'Proposes an engine job (as estimate_engine_job) to the user as a plan card: a one-step workflow run with its estimate. Nothing runs and nothing is charged until the user approves the card. Cards expire after 24 hours.',
    parameters: obj({ title: { type: 'string', minLength: 1, maxLength: 200 }, ...engineJob }, ['title', 'job_type']),
  },
  {
    name: 'propose_plan',
    description:
      'Proposes a workflow run to the user as a plan card with its estimate. Nothing runs and nothing is charged: the user approves or rejects the card. Cards expire after 24 hours.',
    parameters: obj({ title: { type: 'string', minLength: 1, maxLength: 200 }, ...workflowSource }, ['title']),
  },
];

export const TOOL_NAMES = new Set(TOOL_SPECS.map((t) => t.name));

/** What describe_molecules answers to the model, per input SMILES. */
export interface DescribedMolecule {
  smiles: string;
  canonical_smiles: string | null;
  formula: string | null;
  mw: number | null;
  clogp: number | null;
  tpsa: number | null;
  hbd: number | null;
  hba: number | null;
  rotatable_bonds: number | null;
  qed: number | null;
  lipinski_pass: boolean | null;
  alerts: string[];
  error: string | null;
}

/** One port of an artifact in list_artifacts (docs/artifacts.md, "Names": the artifact's name and origin). */
export interface ListedArtifact {
  artifact_id: string;
  name: string;
  origin: 'upload' | 'job';
  port: string;
  kind: string;
  molecules: number | null;
  created_at: string;
}

/**
 * What get_job_result answers: the job, the SMILES it was given (molblocks as "(molblock)"), and
 * its result document once completed (null before, or when it ended otherwise), shortened for a
 * prompt: long strings (molblocks, SVGs) dropped, lists cut to their first entries with
 * `<key>_total` beside them (docs/assistant.md, "Questions about results").
 */
export interface JobResultSummary {
  process_id: string;
  job_name: string;
  job_type: string;
  status: string;
  progress: number;
  message: string | null;
  created_at: string;
  finished_at: string | null;
  charged_usd: number | null;
  workflow_run_id: string | null;
  molecules: string[] | null;
  input_artifact_id: string | null;
  result: Record<string, unknown> | null;
}

/** What estimate_workflow answers to the model (and propose_plan inside its card). */
export interface WorkflowQuote {
  cost_usd: number;
  expected_runtime_sec: number;
  steps: { step_id: string; job_type: string; cost_usd: number; expected_runtime_sec: number }[];
}

/** What estimate_engine_job answers (and propose_engine_job inside its card): the job and the one-step run's quote. */
export interface EngineJobQuote extends WorkflowQuote {
  job_type: string;
  /** The method (gfn2, pm7, ...; vina for docking). */
  method: string;
  solvent: string | null;
  /** How many structures the job takes (a molecule set's size; docking: its ligands). */
  structures: number;
  /** Docking: the receptor (PDB ID or artifact id) and the box, with the residue name of the group it is around (box_site "ligand" resolved). */
  receptor?: string;
  box?: { center: number[]; size: number[]; box_site?: string };
}

/**
 * The JSON each tool answers to the model. A tool that fails answers
 * `{error: {code, message}}` instead (a problem slug such as `not-found` or `validation-error`).
 */
export interface ToolResults {
  describe_molecules: { items: DescribedMolecule[] };
  depict_molecules: { items: { smiles: string; drawn: boolean; error: string | null }[] };
  /** The lookups answer as POST /lookup/{endpoint} does (`{attribution, compounds}` or `{attribution, results}`). */
  lookup: Record<string, unknown>;
  estimate_job: { job_type: string; resource: string; cost_usd: number; expected_runtime_sec: number };
  estimate_workflow: WorkflowQuote;
  list_jobs: { jobs: { process_id: string; job_type: string; status: string; created_at: string; charged_usd: number | null }[]; total: number };
  get_job: { process_id: string; job_type: string; status: string; progress: number; message: string | null; created_at: string; charged_usd: number | null };
  get_job_result: JobResultSummary;
  list_runs: { runs: { run_id: string; name: string; status: string; created_at: string }[]; total: number };
  get_run: { run_id: string; name: string; status: string; steps: { step_id: string; state: string }[] };
  list_artifacts: { artifacts: ListedArtifact[]; total: number };
  get_artifact: {
    artifact_id: string;
    name: string;
    origin: 'upload' | 'job';
    ports: { port: string; kind: string; format: string; records: number }[];
    molecules: number | null;
    size_bytes: number;
    created_at: string;
  };
  propose_plan: { plan_id: string; title: string; status: 'proposed'; expires_at: string } & WorkflowQuote;
  estimate_engine_job: EngineJobQuote;
  propose_engine_job: { plan_id: string; title: string; status: 'proposed'; expires_at: string } & EngineJobQuote;
}

export type ToolError = { error: { code: string; message: string } };
