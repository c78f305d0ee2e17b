// Q. The chemistry questions (docs/performance.md, "Q. Chemistry questions"; docs/questions.md):
// `pka`, `tautomers` and `bde` on drug-sized molecules through the API, one job per molecule, two
// job slots: each type's wall time and cost, and each job's estimate against its charge (target
// within 2x).
import { DFT_MOLECULES } from './dft.js';
import { benchApi, type BenchInstance } from './instance.js';

export interface QuestionRow {
  type: string;
  molecule: string;
  runtimeSec: number;
  estimateSec: number;
  charged: number;
  ratio: number;
  summary: string;
  /** The estimate's assumptions (the model's terms: rdkit_runs, gfn2_optimisations, optimisation_atoms_squared, hessian_sec). */
  assumptions: Record<string, unknown>;
}

export interface QuestionFigure {
  type: string;
  wallSec: number;
  costUsd: number;
  rows: QuestionRow[];
}

/** What a result item says in a few words: the pKa values, the main tautomer, the weakest bond. */
function summaryOf(type: string, item: Record<string, any>): string {
  if (item.error) return `error ${item.error}`;
  if (type === 'pka') return `${item.sites.map((s: { atom_index: number; pka: number | null }) => `${s.atom_index}:${s.pka ?? '-'}`).join(' ')} -> charge ${item.dominant_charge}`;
  if (type === 'tautomers') return `${item.count} tautomers, main ${item.smiles} (${item.tautomers[0].fraction})`;
  const b = item.bonds[0];
  return `${item.bonds.length} bonds, weakest ${b.elements.join('-')} [${b.atoms.join(', ')}] ${b.bde_kcal_mol} kcal/mol`;
}

export async function questionFigure(inst: BenchInstance, type: string, payload: Record<string, unknown>, count: number): Promise<QuestionFigure> {
  const mols = DFT_MOLECULES.slice(0, count);
  const before = (await benchApi(inst, 'GET', '/wallet')).balance_usd as number;
  const t0 = performance.now();
  const ids: string[] = [];
  const assumptions: Record<string, unknown>[] = [];
  for (const [, smiles] of mols) assumptions.push((await benchApi(inst, 'POST', '/jobs/estimate', { job_type: type, payload: { molecules: [smiles], ...payload } })).assumptions);
  for (const [name, smiles] of mols)
    ids.push((await benchApi(inst, 'POST', '/jobs/submit', { job_name: `${type} ${name}`, job_type: type, payload: { molecules: [smiles], ...payload } })).process_id);
  for (const id of ids)
    for (;;) {
      const s = await benchApi(inst, 'GET', `/jobs/status?process_id=${id}`);
      if (s.status === 'completed') break;
      if (s.status === 'error' || s.status === 'cancelled') throw new Error(`${type} job ${id} ${s.status}: ${s.message}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  const wallSec = (performance.now() - t0) / 1000;
  const after = (await benchApi(inst, 'GET', '/wallet')).balance_usd as number;
  const rows: QuestionRow[] = [];
  for (const [i, [name]] of mols.entries()) {
    const info = (await benchApi(inst, 'GET', `/jobs/info?process_id=${ids[i]}`)).info;
    const item = (await benchApi(inst, 'GET', `/jobs/result?process_id=${ids[i]}`)).items[0];
    rows.push({
      type,
      molecule: name,
      runtimeSec: info.runtime_seconds,
      estimateSec: info.expected_runtime_sec,
      charged: info.charged_amount,
      ratio: info.expected_billing_cost / Math.max(1e-9, info.charged_amount),
      summary: summaryOf(type, item),
      assumptions: assumptions[i]!,
    });
  }
  return { type, wallSec, costUsd: before - after, rows };
}

export function questionTable(f: QuestionFigure): string {
  return [
    `| ${f.type} | runtime (s) | estimate (s) | estimate / charge | charged ($) | result |`,
    '|---|---|---|---|---|---|',
    ...f.rows.map((r) => `| ${r.molecule} | ${r.runtimeSec.toFixed(1)} | ${r.estimateSec.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.charged.toFixed(4)} | ${r.summary} |`),
  ].join('\n');
}
