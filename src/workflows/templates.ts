// The built-in workflow templates (GET /workflows/templates; docs/workflows.md): real specs,
// runnable as they are (POST /workflows/runs with template_id) or forked into a definition.
// test/workflows/templates.test.ts runs each end to end.
import type { WorkflowSpec } from './spec.js';

export interface Template {
  template_id: string;
  name: string;
  description: string;
  spec: WorkflowSpec;
}

/** A per-molecule job of the profile template: a step over the molecules whose result its table joins. */
interface ProfileSource {
  id: 'properties' | 'pka' | 'tautomers' | 'bde' | 'reactivity';
  params: Record<string, unknown>;
}

/**
 * The profile's jobs (docs/workflows.md, "Templates", profile), each a step of the same job type
 * over the molecules and a column group of the table (profile_table joins their results).
 */
const PROFILE_SOURCES: readonly ProfileSource[] = [
  { id: 'properties', params: {} },
  { id: 'pka', params: { ph: '$inputs.ph' } },
  { id: 'tautomers', params: { solvent: 'water' } },
  { id: 'bde', params: { energies: 'gfn2' } },
  // The top Fukui sites.
  { id: 'reactivity', params: { method: 'gfn2' } },
];

/** The profile template: its sources' steps in parallel, then the table of their results. */
function profileTemplate(sources: readonly ProfileSource[]): Template {
  const fukui = sources.some((x) => x.id === 'reactivity');
  const spec: WorkflowSpec = {
    name: 'Molecule profile',
    description: `${sources.map((x) => x.id).join(', ')} -> profile_table`,
    inputs: {
      library: { type: 'molecules', description: 'The molecules: an uploaded molecule set (artifact id) or a list of SMILES (at most 1,000)' },
      ph: { type: 'number', default: 7.4, description: 'The pH of the charge state (pka)' },
    },
    steps: [
      ...sources.map((x) => ({ id: x.id, job_type: x.id, inputs: { molecules: '$inputs.library' }, params: x.params })),
      { id: 'table', job_type: 'profile_table', inputs: Object.fromEntries(sources.map((x) => [x.id, `$steps.${x.id}.outputs.result`])) },
    ],
    outputs: {
      table: '$steps.table.outputs.table',
      profile: '$steps.table.outputs.result',
      ...Object.fromEntries(sources.map((x) => [x.id, `$steps.${x.id}.outputs.result`])),
    },
  };
  return {
    template_id: 'profile',
    name: 'Molecule profile',
    description: `Each molecule's properties, its charge state at a pH (7.4 unless given; pKa), its main tautomer in water and its weakest C-H bond (GFN2 bond dissociation enthalpies)${fukui ? ', with its top Fukui sites (reactivity)' : ''}: one table, a row per molecule`,
    spec,
  };
}

export const TEMPLATES: readonly Template[] = [
  {
    template_id: 'library-triage',
    name: 'Library triage',
    description: 'Describe a library, keep the drug-like molecules, cluster them and draw the clustered set',
    spec: {
      name: 'Library triage',
      description: 'properties -> filter -> cluster -> depict',
      inputs: {
        library: { type: 'molecules', description: 'The library: an uploaded molecule set (artifact id) or a list of SMILES' },
        expression: { type: 'string', default: 'mw <= 500 and clogp <= 5 and not pains', description: 'The filter expression (its syntax: docs/jobs.md, "filter")' },
        cutoff: { type: 'number', default: 0.4, description: 'Butina distance cutoff' },
      },
      steps: [
        { id: 'describe', job_type: 'properties', inputs: { molecules: '$inputs.library' } },
        { id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: '$inputs.expression' } },
        { id: 'cluster', job_type: 'cluster', inputs: { molecules: '$steps.keep.outputs.molecules' }, params: { cutoff: '$inputs.cutoff' } },
        { id: 'draw', job_type: 'depict', inputs: { molecules: '$steps.cluster.outputs.assignments' } },
      ],
      outputs: {
        properties: '$steps.describe.outputs.table',
        kept: '$steps.keep.outputs.molecules',
        clusters: '$steps.cluster.outputs.clusters',
        drawings: '$steps.draw.outputs.depictions',
      },
    },
  },
  {
    template_id: 'solubility-screen',
    name: 'Solubility screen',
    description: 'Keep the molecules in range and predict their aqueous solubility (log S) with the public ESOL model',
    spec: {
      name: 'Solubility screen',
      description: 'filter -> mpnn_predict',
      inputs: {
        library: { type: 'molecules', description: 'The molecules: an uploaded molecule set (artifact id) or a list of SMILES' },
        expression: { type: 'string', default: 'mw <= 600 and heavy_atoms >= 2', description: 'Which molecules to predict: a filter expression (docs/jobs.md, "filter")' },
        model: { type: 'model', default: 'public/esol-logs', description: 'public/<id> or user/<name>' },
      },
      steps: [
        { id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: '$inputs.expression' } },
        { id: 'predict', job_type: 'mpnn_predict', inputs: { molecules: '$steps.keep.outputs.molecules' }, params: { model: '$inputs.model' } },
      ],
      outputs: { kept: '$steps.keep.outputs.molecules', predictions: '$steps.predict.outputs.result' },
    },
  },
  {
    template_id: 'similarity-expansion',
    name: 'Similarity expansion',
    description: 'Find the neighbours of a query in a library, describe them, keep the drug-like ones and draw them',
    spec: {
      name: 'Similarity expansion',
      description: 'similarity_search -> properties, filter -> depict',
      inputs: {
        query: { type: 'string', description: 'The query molecule (SMILES)' },
        library: { type: 'molecules', description: 'The library: an uploaded molecule set (artifact id) or a list of SMILES' },
        threshold: { type: 'number', default: 0.5, description: 'Smallest Tanimoto similarity' },
        expression: { type: 'string', default: 'lipinski and not pains', description: 'Which neighbours to keep: a filter expression (docs/jobs.md, "filter")' },
      },
      steps: [
        { id: 'search', job_type: 'similarity_search', inputs: { molecules: '$inputs.library' }, params: { query: '$inputs.query', threshold: '$inputs.threshold' } },
        { id: 'describe', job_type: 'properties', inputs: { molecules: '$steps.search.outputs.hits' } },
        { id: 'keep', job_type: 'filter', inputs: { molecules: '$steps.search.outputs.hits' }, params: { expression: '$inputs.expression' } },
        { id: 'draw', job_type: 'depict', inputs: { molecules: '$steps.keep.outputs.molecules' } },
      ],
      outputs: {
        hits: '$steps.search.outputs.hits',
        properties: '$steps.describe.outputs.table',
        kept: '$steps.keep.outputs.molecules',
        drawings: '$steps.draw.outputs.depictions',
      },
    },
  },
  {
    template_id: 'xtb-screen',
    name: 'xtb screen',
    description: 'Keep the molecules in range, optimise them (GFN2-xTB by default) and tabulate their energies, HOMO-LUMO gaps and dipoles',
    spec: {
      name: 'xtb screen',
      description: 'filter -> optimize',
      inputs: {
        library: { type: 'molecules', description: 'The library: an uploaded molecule set (artifact id) or a list of SMILES; at most 1,000 molecules reach the optimisation' },
        expression: {
          type: 'string',
          default: 'heavy_atoms <= 40 and mw <= 600',
          description: 'Which molecules to optimise: a filter expression (docs/jobs.md, "filter")',
        },
        method: { type: 'string', default: 'gfn2', description: 'gfn2 (GFN2-xTB), gfn1 (GFN1-xTB) or gfnff (GFN-FF) with xtb; pm7 or pm6 with MOPAC' },
        solvent: { type: 'string', default: 'water', description: 'The implicit solvent: an ALPB name (water, methanol, dmso, ...; docs/engines.md); COSMO with MOPAC methods' },
      },
      steps: [
        { id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: '$inputs.expression' } },
        { id: 'optimize', job_type: 'optimize', inputs: { molecules: '$steps.keep.outputs.molecules' }, params: { method: '$inputs.method', solvent: '$inputs.solvent' } },
      ],
      outputs: {
        kept: '$steps.keep.outputs.molecules',
        structures: '$steps.optimize.outputs.structures',
        table: '$steps.optimize.outputs.table',
      },
    },
  },
  {
    template_id: 'conformer-search',
    name: 'Conformer search',
    description: 'Search the conformers of each molecule, then the frequencies and thermochemistry of its lowest conformer (in the gas phase)',
    spec: {
      name: 'Conformer search',
      description: 'conformers -> frequencies of each lowest conformer',
      inputs: {
        library: { type: 'molecules', description: 'The molecules: an uploaded molecule set (artifact id) or a list of SMILES (at most 1,000)' },
        method: { type: 'string', default: 'gfn2', description: 'gfn2 (GFN2-xTB, candidates pre-optimised with GFN-FF) or gfnff (GFN-FF), for both steps' },
        max_conformers: { type: 'integer', default: 20, description: 'Conformers kept per molecule at most (the lowest)' },
        energy_window_kcal: { type: 'number', default: 6, description: 'Conformers more than this above the lowest (kcal/mol) are dropped' },
        temperature_k: { type: 'number', default: 298.15, description: 'Temperature of the Boltzmann weights and of the thermochemistry (K)' },
      },
      steps: [
        {
          id: 'search',
          job_type: 'conformers',
          inputs: { molecules: '$inputs.library' },
          params: { method: '$inputs.method', max_conformers: '$inputs.max_conformers', energy_window_kcal: '$inputs.energy_window_kcal', temperature_k: '$inputs.temperature_k' },
        },
        {
          id: 'frequencies',
          job_type: 'frequencies',
          inputs: { molecules: '$steps.search.outputs.lowest' },
          params: { method: '$inputs.method', temperature_k: '$inputs.temperature_k' },
        },
      ],
      outputs: {
        conformers: '$steps.search.outputs.structures',
        conformer_table: '$steps.search.outputs.table',
        lowest: '$steps.search.outputs.lowest',
        structures: '$steps.frequencies.outputs.structures',
        thermochemistry: '$steps.frequencies.outputs.table',
      },
    },
  },
  {
    template_id: 'conformers-dft',
    name: 'Conformers re-ranked at DFT',
    description:
      'Search the conformers of each molecule with GFN2-xTB (candidates pre-optimised with GFN-FF, then optimised with GFN2), then re-rank the lowest of each ensemble by DFT single points',
    spec: {
      name: 'Conformers re-ranked at DFT',
      description: 'conformers (GFN2) -> rerank (DFT)',
      inputs: {
        library: { type: 'molecules', description: 'The molecules: an uploaded molecule set (artifact id) or a list of SMILES (at most 1,000)' },
        max_conformers: { type: 'integer', default: 20, description: 'Conformers kept per molecule by the GFN2 search at most (the lowest)' },
        energy_window_kcal: { type: 'number', default: 6, description: 'GFN2 conformers more than this above the lowest (kcal/mol) are dropped' },
        top_n: { type: 'integer', default: 5, description: 'Conformers of each molecule re-ranked at DFT: the lowest by GFN2 energy' },
        dft_method: {
          type: 'string',
          default: 'b3lyp-d3bj',
          description: 'The DFT or HF method: hf, pbe, pbe0, b3lyp, wb97x-d (Psi4), b3lyp-d3bj, pbe0-d3bj (NWChem) (docs/engines.md, "DFT")',
        },
        basis: { type: 'string', default: 'def2-svp', description: 'The basis set: def2-svp, def2-tzvp, 6-31g*, cc-pvdz' },
        temperature_k: { type: 'number', default: 298.15, description: 'Temperature of the Boltzmann weights (K)' },
      },
      steps: [
        {
          id: 'search',
          job_type: 'conformers',
          inputs: { molecules: '$inputs.library' },
          params: { method: 'gfn2', max_conformers: '$inputs.max_conformers', energy_window_kcal: '$inputs.energy_window_kcal', temperature_k: '$inputs.temperature_k' },
        },
        {
          id: 'rerank',
          job_type: 'rerank',
          inputs: { molecules: '$steps.search.outputs.structures' },
          params: { method: '$inputs.dft_method', basis: '$inputs.basis', top_n: '$inputs.top_n', temperature_k: '$inputs.temperature_k' },
        },
      ],
      outputs: {
        conformers: '$steps.search.outputs.structures',
        conformer_table: '$steps.search.outputs.table',
        reranked: '$steps.rerank.outputs.structures',
        reranked_table: '$steps.rerank.outputs.table',
      },
    },
  },
  {
    template_id: 'dock-library',
    name: 'Dock a library',
    description: 'Keep the molecules that pass a filter, dock them with AutoDock Vina into an RCSB PDB entry around one of its ligands, and keep the best by score',
    spec: {
      name: 'Dock a library',
      description: 'filter -> docking (the best N ligands by score)',
      inputs: {
        library: { type: 'molecules', description: 'The library: an uploaded molecule set (artifact id) or a list of SMILES; at most 1,000 may pass the filter' },
        pdb_id: { type: 'string', description: 'The receptor: an RCSB PDB entry, e.g. 1IEP' },
        site: { type: 'string', description: "The residue name of the entry's ligand to dock around (the box is its extent plus padding), e.g. STI in 1IEP" },
        expression: {
          type: 'string',
          default: 'mw <= 500 and clogp <= 5 and hbd <= 5 and hba <= 10 and rotatable_bonds <= 10',
          description: 'Which molecules to dock: a filter expression (docs/jobs.md, "filter")',
        },
        exhaustiveness: { type: 'integer', default: 8, description: "Vina's exhaustiveness (1 to 64)" },
        padding: { type: 'number', default: 4, description: 'Space around the site on every side (A)' },
        best: { type: 'integer', default: 10, description: 'How many ligands to keep, best score first' },
      },
      steps: [
        { id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: '$inputs.expression' } },
        {
          id: 'dock',
          job_type: 'docking',
          inputs: { molecules: '$steps.keep.outputs.molecules' },
          params: { pdb_id: '$inputs.pdb_id', box_site: '$inputs.site', padding: '$inputs.padding', exhaustiveness: '$inputs.exhaustiveness', keep_best: '$inputs.best' },
        },
      ],
      outputs: { kept: '$steps.keep.outputs.molecules', best: '$steps.dock.outputs.best', poses: '$steps.dock.outputs.poses', scores: '$steps.dock.outputs.table' },
    },
  },
  profileTemplate(PROFILE_SOURCES),
];

export function templateById(id: string): Template | undefined {
  return TEMPLATES.find((t) => t.template_id === id);
}
