// Questions about existing results, for the builtin Assistant model (docs/assistant.md,
// "Questions about results"): "what is the lowest-energy conformer from my last job?", "the
// best docking score of job <id>", "what was the energy?". They are answered from the stored
// result, read with get_job_result as the caller (their own jobs only), never with a plan card:
// the job named by its id; else, for a follow-up that names none ("what was the energy?"), the
// job this conversation last read; else the newest of the user's jobs (list_jobs, of the job
// type the question implies: conformers for "lowest-energy conformer", docking for "docking
// score", pka for "pKa", bde for "weakest bond"). No job of that type: a plain "you have no ... jobs yet". Tool answers fill in the
// numbers and names, never choose the next tool.
import { COMPOUNDS } from './compounds.js';
import { METHOD_LABELS } from './calculations.js';
import type { ChatMessage } from './provider.js';
import { call, clip, fixed, isObj, objs, plural, say, toolError, usd, type Done, type Step } from './steps.js';
import type { JobResultSummary } from './tool-specs.js';

export interface ResultsIntent {
  kind: 'results';
  /** The job named, or the one this conversation last read (a follow-up); null: the newest (list_jobs). */
  processId: string | null;
  /** The job type the question implies (list_jobs's filter), or null for any. */
  jobType: string | null;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** "job <id>", "process 3f2a...", "from job id <id>". */
const JOB_ID_RE = new RegExp(`\\b(?:jobs?|process(?:[ _]id)?|calculation|search)\\s+(?:id\\s+)?(${UUID})\\b`, 'i');
/** "my last job", "the last conformer search", "my previous docking", "my latest results" (one job: "my recent jobs" is a list). */
const EARLIER_RE =
  /\b(?:my|the|our|that)\s+(?:last|latest|previous|most recent|newest|earlier)\s+(?:[\w-]+\s+){0,2}?(?:job|search|calculation|optimi[sz]ation|docking|scan|results?|single[- ]point|computation)\b|\bmy results\b/i;
/** A result a question asks about. */
const QUANTITY_RE =
  /\b(?:pk[ab]s?|charge states?|tautomers?|bdes?|weakest|bond dissociation|fukui|lowest[- ]energy|most stable|energ(?:y|ies)|best (?:docking )?scores?|docking scores?|best poses?|top[- ]scoring|scores?|poses?|gibbs|zpve|enthalp(?:y|ies)|entrop(?:y|ies)|imaginary|homo|lumo|gap|dipole|barrier|how many conformers|conformers? (?:did|were|was) (?:found|kept)|results?)\b/i;
/** A question, not an order. */
const QUESTION_RE = /\?|^\s*(?:so\s+|and\s+)?(?:what(?:'s| is| are| was| were)?|which|how|tell me|show me|give me|list|did|was|were|is|are)\b/i;
/** Past tense: a question about what was computed ("what was the energy", "what did it find"). */
const PAST_RE = /\b(?:was|were|did|found|got|gave|came out|ended|finished)\b/i;
/** An order for new work. */
const ORDER_RE = /^\s*(?:please\s+)?(?:optimi[sz]e|dock|find|generate|compute|calculate|run|plan|propose|estimate|search|draw|describe|set up|prepare|launch|start|queue)\b/i;

/** The job type a question implies, from its words (null: any job). */
function jobTypeIn(t: string): string | null {
  if (/\bpk[ab]s?\b|charge states?|protonation/.test(t)) return 'pka';
  if (/\btautomer/.test(t)) return 'tautomers';
  if (/\bbdes?\b|bond dissociation|weakest|metaboli|soft spots?/.test(t)) return 'bde';
  if (/\bfukui\b|reactivity/.test(t)) return 'reactivity';
  if (/\bconform/.test(t)) return 'conformers';
  if (/\bdock|\bposes?\b|\bscores?\b|\bvina\b/.test(t)) return 'docking';
  if (/frequenc|vibration|\bir\b|thermochem|gibbs|zpve|enthalp|entrop|imaginary/.test(t)) return 'frequencies';
  if (/\bscan|torsion|dihedral|barrier/.test(t)) return 'scan';
  if (/single[- ]?point/.test(t)) return 'singlepoint';
  if (/optimi[sz]/.test(t)) return 'optimize';
  return null;
}

/** The job this conversation last read with get_job_result (its answer's process_id), before this turn. */
function lastReadJob(earlier: readonly ChatMessage[]): string | null {
  const calls = new Map<string, string>();
  let found: string | null = null;
  for (const m of earlier) {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) if (c.name === 'get_job_result') calls.set(c.id, c.arguments);
    if (m.role !== 'tool' || !calls.has(m.tool_call_id)) continue;
    try {
      const r: unknown = JSON.parse(m.content);
      if (isObj(r) && typeof r.process_id === 'string' && new RegExp(`^${UUID}$`, 'i').test(r.process_id)) found = r.process_id.toLowerCase();
    } catch {
      // Not an answer of the tool: skipped.
    }
  }
  return found;
}

/** A question about existing results, or null. `earlier`: the conversation before this turn's message. */
export function resultsIn(request: string, earlier: readonly ChatMessage[]): ResultsIntent | null {
  const t = request.toLowerCase();
  const named = JOB_ID_RE.exec(request)?.[1]?.toLowerCase() ?? null;
  const order = ORDER_RE.test(request);
  const question = QUESTION_RE.test(request);
  const earlierJob = EARLIER_RE.test(request);
  const quantity = QUANTITY_RE.test(request);
  if (named && (question || quantity || !order)) return { kind: 'results', processId: named, jobType: null };
  if (earlierJob && !order) return { kind: 'results', processId: null, jobType: jobTypeIn(t) };
  if (question && quantity && PAST_RE.test(request)) {
    const jobType = jobTypeIn(t);
    return { kind: 'results', processId: lastReadJob(earlier), jobType };
  }
  return null;
}

// --- Answers -------------------------------------------------------------------------------

const TYPE_WORDS: Readonly<Record<string, string>> = {
  conformers: 'conformer search',
  docking: 'docking',
  frequencies: 'frequency',
  scan: 'torsion scan',
  singlepoint: 'single point',
  optimize: 'optimisation',
  pka: 'pKa',
  tautomers: 'tautomer',
  bde: 'bond dissociation energy',
  reactivity: 'reactivity',
};
const EXAMPLES: Readonly<Record<string, string>> = {
  conformers: 'find conformers of butane',
  docking: 'dock imatinib into 1IEP around STI',
  frequencies: 'frequencies of ethanol with GFN2',
  singlepoint: 'single point of CCO with PM7',
  optimize: 'optimise caffeine with GFN2 in water',
  pka: 'what is the pKa of lidocaine',
  tautomers: 'tautomers of 2-hydroxypyridine',
  bde: 'where is ibuprofen metabolised',
};
const eh = (x: unknown) => `${fixed(x, 6)} Eh`;
const kcal = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(2)} kcal/mol` : 'n/a');
const when = (x: unknown) => (typeof x === 'string' ? clip(x.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'), 40) : 'at an unknown time');

/** What a result item is of: its name, else the SMILES the job was given (with the compound's name when it is a known one). */
function labelOf(item: Record<string, unknown>, job: Partial<JobResultSummary>): string {
  if (typeof item.name === 'string' && item.name) return clip(item.name, 60);
  const i = typeof item.index === 'number' ? item.index : -1;
  const smiles = Array.isArray(job.molecules) ? job.molecules[i] : undefined;
  if (typeof smiles === 'string' && smiles && smiles !== '(molblock)') {
    const known = COMPOUNDS.find((c) => c.smiles === smiles);
    return known ? `${known.name} (${clip(smiles, 60)})` : clip(smiles, 80);
  }
  return `structure ${clip(item.id ?? i, 40)}`;
}

function itemLine(type: string, it: Record<string, unknown>, label: string, doc: Record<string, unknown>): string {
  if (it.error) return `- ${label}: no result (${clip(it.error, 40)}${it.detail ? `: ${clip(it.detail, 120)}` : ''}).`;
  switch (type) {
    case 'pka': {
      const sites = objs(it.sites).map((x) => `${typeof x.pka === 'number' ? fixed(x.pka, 2) : 'n/a'} (${clip(x.element, 3)}${clip(x.atom_index, 6)}, ${clip(x.kind, 6)})`);
      const top = objs(it.microstates)[0];
      const share = top && typeof top.fraction === 'number' ? `, ${(top.fraction * 100).toFixed(1)}%` : '';
      return `- ${label}: ${sites.length ? `pKa ${sites.join(', ')}` : 'no ionisable site'}; at pH ${fixed(doc.ph, 1)} mostly ${clip(it.dominant_smiles, 80)} (charge ${clip(it.dominant_charge, 4)}${share}).`;
    }
    case 'tautomers': {
      const ts = objs(it.tautomers);
      if (!ts.length) return `- ${label}: no tautomer.`;
      const next = ts[1] ? `; the next, ${clip(ts[1].smiles, 80)}, is ${kcal(ts[1].relative_kcal)}` : '';
      return `- ${label}: the main tautomer is ${clip(ts[0]!.smiles, 80)} (${(Number(ts[0]!.fraction) * 100).toFixed(1)}%)${next}; ${plural(typeof it.count === 'number' ? it.count : ts.length, 'tautomer')}.`;
    }
    case 'bde': {
      const bonds = objs(it.bonds);
      const name = (b: Record<string, unknown>) =>
        Array.isArray(b.atoms) && Array.isArray(b.elements) ? `${clip(b.elements[0], 3)}${clip(b.atoms[0], 6)}-${clip(b.elements[1], 3)}${clip(b.atoms[1], 6)}` : '?';
      const ch = bonds.find((b) => Array.isArray(b.elements) && [...(b.elements as unknown[])].sort().join('') === 'CH');
      if (!bonds.length) return `- ${label}: no bond.`;
      const weakestCh = ch && ch !== bonds[0] ? `; the weakest C-H is ${name(ch)} at ${fixed(ch.bde_kcal_mol, 1)} kcal/mol` : '';
      return `- ${label}: the weakest bond is ${name(bonds[0]!)} at ${fixed(bonds[0]!.bde_kcal_mol, 1)} kcal/mol${weakestCh}.`;
    }
    case 'conformers': {
      const cs = objs(it.conformers);
      const total = typeof it.conformers_total === 'number' ? it.conformers_total : cs.length;
      if (!cs.length) return `- ${label}: no conformer was kept.`;
      const next = cs[1] ? `; the next is ${kcal(cs[1].relative_kcal)} (conformer 2)` : '; it is the only conformer kept';
      const w = typeof cs[0]!.boltzmann_weight === 'number' ? `, Boltzmann weight ${fixed(cs[0]!.boltzmann_weight, 2)}` : '';
      return `- The lowest-energy conformer of ${label} is conformer 1 at ${eh(cs[0]!.energy_hartree)}${w}${next}; ${plural(total, 'conformer')} kept.`;
    }
    case 'docking': {
      const ps = objs(it.poses);
      if (!ps.length) return `- ${label}: no pose.`;
      const next = ps[1] ? `; the next pose scores ${fixed(ps[1].score_kcal_mol, 2)} kcal/mol` : '';
      return `- The best docking score of ${label} is ${fixed(ps[0]!.score_kcal_mol, 2)} kcal/mol (pose 1)${next}.`;
    }
    case 'frequencies':
      return `- ${label}: energy ${eh(it.energy_hartree)}, Gibbs energy ${eh(it.gibbs_hartree)} at ${fixed(it.temperature_k, 2)} K, ZPVE ${eh(it.zpve_hartree)}, ${plural(typeof it.n_imaginary === 'number' ? it.n_imaginary : 0, 'imaginary frequency')}.`;
    case 'scan': {
      const pts = objs(it.points);
      if (!pts.length) return `- ${label}: no point.`;
      const low = pts.reduce((a, b) => (Number(b.energy_hartree) < Number(a.energy_hartree) ? b : a));
      const high = pts.reduce((a, b) => (Number(b.relative_kcal) > Number(a.relative_kcal) ? b : a));
      return `- ${label}: lowest at ${fixed(low.angle_deg, 1)}° (${eh(low.energy_hartree)}), highest ${kcal(high.relative_kcal)} at ${fixed(high.angle_deg, 1)}° (${plural(pts.length, 'point')} read).`;
    }
    case 'optimize':
    case 'singlepoint': {
      const conv = typeof it.converged === 'boolean' ? (it.converged ? ', converged' : ', not converged') : '';
      const gap = typeof it.homo_lumo_gap_ev === 'number' ? `, HOMO-LUMO gap ${fixed(it.homo_lumo_gap_ev, 3)} eV` : '';
      const dip = typeof it.dipole_debye === 'number' ? `, dipole ${fixed(it.dipole_debye, 3)} D` : '';
      return `- ${label}: energy ${eh(it.energy_hartree)}${conv}${gap}${dip}.`;
    }
    default: {
      const scalars = Object.entries(it)
        .filter(
          ([k, v]) => !['index', 'id', 'name', 'error', 'detail'].includes(k) && (typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= 60)),
        )
        .slice(0, 6)
        .map(([k, v]) => `${clip(k, 30)} ${clip(v, 40)}`);
      return `- ${label}${scalars.length ? `: ${scalars.join(', ')}` : ''}.`;
    }
  }
}

/** The answer from get_job_result: the job, then what its result says. */
function resultAnswer(d: Done): string {
  const j = d.result as Partial<JobResultSummary>;
  const id = clip(j.process_id ?? d.args.process_id, 60);
  const type = clip(j.job_type ?? 'job', 40);
  const named = j.job_name ? `, "${clip(j.job_name, 60)}"` : '';
  if (j.status === 'queued' || j.status === 'dispatched' || j.status === 'running') {
    const pct = typeof j.progress === 'number' ? `, ${Math.round(j.progress * 100)}%` : '';
    return `Job ${id} (${type}${named}) is ${clip(j.status, 20)}${pct}${j.message ? `: ${clip(j.message, 120)}` : ''}. Its result is available once it completes; ask me again then.`;
  }
  if (j.status !== 'completed') return `Job ${id} (${type}${named}) ended ${clip(j.status, 20)}${j.message ? `: ${clip(j.message, 160)}` : ''}. It has no result.`;
  const r = isObj(j.result) ? j.result : null;
  if (!r) return `Job ${id} (${type}${named}) completed ${when(j.finished_at)}, but its result could not be read.`;
  const method = typeof r.method === 'string' ? `, ${METHOD_LABELS[r.method] ?? clip(r.method, 30)}` : '';
  const solvent = typeof r.solvent === 'string' ? ` in ${clip(r.solvent, 30)}` : typeof r.method === 'string' && 'solvent' in r ? ', gas phase' : '';
  const head = `From job ${id} (${type}${named}${method}${solvent}, completed ${when(j.finished_at)}, charged ${usd(j.charged_usd)}):`;
  const items = objs(r.items);
  const total = typeof r.items_total === 'number' ? r.items_total : items.length;
  const lines = items.slice(0, 5).map((it) => itemLine(j.job_type ?? '', it, labelOf(it, j), r));
  if (!items.length) {
    const summary = isObj(r.summary) ? r.summary : {};
    const parts = Object.entries(summary)
      .filter(([, v]) => typeof v === 'number')
      .slice(0, 8)
      .map(([k, v]) => `${clip(k, 30)} ${String(v)}`);
    lines.push(parts.length ? `- Summary: ${parts.join(', ')}.` : '- The result has no items.');
  }
  if (total > lines.length && items.length) lines.push(`(and ${total - lines.length} more; GET /jobs/result?process_id=${id} has them all)`);
  if (j.job_type === 'docking') {
    const best = items
      .flatMap((it) =>
        it.error
          ? []
          : objs(it.poses)
              .slice(0, 1)
              .map((p) => ({ label: labelOf(it, j), score: Number(p.score_kcal_mol) })),
      )
      .filter((x) => Number.isFinite(x.score))
      .sort((a, b) => a.score - b.score)[0];
    if (best && items.length > 1) lines.unshift(`- Best overall: ${best.label} at ${best.score.toFixed(2)} kcal/mol.`);
  }
  return `${head}\n${lines.join('\n')}\nRead from the stored result: nothing new was run.`;
}

/** One step of a question about results: find the job, read its result, answer from it. */
export function resultsStep(intent: ResultsIntent, done: Done[]): Step {
  const read = done.findLast((d) => d.name === 'get_job_result');
  if (read) {
    const err = toolError(read.result);
    if (!err) return say(resultAnswer(read));
    const r = read.result as { error: { code?: unknown } };
    if (r.error.code === 'not-found') return say(`I found no job ${clip(read.args.process_id, 60)} among your jobs.`);
    return say(`I could not read job ${clip(read.args.process_id, 60)} (${err}).`);
  }
  if (intent.processId) return call('get_job_result', { process_id: intent.processId });
  const listed = done.findLast((d) => d.name === 'list_jobs');
  if (!listed) return call('list_jobs', { ...(intent.jobType ? { job_type: intent.jobType } : {}), limit: 1 });
  const err = toolError(listed.result);
  if (err) return say(`I could not list your jobs (${err}).`);
  const newest = objs((listed.result as Record<string, unknown>).jobs)[0];
  if (!newest || typeof newest.process_id !== 'string') {
    const what = intent.jobType ? `${TYPE_WORDS[intent.jobType] ?? intent.jobType} jobs` : 'jobs';
    const example = intent.jobType ? EXAMPLES[intent.jobType] : undefined;
    return say(`You have no ${what} yet, so there is no result to read.${example ? ` To run one, ask e.g. "${example}": I estimate it and propose a plan card you approve.` : ''}`);
  }
  return call('get_job_result', { process_id: newest.process_id });
}
