// The estimate against the charge of every engine job type (docs/jobs.md, "Calibration of the
// engine estimates"): one job at a time through `inst` (its own job runtime), on small bench
// molecules, each job's estimated cost (expected_billing_cost, what /jobs/estimate answers and
// submit reserves) beside what it was charged (runtime x rate, at most the estimate), and the
// ratio estimate / charge per job type (target: at most 2).
import fs from 'node:fs';
import path from 'node:path';
import { benchApi, type BenchInstance } from './instance.js';
import { boxOf, DATA, P59 } from './docking.js';

export interface EstimateRow {
  jobType: string;
  what: string;
  estimateSec: number;
  runtimeSec: number;
  estimateUsd: number;
  chargeUsd: number;
  ratio: number;
  /** CPU seconds of this process and its reaped children (the engines) during the job. */
  cpuSec: number;
  /** The estimate against the charge the job's CPU time would have cost (runtime = CPU time: an unloaded machine). */
  cpuRatio: number;
  note: string;
}

/** CPU seconds used so far by this process and by its children that ended (/proc/self/stat utime, stime, cutime, cstime). */
function cpuNow(): number {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ": state is field 3, so utime (14) .. cstime (17) are indices 11..14.
  return [11, 12, 13, 14].reduce((t, i) => t + Number(f[i]), 0) / 100;
}

const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
const PARACETAMOL = 'CC(=O)Nc1ccc(O)cc1';
const IBUPROFEN = 'CC(C)Cc1ccc(cc1)C(C)C(=O)O';

/** The jobs measured, per type: small molecules of the bench (bench/engines.ts DRUGS), one structure a job. */
function cases(receptor: string | null): { jobType: string; what: string; payload: Record<string, unknown> }[] {
  const qm = (jobType: string, extra: Record<string, unknown> = {}) =>
    [
      ['paracetamol', PARACETAMOL],
      ['aspirin', ASPIRIN],
      ['ibuprofen', IBUPROFEN],
    ].map(([what, smiles]) => ({ jobType, what: what!, payload: { molecules: [smiles], method: 'gfn2', ...extra } }));
  return [
    ...qm('singlepoint'),
    ...qm('optimize'),
    ...qm('frequencies'),
    { jobType: 'scan', what: 'n-butane, 12 points', payload: { molecules: ['CCCC'], method: 'gfn2', dihedral: [0, 1, 2, 3], start_deg: 0, end_deg: 330, steps: 12 } },
    { jobType: 'scan', what: 'paracetamol amide, 12 points', payload: { molecules: [PARACETAMOL], method: 'gfn2', dihedral: [0, 1, 3, 4], start_deg: 0, end_deg: 330, steps: 12 } },
    { jobType: 'conformers', what: 'n-butane (max 50)', payload: { molecules: ['CCCC'], method: 'gfn2' } },
    { jobType: 'conformers', what: 'paracetamol (max 50)', payload: { molecules: [PARACETAMOL], method: 'gfn2' } },
    { jobType: 'conformers', what: 'ibuprofen (max 50)', payload: { molecules: [IBUPROFEN], method: 'gfn2' } },
    { jobType: 'conformers', what: 'ibuprofen GFN-FF (max 50)', payload: { molecules: [IBUPROFEN], method: 'gfnff' } },
    ...(receptor
      ? [{ jobType: 'docking', what: 'p59 into 5X72 (exhaustiveness 8)', payload: { molecules: [P59], receptor_artifact_id: receptor, box: boxOf('5x72'), exhaustiveness: 8 } }]
      : []),
  ];
}

/** Runs the cases (those of `types` when given), one at a time; a row per job. */
export async function estimateRows(inst: BenchInstance, o: { types?: string[]; docking: boolean }): Promise<EstimateRow[]> {
  let receptor: string | null = null;
  if (o.docking && (!o.types || o.types.includes('docking'))) {
    const form = new FormData();
    form.append('mode', 'file');
    form.append('file', new Blob([fs.readFileSync(path.join(DATA, '5x72_receptorH.pdb'), 'utf8')]), '5x72_receptorH.pdb');
    const up = await fetch(`${inst.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${inst.user.token}` } });
    if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
    receptor = ((await up.json()) as { id: string }).id;
  }
  const rows: EstimateRow[] = [];
  for (const c of cases(receptor).filter((x) => !o.types || o.types.includes(x.jobType))) {
    const cpu0 = cpuNow();
    const { process_id: pid } = await benchApi(inst, 'POST', '/jobs/submit', { job_name: `estimate ${c.what}`, job_type: c.jobType, payload: c.payload });
    for (;;) {
      const s = await benchApi(inst, 'GET', `/jobs/status?process_id=${pid}`);
      if (s.status === 'completed') break;
      if (s.status === 'error' || s.status === 'cancelled') throw new Error(`${c.jobType} ${c.what}: ${s.status} ${s.message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const cpuSec = cpuNow() - cpu0;
    const info = (await benchApi(inst, 'GET', `/jobs/info?process_id=${pid}`)).info;
    const result = await benchApi(inst, 'GET', `/jobs/result?process_id=${pid}`);
    const search = result.items?.[0]?.search as { candidates: number; optimized_gfnff: number; sent_to_gfn2: number | null } | undefined;
    const rate = info.rate_per_sec as number;
    const row: EstimateRow = {
      jobType: c.jobType,
      what: c.what,
      estimateSec: info.expected_runtime_sec,
      runtimeSec: info.runtime_seconds,
      estimateUsd: info.expected_billing_cost,
      chargeUsd: info.charged_amount,
      ratio: info.expected_billing_cost / Math.max(1e-6, info.charged_amount),
      cpuSec,
      cpuRatio: info.expected_billing_cost / Math.max(1e-6, Math.min(info.expected_billing_cost, cpuSec * rate)),
      note: search ? `${search.candidates} candidates, ${search.sent_to_gfn2 ?? 0} to GFN2, ${result.items[0].conformers?.length ?? 0} kept` : '',
    };
    console.log(
      `  ${row.jobType} ${row.what}: estimate ${row.estimateSec.toFixed(1)} s $${row.estimateUsd.toFixed(4)}, ran ${row.runtimeSec.toFixed(1)} s, charged $${row.chargeUsd.toFixed(4)}, ratio ${row.ratio.toFixed(2)}; CPU ${row.cpuSec.toFixed(1)} s, ratio to CPU ${row.cpuRatio.toFixed(2)}${row.note ? `; ${row.note}` : ''}`,
    );
    rows.push(row);
  }
  return rows;
}

/** The table of docs/jobs.md: per job type, the estimate, the charge and their ratio (the sums, and the worst job). */
export function estimateTable(rows: EstimateRow[]): string {
  const lines = [
    '| job type | jobs | estimate (sum) | charge (sum) | ratio | CPU s (sum) | ratio to CPU time | worst job (ratio to CPU time) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const t of [...new Set(rows.map((r) => r.jobType))]) {
    const of = rows.filter((r) => r.jobType === t);
    const est = of.reduce((s, r) => s + r.estimateUsd, 0);
    const chg = of.reduce((s, r) => s + r.chargeUsd, 0);
    const cpu = of.reduce((s, r) => s + r.cpuSec, 0);
    const cpuCost = of.reduce((s, r) => s + r.estimateUsd / r.cpuRatio, 0);
    const worst = of.reduce((w, r) => (Math.max(r.cpuRatio, 1 / r.cpuRatio) > Math.max(w.cpuRatio, 1 / w.cpuRatio) ? r : w));
    lines.push(
      `| ${t} | ${of.length} | $${est.toFixed(4)} | $${chg.toFixed(4)} | ${(est / chg).toFixed(2)} | ${cpu.toFixed(1)} | ${(est / cpuCost).toFixed(2)} | ${worst.what}: ${worst.cpuRatio.toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}
