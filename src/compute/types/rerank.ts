// `rerank` (docs/engines.md, "DFT"): a conformer ensemble re-ranked at DFT. The input is a
// `conformers` result's `structures` port (its records carry their structure's `index` and GFN2
// `energy_hartree`), an uploaded SDF (records grouped by their `index` field, else by their
// title), or molblocks inline (one ensemble). Of each ensemble the `top_n` lowest by their xtb
// energy (the given order when a record has none) get a DFT single point, or an optimisation;
// the item lists them lowest first with the DFT energy, the relative energy in kcal/mol, the
// Boltzmann weight at `temperature_k` and the xtb relative energy they came with.
import path from 'node:path';
import fs from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { dftPaperMethods, enginePaperMethods } from '../../engines/dft/methods.js';
import { boltzmannWeights, KCAL_PER_HARTREE } from '../../engines/qm/ensemble.js';
import { ItemFailure, type EngineTools, type Structure } from '../../engines/tools.js';
import type { Estimate, EstimateContext, JobType, RunContext } from '../job-type.js';
import { dftEstimate } from './kit/dft-cost.js';
import { approximateFunctions, checkDftPayload, DFT_ENGINE_SETS, dftEngineOf, dftEngines, dftItemFields, dftOnlyFields, runDftItem, withDftDefaults } from './kit/dft.js';
import { engineJob } from './kit/engine-job.js';
import { countStructures, structureFields } from './kit/payload.js';
import { QM_CALL_MS } from './kit/qm.js';
import { RerankResult } from './kit/results.js';
import { engineOutput, runItems, type ItemOutput } from './kit/run.js';
import { loadStructures } from './kit/structures.js';

const DEFAULT_METHOD = 'b3lyp-d3bj';

const Payload = Type.Object(
  {
    ...structureFields(),
    ...dftOnlyFields(DEFAULT_METHOD),
    top_n: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Conformers of each ensemble re-ranked: the lowest by their xtb energy' })),
    optimize: Type.Optional(Type.Boolean({ default: false, description: 'Optimise each conformer at the DFT level before its energy (else a single point)' })),
    max_iterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 5_000, description: 'Optimisation cycles at most (engine default when absent)' })),
    temperature_k: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 5_000, default: 298.15, description: 'Temperature of the Boltzmann weights, K' })),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

const withDefaults = (p: Payload) => withDftDefaults(p, DEFAULT_METHOD);

/** One ensemble: its conformers as given (in input order), its id and name. */
export interface Ensemble {
  index: number;
  id: string;
  name: string | null;
  members: Structure[];
}

/** What puts a record in its ensemble: its structure's `index` (a conformer search's records), else its title, else nothing (one ensemble). */
function ensembleKey(r: { metrics?: Record<string, number>; name?: string }): string {
  const index = r.metrics?.index;
  if (typeof index === 'number' && Number.isFinite(index)) return `index ${index}`;
  return r.name ? `name ${r.name}` : 'all';
}

/** The records grouped into ensembles, in order of first appearance. */
export function ensemblesOf(structures: Structure[]): Ensemble[] {
  const byKey = new Map<string, Ensemble>();
  for (const s of structures) {
    const key = ensembleKey(s);
    let e = byKey.get(key);
    if (!e) {
      const index = s.metrics?.index;
      e = { index: byKey.size, id: typeof index === 'number' && key.startsWith('index') ? String(index) : (s.name ?? String(byKey.size)), name: s.name ?? null, members: [] };
      byKey.set(key, e);
    }
    e.members.push(s);
  }
  return [...byKey.values()];
}

/** The conformers re-ranked: the `topN` lowest by their xtb energy_hartree when every one has it, else the first `topN` in input order. */
export function chosen(members: Structure[], topN: number): { picked: Structure[]; byEnergy: boolean } {
  const byEnergy = members.every((m) => typeof m.metrics?.energy_hartree === 'number');
  const ordered = byEnergy ? [...members].sort((a, b) => a.metrics!.energy_hartree! - b.metrics!.energy_hartree!) : members;
  return { picked: ordered.slice(0, topN), byEnergy };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

async function rerankOne(ctx: RunContext<Payload>, e: Ensemble, ensembles: number, tools: EngineTools, dir: string): Promise<ItemOutput> {
  const p = withDefaults(ctx.payload);
  const { picked, byEnergy } = chosen(e.members, p.top_n ?? 10);
  const xtbLowest = byEnergy ? Math.min(...picked.map((s) => s.metrics!.energy_hartree!)) : null;
  const done: { s: Structure; molblock: string; energy: number; basisFunctions: number | null }[] = [];
  for (const [k, s] of picked.entries()) {
    const sub = path.join(dir, `c${k + 1}`);
    fs.mkdirSync(sub);
    try {
      const { r } = await runDftItem(p, s, tools, sub, { optimize: p.optimize ? { maxIterations: p.max_iterations } : undefined });
      done.push({ s, molblock: r.molblock, energy: r.energyHartree, basisFunctions: r.basisFunctions });
    } catch (err) {
      // A ranking with a conformer missing would mislead: the ensemble fails, naming the conformer.
      if (err instanceof ItemFailure) throw new ItemFailure(err.code, `conformer ${s.id} (${k + 1} of ${picked.length}): ${err.message}`);
      throw err;
    }
    ctx.progress(
      0.02 + (0.96 * (e.index + (k + 1) / picked.length)) / ensembles,
      `ensemble ${e.index + 1}: ${k + 1} of ${picked.length} conformers`,
      { done: k + 1, total: picked.length },
      false,
    );
  }
  done.sort((a, b) => a.energy - b.energy);
  const lowest = done[0]!.energy;
  const weights = boltzmannWeights(
    done.map((c) => c.energy),
    p.temperature_k ?? 298.15,
  );
  const conformers = done.map((c, j) => ({
    id: c.s.id,
    molblock: c.molblock,
    energy_hartree: c.energy,
    relative_kcal: round6((c.energy - lowest) * KCAL_PER_HARTREE),
    boltzmann_weight: round6(weights[j]!),
    xtb_relative_kcal: xtbLowest === null ? null : round6((c.s.metrics!.energy_hartree! - xtbLowest) * KCAL_PER_HARTREE),
  }));
  const props = conformers.map((c, j) => ({
    rank: j + 1,
    input_id: c.id,
    energy_hartree: c.energy_hartree,
    relative_kcal: c.relative_kcal,
    boltzmann_weight: c.boltzmann_weight,
    xtb_relative_kcal: c.xtb_relative_kcal,
  }));
  return {
    fields: { conformers, ensemble_size: e.members.length, reranked: conformers.length, ranked_by_xtb_energy: byEnergy, basis_functions: done[0]!.basisFunctions },
    structures: conformers.map((c, j) => ({ molblock: c.molblock, props: props[j]! })),
    row: props[0]!,
    rows: props,
  };
}

/** The calculations a payload asks for and each one's basis functions: the ensembles read at submit (an uploaded set's records, or the inline molblocks). */
async function rerankEstimate(p: Payload, ctx: EstimateContext): Promise<Estimate> {
  const d = withDefaults(p);
  checkDftPayload(d);
  const n = await countStructures(p, ctx);
  const topN = p.top_n ?? 10;
  const firsts: { input: string; calcs: number }[] = [];
  if (p.molecules) firsts.push({ input: p.molecules[0]!, calcs: Math.min(n, topN) });
  else if (ctx.readMolecules) {
    const sizes = new Map<string, { input: string; size: number }>();
    for await (const r of ctx.readMolecules(p.input_artifact_id!, p.port)) {
      const key = ensembleKey(r);
      const g = sizes.get(key);
      if (g) g.size++;
      else sizes.set(key, { input: r.molblock ?? r.smiles, size: 1 });
    }
    for (const g of sizes.values()) firsts.push({ input: g.input, calcs: Math.min(g.size, topN) });
  }
  const functions: number[] = [];
  if (firsts.length && ctx.structureInfo) {
    const infos = await ctx.structureInfo(firsts.map((f) => f.input));
    infos.forEach((info, i) => functions.push(...Array<number>(firsts[i]!.calcs).fill(info.error ? 0 : approximateFunctions(d.basis!, info))));
  }
  const calcs = firsts.length ? firsts.reduce((t, f) => t + f.calcs, 0) : Math.min(n, topN);
  return dftEstimate({ method: d.method, basis: d.basis!, engine: dftEngineOf(d), task: p.optimize ? 'optimize' : 'singlepoint', n: calcs, functions, threads: ctx.resource.vcpu });
}

const job = engineJob<Payload>('rerank', { structures: 'molecules', table: 'table' }, ['obabel', 'nwchem'], {
  summary:
    'A conformer ensemble re-ranked at DFT: the lowest by xtb energy get a DFT single point (or optimisation), returned lowest first with relative energies and Boltzmann weights',
  payload: Payload,
  result: RerankResult,
  methods: ['openbabel', ...new Set([...enginePaperMethods('psi4'), ...enginePaperMethods('nwchem')])],
  methodsOf: (p) => {
    const d = withDefaults(p);
    return [...dftPaperMethods(d.method, d.basis!, d.solvent, dftEngineOf(d)), 'openbabel'];
  },
  estimate: rerankEstimate,
  async run(ctx) {
    const p = withDefaults(ctx.payload);
    checkDftPayload(p);
    const ensembles = ensemblesOf(await loadStructures(ctx));
    // runItems runs one item per ensemble: its first record stands for it (index, id, name).
    const stand = ensembles.map((e) => ({ ...e.members[0]!, index: e.index, id: e.id, name: e.name ?? undefined }));
    const run = await runItems(ctx, stand, { perCallTimeoutMs: QM_CALL_MS, label: 'rerank' }, (s, tools, dir) => rerankOne(ctx, ensembles[s.index]!, ensembles.length, tools, dir));
    const engine = dftEngineOf(p);
    const carried = dftItemFields(p, ctx.deps.engines?.[engine]?.version ?? null);
    for (const it of run.items) Object.assign(it.fields, carried);
    return engineOutput('rerank', p.method, run, { solvent: p.solvent ?? null, temperature_k: p.temperature_k ?? 298.15, optimize: p.optimize ?? false, ...carried });
  },
});

/** The engines follow the payload's method and solvent (Psi4 or NWChem, with Open Babel). */
export const rerankJob: JobType<Payload> = { ...job, engines: (p) => dftEngines(withDefaults(p)), engineSets: DFT_ENGINE_SETS };
