// The tool catalogue (docs/architecture.md, "The tool catalogue"): every tool a model can call,
// the Assistant's (docs/assistant.md, "Tools") and MCP's (docs/mcp.md, "Tools"), in one list.
// Each entry says how each surface offers it: MCP takes its input schema from the API route it
// calls (src/mcp reads the route's registered schemas) or from `input`; the Assistant, whose tools
// call the services directly, from `parameters`. Job types come from the registry (job-types.ts),
// so a new one reaches both. src/assistant/tool-specs.ts and src/mcp/tools.ts build their lists
// from this one and add only how their tools run.
import { compoundNames, engineJob, jobEstimateArgs, limit, lookupArgs, obj, smilesList, workflowSource } from './assistant-inputs.js';
import { jobTypeArg } from './job-types.js';
import type { JsonSchema } from './schemas.js';

export type Method = 'GET' | 'POST' | 'DELETE';

/** MCP's tool annotations (what clients show and confirm). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as MCP offers it. */
export interface McpTool {
  title: string;
  /** For a model: what it does, when to use it, what it returns. */
  description: string;
  /** The API route whose schemas make the input (its params, query string and body) and whose scope the tool needs. */
  route?: { method: Method; url: string };
  /** Arguments of the tool's own (not sent to the API), e.g. a wait's timeout. */
  extra?: Record<string, JsonSchema>;
  /**
   * A tool without a route: its input schema and scope (api/principal.ts's `Scope`, written out:
   * the catalogue sits below src/api; MCP checks it against the caller's scopes as a `Scope`).
   */
  input?: JsonSchema;
  scope?: 'read' | 'write';
  /** Send an Idempotency-Key (the route requires one from API keys). */
  idempotent?: boolean;
  /** The tool reserves money from the wallet (submit, start run): annotated so, and it answers the cost reserved. */
  charges?: boolean;
  annotations?: ToolAnnotations;
}

/** A tool as the Assistant's model sees it. */
export interface AssistantTool {
  description: string;
  /** A JSON Schema object. */
  parameters: JsonSchema;
}

export interface CatalogueTool {
  name: string;
  mcp?: McpTool;
  assistant?: AssistantTool;
}

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** Lookups ask public databases (PubChem, ChEMBL, Open Targets, UniProt, RCSB PDB). */
const LOOKUP: ToolAnnotations = { readOnlyHint: true, openWorldHint: true };
/** Counted against the monthly allowance of utility and inference calls, never charged. */
const COUNTED: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Reserves money from the wallet: clients that confirm destructive tools confirm these. */
const CHARGES: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

const SHOW_ESTIMATE =
  "CHARGES THE USER'S WALLET. Before calling it, get the estimate (%s), show the user the cost in USD and get their go-ahead. The answer states reserved_usd, the most it can be charged.";

const FORMAT_ARG: Record<string, JsonSchema> = {
  format: { type: 'string', enum: ['png', 'svg'], default: 'png', description: 'png (default: every assistant shows it) or svg' },
};

/** A wait's timeout (docs/mcp.md, "Waiting"). */
export const DEFAULT_WAIT_SEC = 50;
export const MAX_WAIT_SEC = 600;
const TIMEOUT_ARG: Record<string, JsonSchema> = {
  timeout_seconds: {
    type: 'integer',
    minimum: 0,
    maximum: MAX_WAIT_SEC,
    default: DEFAULT_WAIT_SEC,
    description: `How long to wait for the end, in seconds (0: answer the status now; default ${DEFAULT_WAIT_SEC}). When it passes, the answer is the status so far: call again to keep waiting.`,
  },
};

/** Structures never leave with the Assistant's lookups, whoever asks. */
const NAMES_ONLY = 'Only names and identifiers are sent: structures (SMILES, InChI) are never sent by the Assistant.';

const lookup = (name: 'compounds' | 'bioactivity' | 'targets' | 'proteins' | 'structures' | 'properties', mcpWhat: string, assistant: AssistantTool): CatalogueTool => ({
  name: `lookup_${name}`,
  mcp: {
    title: `Look up ${name}`,
    description: `${mcpWhat} Each item carries its source, licence and a link to the record; cite them.`,
    route: { method: 'POST', url: `/lookup/${name}` },
    annotations: LOOKUP,
  },
  assistant,
});

export const CATALOGUE: readonly CatalogueTool[] = [
  {
    name: 'describe_molecules',
    mcp: {
      title: 'Describe molecules',
      description:
        'Molecular properties of 1 to 20 molecules given as SMILES (RDKit): formula, MW, cLogP, TPSA, HBD/HBA, rotatable bonds, QED, Lipinski and Veber rules, PAINS and Brenk alerts, canonical SMILES, InChI and InChIKey. A bad SMILES is an item with an error, not a failure.',
      route: { method: 'POST', url: '/describe' },
      annotations: READ,
    },
    assistant: {
      description: 'RDKit properties of molecules given as SMILES: formula, weight, cLogP, TPSA, donors, acceptors, QED, rule checks and alerts.',
      parameters: obj({ smiles: smilesList }, ['smiles']),
    },
  },
  {
    name: 'depict_molecules',
    mcp: {
      title: 'Draw molecules',
      description: 'Draws 1 to 20 molecules given as SMILES as 2D structure images (PNG by default) that you can show the user.',
      route: { method: 'POST', url: '/depict' },
      extra: FORMAT_ARG,
      annotations: READ,
    },
    assistant: {
      description: 'Draws molecules given as SMILES; the drawings (SVG) are shown to the user, the model is told which were drawn.',
      parameters: obj({ smiles: smilesList }, ['smiles']),
    },
  },
  {
    name: 'depict_reactions',
    mcp: {
      title: 'Draw reactions',
      description: 'Draws 1 to 20 reactions given as reaction SMILES (reactants>agents>products) as images (PNG by default).',
      route: { method: 'POST', url: '/depict/reactions' },
      extra: FORMAT_ARG,
      annotations: READ,
    },
  },
  lookup('compounds', 'PubChem compounds by name (CID, SMILES, title). Names only: a SMILES or InChI is not sent.', {
    description: 'PubChem: compound names to CIDs, titles and SMILES.',
    parameters: compoundNames,
  }),
  lookup('bioactivity', 'ChEMBL: molecules, targets, their activities, and similarity or substructure search (structures are sent only for keys that allow it).', {
    description: `ChEMBL molecules, targets and activities by ChEMBL ID or name. ${NAMES_ONLY}`,
    parameters: lookupArgs('bioactivity', { limit: limit(100) }),
  }),
  lookup('targets', 'Open Targets: target-disease associations and drugs, by gene symbol, Ensembl gene id or disease id.', {
    description: `Open Targets: target-disease associations and drugs by gene symbol, Ensembl ID or disease. ${NAMES_ONLY}`,
    parameters: lookupArgs('targets', { limit: limit(100) }),
  }),
  lookup('proteins', 'UniProt: protein entries by accession, or a search by gene or protein name (optionally an organism).', {
    description: `UniProt entries by accession, or search by gene or protein name. ${NAMES_ONLY}`,
    parameters: lookupArgs('proteins', { organism: { type: 'string', maxLength: 100 } }),
  }),
  lookup('structures', 'RCSB PDB: structure entries by PDB id, by UniProt accession, or a free-text search.', {
    description: `RCSB PDB entries by ID, by UniProt accession, or free-text search. ${NAMES_ONLY}`,
    parameters: lookupArgs('structures', { limit: limit(100) }),
  }),
  lookup('properties', 'PubChem: measured physical properties of compounds (boiling and melting point, density, vapour pressure, ...).', {
    description: `Measured properties from PubChem (boiling point, melting point, density, ...) by CID or name. ${NAMES_ONLY}`,
    parameters: lookupArgs('properties'),
  }),
  {
    name: 'list_job_types',
    mcp: {
      title: 'List job types',
      description:
        'The compute job types (properties, conformers, optimize, docking, mpnn_train, ...). Give job_type to get the JSON Schema of its payload, which estimate_job and submit_job take.',
      input: { type: 'object', properties: { job_type: jobTypeArg('A job type: answers its payload schema') }, additionalProperties: false },
      scope: 'read',
      annotations: READ,
    },
    assistant: {
      description: 'The compute job types with their summaries; with job_type, the JSON Schema of its payload (what estimate_job takes).',
      parameters: obj({ job_type: jobTypeArg('A job type: answers its payload schema') }),
    },
  },
  {
    name: 'estimate_job',
    mcp: {
      title: 'Estimate a job',
      description:
        'What a compute job would cost (USD) and how long it would run, without starting it or charging anything. Do this before submit_job and show the cost to the user.',
      route: { method: 'POST', url: '/jobs/estimate' },
      annotations: READ,
    },
    assistant: { description: 'The cost and runtime of one job, without running it (POST /jobs/estimate).', parameters: jobEstimateArgs },
  },
  {
    name: 'estimate_workflow',
    assistant: { description: 'The cost and runtime of a workflow run with its inputs, without running it.', parameters: obj(workflowSource) },
  },
  {
    name: 'submit_job',
    mcp: {
      title: 'Submit a job (charges your wallet)',
      description: `Starts a compute job. ${SHOW_ESTIMATE.replace('%s', 'estimate_job with the same job_type, payload and resource')} Then wait_for_job.`,
      route: { method: 'POST', url: '/jobs/submit' },
      idempotent: true,
      charges: true,
      annotations: CHARGES,
    },
  },
  {
    name: 'wait_for_job',
    mcp: {
      title: 'Wait for a job',
      description: 'Waits until a job ends (completed, error or cancelled) or the timeout passes, and answers its status and progress. timeout_seconds 0 reads the status now.',
      route: { method: 'GET', url: '/jobs/status' },
      extra: TIMEOUT_ARG,
      annotations: READ,
    },
  },
  {
    name: 'get_job_result',
    mcp: {
      title: 'Read a job result',
      description: 'The result of a completed job (JSON; a large one as a link to read). Answers job-not-finished while it runs: wait_for_job first.',
      route: { method: 'GET', url: '/jobs/result' },
      annotations: READ,
    },
    assistant: {
      description:
        "One of the user's jobs with its stored result (energies, conformers, poses and scores; structures left out). Use it to answer questions about existing results instead of proposing new work.",
      parameters: obj({ process_id: { type: 'string' } }, ['process_id']),
    },
  },
  {
    name: 'list_jobs',
    mcp: {
      title: 'List jobs',
      description: "The user's jobs, newest first, with status, cost and result artifact; filter by status (comma list), job_type or q (name or id).",
      route: { method: 'GET', url: '/jobs/list' },
      annotations: READ,
    },
    assistant: {
      description: "The user's recent jobs, newest first; job_type filters them (conformers, docking, ...).",
      parameters: obj({ status: { type: 'string' }, job_type: { type: 'string' }, limit: limit(50) }),
    },
  },
  { name: 'get_job', assistant: { description: 'One of the user\u2019s jobs.', parameters: obj({ process_id: { type: 'string' } }, ['process_id']) } },
  {
    name: 'cancel_job',
    mcp: {
      title: 'Cancel a job',
      description: 'Cancels a queued or running job; the runtime it used is charged. Ask the user first.',
      route: { method: 'DELETE', url: '/jobs/cancel' },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  },
  {
    name: 'list_workflow_templates',
    mcp: {
      title: 'List workflow templates',
      description:
        'Built-in workflows (library triage, solubility screen, similarity expansion, ...) with their specs and inputs; start one with start_workflow_run and template_id.',
      route: { method: 'GET', url: '/workflows/templates' },
      annotations: READ,
    },
  },
  {
    name: 'validate_workflow',
    mcp: {
      title: 'Validate a workflow',
      description: 'Checks a workflow spec (a DAG of job steps) and reports every problem with its location, and the step order. Charges nothing.',
      route: { method: 'POST', url: '/workflows/validate' },
      annotations: READ,
    },
  },
  {
    name: 'estimate_workflow_run',
    mcp: {
      title: 'Estimate a workflow run',
      description:
        'What a run of a workflow spec with these inputs would cost (USD, total and per step) and how long it would take. Charges nothing. Do this before start_workflow_run and show the cost.',
      route: { method: 'POST', url: '/workflows/estimate' },
      annotations: READ,
    },
  },
  {
    name: 'start_workflow_run',
    mcp: {
      title: 'Start a workflow run (charges your wallet)',
      description: `Starts a run of a template (template_id), a saved workflow or an inline spec, with its inputs. ${SHOW_ESTIMATE.replace('%s', "estimate_workflow_run with the template's spec and the same inputs")} Then wait_for_workflow_run.`,
      route: { method: 'POST', url: '/workflows/runs' },
      idempotent: true,
      charges: true,
      annotations: CHARGES,
    },
  },
  {
    name: 'wait_for_workflow_run',
    mcp: {
      title: 'Follow a workflow run',
      description:
        "Waits until a run ends (completed, failed or cancelled) or the timeout passes, and answers the run: each step's state, cost so far and the outputs (artifact ids). timeout_seconds 0 reads it now.",
      route: { method: 'GET', url: '/workflows/runs/:run_id/status' },
      extra: TIMEOUT_ARG,
      annotations: READ,
    },
  },
  { name: 'list_runs', assistant: { description: "The user's recent workflow runs.", parameters: obj({ status: { type: 'string' }, limit: limit(50) }) } },
  { name: 'get_run', assistant: { description: 'One of the user\u2019s workflow runs with its steps.', parameters: obj({ run_id: { type: 'string' } }, ['run_id']) } },
  {
    name: 'list_models',
    mcp: {
      title: 'List models',
      description:
        "The models predict can use: public ones (public/<id>, e.g. public/esol-logs for aqueous solubility) and the user's own trained ones (user/<name>), with task, target and units.",
      route: { method: 'GET', url: '/inference/models' },
      annotations: READ,
    },
  },
  {
    name: 'predict',
    mcp: {
      title: 'Predict properties',
      description:
        "Predictions of a model for 1 to 100 SMILES, with uncertainty and whether each molecule is in the model's applicability domain (in_domain). Counts one call against the monthly allowance; never charged. Models: list_models.",
      route: { method: 'POST', url: '/inference/predict' },
      idempotent: true,
      annotations: COUNTED,
    },
  },
  {
    name: 'run_utility',
    mcp: {
      title: 'Run a cheminformatics utility',
      description:
        "RDKit utilities on up to 100 molecules: convert (SMILES, InChI, InChIKey, molblock, formula), fingerprints, similarity (Tanimoto, Dice, cosine), substructure (SMARTS), mcs (maximum common substructure), rgroups (R-group decomposition). input is the chosen tool's input. Counts one call against the monthly allowance; never charged.",
      route: { method: 'POST', url: '/utilities/run' },
      idempotent: true,
      annotations: COUNTED,
    },
  },
  {
    name: 'list_artifacts',
    mcp: {
      title: 'List artifacts',
      description: "The user's stored artifacts (uploaded molecule sets and job results), one item per port, newest first.",
      route: { method: 'GET', url: '/artifacts' },
      annotations: READ,
    },
    assistant: {
      description:
        "The user's recent artifacts, newest first, one item per port: uploads (origin upload, named by the user or after the file) and results of jobs and workflow runs (origin job). kind filters by the port's kind (molecules: molecule sets).",
      parameters: obj({ kind: { type: 'string', maxLength: 100 }, limit: limit(50) }),
    },
  },
  {
    name: 'read_artifact',
    mcp: {
      title: 'Read an artifact',
      description:
        'Without port or record: what an artifact holds (its ports, formats and records). With port and/or record: that part, shown inline when small (CSV, SDF, JSON, SVG, PNG), else as a link to read.',
      route: { method: 'GET', url: '/artifacts/:artifact_id/download' },
      annotations: READ,
    },
  },
  { name: 'get_artifact', assistant: { description: 'One of the user\u2019s artifacts.', parameters: obj({ artifact_id: { type: 'string' } }, ['artifact_id']) } },
  {
    name: 'cite_papers',
    mcp: {
      title: 'Papers to cite',
      description: 'What to cite for a job (process_id) or a workflow run (workflow_run_id): the papers behind the methods and data it used, formatted, with a BibTeX bundle.',
      route: { method: 'GET', url: '/papers/cite' },
      annotations: READ,
    },
  },
  {
    name: 'get_wallet',
    mcp: {
      title: 'Wallet balance',
      description: 'The wallet: balance, reserved by running work, and available (USD).',
      route: { method: 'GET', url: '/wallet' },
      annotations: READ,
    },
  },
  {
    name: 'estimate_engine_job',
    assistant: {
      description:
        'The cost and runtime of a quantum-chemistry, conformer, docking, pKa, tautomer or bond-energy job (xtb, MOPAC, Open Babel, Vina, RDKit) on molecules or a molecule set, as approving its plan card would reserve them; nothing runs. Docking: also the box and its group.',
      parameters: obj(engineJob, ['job_type']),
    },
  },
  {
    name: 'propose_engine_job',
    assistant: {
      description:
        'Proposes an engine job (as estimate_engine_job) to the user as a plan card: a one-step workflow run with its estimate. Nothing runs and nothing is charged until the user approves the card. Cards expire after 24 hours.',
      parameters: obj({ title: { type: 'string', minLength: 1, maxLength: 200 }, ...engineJob }, ['title', 'job_type']),
    },
  },
  {
    name: 'propose_plan',
    assistant: {
      description:
        'Proposes a workflow run to the user as a plan card with its estimate. Nothing runs and nothing is charged: the user approves or rejects the card. Cards expire after 24 hours.',
      parameters: obj({ title: { type: 'string', minLength: 1, maxLength: 200 }, ...workflowSource }, ['title']),
    },
  },
];

/** The tools MCP offers, in catalogue order. */
export const MCP_CATALOGUE = CATALOGUE.flatMap((t) => (t.mcp ? [{ name: t.name, ...t.mcp }] : []));

/** The tools the Assistant's model sees, in catalogue order. */
export const ASSISTANT_CATALOGUE = CATALOGUE.flatMap((t) => (t.assistant ? [{ name: t.name, ...t.assistant }] : []));
