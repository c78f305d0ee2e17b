// The tools the Assistant's model may call (docs/assistant.md, "Tools"): the Assistant's view of
// the tool catalogue (src/catalogue/tools.ts: names, descriptions and JSON Schema parameters, job
// types from the registry), and the JSON each answers to the model (the `tool` message content).
// src/modules/assistant/tools.ts runs them with the caller's own rights by calling the services
// directly. No tool starts charged work: propose_plan and propose_engine_job store a plan card
// that only the user's approval (POST /assistant/plans/{plan_id}/approve) can run; an engine
// job's card is a one-step workflow run.
import { ASSISTANT_CATALOGUE } from '../catalogue/tools.js';
import type { ToolSpec } from './provider.js';

export { ENGINE_JOB_TYPES, type EngineJobType } from '../catalogue/assistant-inputs.js';

export const TOOL_SPECS: readonly ToolSpec[] = ASSISTANT_CATALOGUE;

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
  /** As MCP's list_job_types answers (src/catalogue/job-types.ts). */
  list_job_types: Record<string, unknown>;
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
