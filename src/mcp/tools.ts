// The MCP tools (docs/mcp.md, "Tools"): each names the API route it calls, whose schemas make
// its input and whose scope it needs; a read-only key sees only the tools its scope allows.
// Descriptions are written for a model: what the tool does, when to use it, what comes next.
import type { CallToolResult, ContentBlock, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { JOB_TYPES } from '../compute/registry.js';
import { jobResult, readArtifact } from './artifacts.js';
import { startRun, submitJob, TIMEOUT_ARG, waitForJob, waitForRun } from './follow.js';
import { inlineRefs, type JsonSchema } from './schemas.js';
import { callRoute, ImageBudget, jsonResult, type Args, type ToolContext, type ToolDef } from './tool-kit.js';

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

/** depict_molecules and depict_reactions: each drawing as image content, each failure as text. */
async function depict(ctx: ToolContext, def: ToolDef, args: Args): Promise<CallToolResult> {
  const r = await callRoute<{ items: { svg: string | null; error: string | null; detail?: string | null }[] }>(ctx, def, args);
  const inputs = ((args.smiles ?? args.reactions) as string[] | undefined) ?? [];
  const content: ContentBlock[] = [];
  const budget = new ImageBudget();
  for (const [i, item] of r.items.entries()) {
    const label = `${i}: ${inputs[i] ?? ''}`;
    if (!item.svg) {
      content.push({ type: 'text', text: `${label} could not be drawn: ${item.error}${item.detail ? ` (${item.detail})` : ''}` });
      continue;
    }
    // Once the answer's images are at their limit, the rest are not even rasterised.
    const svg = args.format === 'svg';
    const data = budget.full ? '' : svg ? Buffer.from(item.svg).toString('base64') : (await ctx.png.render(item.svg)).toString('base64');
    if (!budget.take(data)) {
      content.push({ type: 'text', text: `${label} (drawing left out: this answer's images are at their limit)` });
      continue;
    }
    content.push({ type: 'text', text: label }, { type: 'image', mimeType: svg ? 'image/svg+xml' : 'image/png', data });
  }
  const note = budget.note('drawing');
  if (note) content.push({ type: 'text', text: note });
  return { content };
}

/** list_job_types: the job types (the registry the job service checks payloads against). */
async function listJobTypes(ctx: ToolContext, _def: ToolDef, args: Args): Promise<CallToolResult> {
  if (typeof args.job_type === 'string') {
    const t = JOB_TYPES.get(args.job_type);
    if (!t) return { isError: true, content: [{ type: 'text', text: `unknown job type "${args.job_type}"; known: ${[...JOB_TYPES.keys()].join(', ')}` }] };
    return jsonResult({ job_type: t.name, summary: t.summary, payload_schema: inlineRefs(t.payload, ctx.lookup) });
  }
  return jsonResult({ job_types: [...JOB_TYPES.values()].map((t) => ({ job_type: t.name, summary: t.summary })), next: 'list_job_types with job_type for its payload schema' });
}

const lookup = (name: string, what: string): ToolDef => ({
  name: `lookup_${name}`,
  title: `Look up ${name}`,
  description: `${what} Each item carries its source, licence and a link to the record; cite them.`,
  route: { method: 'POST', url: `/lookup/${name}` },
  annotations: LOOKUP,
});

export const TOOLS: ToolDef[] = [
  {
    name: 'describe_molecules',
    title: 'Describe molecules',
    description:
      'Molecular properties of 1 to 20 molecules given as SMILES (RDKit): formula, MW, cLogP, TPSA, HBD/HBA, rotatable bonds, QED, Lipinski and Veber rules, PAINS and Brenk alerts, canonical SMILES, InChI and InChIKey. A bad SMILES is an item with an error, not a failure.',
    route: { method: 'POST', url: '/describe' },
    annotations: READ,
  },
  {
    name: 'depict_molecules',
    title: 'Draw molecules',
    description: 'Draws 1 to 20 molecules given as SMILES as 2D structure images (PNG by default) that you can show the user.',
    route: { method: 'POST', url: '/depict' },
    extra: FORMAT_ARG,
    annotations: READ,
    run: depict,
  },
  {
    name: 'depict_reactions',
    title: 'Draw reactions',
    description: 'Draws 1 to 20 reactions given as reaction SMILES (reactants>agents>products) as images (PNG by default).',
    route: { method: 'POST', url: '/depict/reactions' },
    extra: FORMAT_ARG,
    annotations: READ,
    run: depict,
  },
  lookup('compounds', 'PubChem compounds by name (CID, SMILES, title). Names only: a SMILES or InChI is not sent.'),
  lookup('bioactivity', 'ChEMBL: molecules, targets, their activities, and similarity or substructure search (structures are sent only for keys that allow it).'),
  lookup('targets', 'Open Targets: target-disease associations and drugs, by gene symbol, Ensembl gene id or disease id.'),
  lookup('proteins', 'UniProt: protein entries by accession, or a search by gene or protein name (optionally an organism).'),
  lookup('structures', 'RCSB PDB: structure entries by PDB id, by UniProt accession, or a free-text search.'),
  lookup('properties', 'PubChem: measured physical properties of compounds (boiling and melting point, density, vapour pressure, ...).'),
  {
    name: 'list_job_types',
    title: 'List job types',
    description:
      'The compute job types (properties, conformers, optimize, docking, mpnn_train, ...). Give job_type to get the JSON Schema of its payload, which estimate_job and submit_job take.',
    input: { type: 'object', properties: { job_type: { type: 'string', description: 'A job type: answers its payload schema' } }, additionalProperties: false },
    scope: 'read',
    annotations: READ,
    run: listJobTypes,
  },
  {
    name: 'estimate_job',
    title: 'Estimate a job',
    description:
      'What a compute job would cost (USD) and how long it would run, without starting it or charging anything. Do this before submit_job and show the cost to the user.',
    route: { method: 'POST', url: '/jobs/estimate' },
    annotations: READ,
  },
  {
    name: 'submit_job',
    title: 'Submit a job (charges your wallet)',
    description: `Starts a compute job. ${SHOW_ESTIMATE.replace('%s', 'estimate_job with the same job_type, payload and resource')} Then wait_for_job.`,
    route: { method: 'POST', url: '/jobs/submit' },
    idempotent: true,
    charges: true,
    annotations: CHARGES,
    run: submitJob,
  },
  {
    name: 'wait_for_job',
    title: 'Wait for a job',
    description: 'Waits until a job ends (completed, error or cancelled) or the timeout passes, and answers its status and progress. timeout_seconds 0 reads the status now.',
    route: { method: 'GET', url: '/jobs/status' },
    extra: TIMEOUT_ARG,
    annotations: READ,
    run: waitForJob,
  },
  {
    name: 'get_job_result',
    title: 'Read a job result',
    description: 'The result of a completed job (JSON; a large one as a link to read). Answers job-not-finished while it runs: wait_for_job first.',
    route: { method: 'GET', url: '/jobs/result' },
    annotations: READ,
    run: jobResult,
  },
  {
    name: 'list_jobs',
    title: 'List jobs',
    description: "The user's jobs, newest first, with status, cost and result artifact; filter by status (comma list), job_type or q (name or id).",
    route: { method: 'GET', url: '/jobs/list' },
    annotations: READ,
  },
  {
    name: 'cancel_job',
    title: 'Cancel a job',
    description: 'Cancels a queued or running job; the runtime it used is charged. Ask the user first.',
    route: { method: 'DELETE', url: '/jobs/cancel' },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'list_workflow_templates',
    title: 'List workflow templates',
    description:
      'Built-in workflows (library triage, solubility screen, similarity expansion, ...) with their specs and inputs; start one with start_workflow_run and template_id.',
    route: { method: 'GET', url: '/workflows/templates' },
    annotations: READ,
  },
  {
    name: 'validate_workflow',
    title: 'Validate a workflow',
    description: 'Checks a workflow spec (a DAG of job steps) and reports every problem with its location, and the step order. Charges nothing.',
    route: { method: 'POST', url: '/workflows/validate' },
    annotations: READ,
  },
  {
    name: 'estimate_workflow_run',
    title: 'Estimate a workflow run',
    description:
      'What a run of a workflow spec with these inputs would cost (USD, total and per step) and how long it would take. Charges nothing. Do this before start_workflow_run and show the cost.',
    route: { method: 'POST', url: '/workflows/estimate' },
    annotations: READ,
  },
  {
    name: 'start_workflow_run',
    title: 'Start a workflow run (charges your wallet)',
    description: `Starts a run of a template (template_id), a saved workflow or an inline spec, with its inputs. ${SHOW_ESTIMATE.replace('%s', "estimate_workflow_run with the template's spec and the same inputs")} Then wait_for_workflow_run.`,
    route: { method: 'POST', url: '/workflows/runs' },
    idempotent: true,
    charges: true,
    annotations: CHARGES,
    run: startRun,
  },
  {
    name: 'wait_for_workflow_run',
    title: 'Follow a workflow run',
    description:
      "Waits until a run ends (completed, failed or cancelled) or the timeout passes, and answers the run: each step's state, cost so far and the outputs (artifact ids). timeout_seconds 0 reads it now.",
    route: { method: 'GET', url: '/workflows/runs/:run_id/status' },
    extra: TIMEOUT_ARG,
    annotations: READ,
    run: waitForRun,
  },
  {
    name: 'list_models',
    title: 'List models',
    description:
      "The models predict can use: public ones (public/<id>, e.g. public/esol-logs for aqueous solubility) and the user's own trained ones (user/<name>), with task, target and units.",
    route: { method: 'GET', url: '/inference/models' },
    annotations: READ,
  },
  {
    name: 'predict',
    title: 'Predict properties',
    description:
      "Predictions of a model for 1 to 100 SMILES, with uncertainty and whether each molecule is in the model's applicability domain (in_domain). Counts one call against the monthly allowance; never charged. Models: list_models.",
    route: { method: 'POST', url: '/inference/predict' },
    idempotent: true,
    annotations: COUNTED,
  },
  {
    name: 'run_utility',
    title: 'Run a cheminformatics utility',
    description:
      "RDKit utilities on up to 100 molecules: convert (SMILES, InChI, InChIKey, molblock, formula), fingerprints, similarity (Tanimoto, Dice, cosine), substructure (SMARTS), mcs (maximum common substructure), rgroups (R-group decomposition). input is the chosen tool's input. Counts one call against the monthly allowance; never charged.",
    route: { method: 'POST', url: '/utilities/run' },
    idempotent: true,
    annotations: COUNTED,
  },
  {
    name: 'list_artifacts',
    title: 'List artifacts',
    description: "The user's stored artifacts (uploaded molecule sets and job results), one item per port, newest first.",
    route: { method: 'GET', url: '/artifacts' },
    annotations: READ,
  },
  {
    name: 'read_artifact',
    title: 'Read an artifact',
    description:
      'Without port or record: what an artifact holds (its ports, formats and records). With port and/or record: that part, shown inline when small (CSV, SDF, JSON, SVG, PNG), else as a link to read.',
    route: { method: 'GET', url: '/artifacts/:artifact_id/download' },
    annotations: READ,
    run: readArtifact,
  },
  {
    name: 'cite_papers',
    title: 'Papers to cite',
    description: 'What to cite for a job (process_id) or a workflow run (workflow_run_id): the papers behind the methods and data it used, formatted, with a BibTeX bundle.',
    route: { method: 'GET', url: '/papers/cite' },
    annotations: READ,
  },
  {
    name: 'get_wallet',
    title: 'Wallet balance',
    description: 'The wallet: balance, reserved by running work, and available (USD).',
    route: { method: 'GET', url: '/wallet' },
    annotations: READ,
  },
];
