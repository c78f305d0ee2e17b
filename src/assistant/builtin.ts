// The `builtin` Assistant model (docs/assistant.md, "Providers"): an embedded, deterministic
// planner that behaves like a tool-calling language model for a documented set of requests,
// with no network. Each step is a pure function of the conversation: the last user message and
// the assistant and tool messages after it, and, for a follow-up question about a result, the
// job the earlier turns last read (results.ts); the system message and the tool definitions are
// not read (its behaviour is built in), so a step is billed for the conversation only. The same
// conversation always streams the same events. Tool answers are data: they fill in numbers and
// names of the answer, never decide which tool is called (beyond picking one of the caller's
// molecule sets from list_artifacts, library.ts, describing or drawing the compounds that
// lookup_compounds found, and reading the result of the newest job list_jobs found), and only
// short fields of them are quoted.
//
// Recognised requests (case-insensitive; wording is matched on keywords, checked in this order):
//   a property or method no job type offers ("predict the NMR shifts of aspirin", "optimise it
//       with M06-2X"; unsupported.ts)                       -> no tool: says so, and what it can do.
//   a question about existing results ("what is the lowest-energy conformer from my last job?",
//       "best docking score of job <uuid>", "what was the energy?"; results.ts) -> list_jobs
//       {job_type?, limit: 1} unless a job is named or was read before, then get_job_result;
//       the answer quotes the stored result (never a plan card).
//   plan / propose / prepare / set up / run + a template  -> list_artifacts {kind: molecules,
//       ("plan a solubility screen of my library",            limit: 50} when no artifact id is
//        "plan a triage of artifact <uuid>")                  given (library.ts picks the set: the
//                                                             one named, else the newest upload, or
//                                                             asks which), then propose_plan; the
//                                                             answer asks the user to approve the
//                                                             card (never runs it).
//   estimate / cost / how much / how long + a template     -> estimate_workflow (list_artifacts
//       ("estimate a triage of artifact <uuid>",              first when no artifact id is given).
//        "estimate a similarity expansion of CCO in artifact <uuid>")
//     templates: "triage" -> library-triage; "solubility" / "ESOL" -> solubility-screen;
//     "similarity" / "expansion" / "neighbours" -> similarity-expansion (needs a query molecule);
//     "xtb screen" -> xtb-screen; "profile" -> profile (of the molecules named, or the library).
//   pKa / charge state / protonation / tautomers / bond dissociation energies, the weakest C-H
//       bond, "where is X metabolised" / Fukui indices, nucleophilic or electrophilic attack
//       (questions.ts; after docking)                        -> estimate_engine_job (pka,
//                                                             tautomers, bde, reactivity), then
//                                                             propose_engine_job unless only an
//                                                             estimate is asked; or a plain answer
//                                                             when the job cannot do it as asked.
//   dock / docking (docking.ts; checked first)                -> estimate_engine_job (docking),
//       ("dock my library into 1IEP around its ligand")       then propose_engine_job (a plan card
//                                                             around the group the estimate found)
//                                                             unless only an estimate is asked.
//   optimise / single point / frequencies / conformers (calculations.ts)    -> estimate_engine_job,
//       ("optimise caffeine with GFN2 in water")              then propose_engine_job (a plan card)
//                                                             unless only an estimate is asked.
//   "chembl" or a CHEMBL id: "activities" -> lookup_bioactivity molecule_activities (target_activities
//       when "target" is said), limit 10; otherwise operation molecule (target).
//   "pubchem" / "look up" / "find compound" / "search for" -> lookup_compounds {names}.
//   molecules named (see compounds.ts) or typed as SMILES: "draw" / "depict" / "sketch" /
//       "render" -> depict_molecules; "describe" / "properties" / "Lipinski" / anything else ->
//       describe_molecules (both when both are asked). Other names after the verb ("describe
//       sertraline and olaparib", compoundsIn) -> lookup_compounds {names} first, then the
//       molecules it found with the others; the answer says what was looked up (with the
//       source's attribution), what was not found, and when lookups are disabled.
//   "jobs" / "runs" / "artifacts" (also "uploads", "datasets") -> list_jobs {limit: 10} /
//       list_runs {limit: 10} / list_artifacts {limit: 20}, with a status filter when one is said.
//   anything else -> a short help answer (no tool call).
// Tool call ids are call_<step>_<n>. Usage: input = countPromptTokens(the messages but the
// system message), without the tool definitions; output = countTokens(text written) +
// countTokens(name) + countTokens(arguments) of each call.
import { setImmediate as tick } from 'node:timers/promises';
import { TEMPLATES } from '../workflows/templates.js';
import { calculationIn, calculationStep, engineTemplateInputs, type CalculationIntent } from './calculations.js';
import { COMPOUNDS, compoundsIn, findMolecules, type MentionedMolecule, type UnknownName } from './compounds.js';
import { dockingIn, dockingStep, type DockingIntent } from './docking.js';
import { chooseLibrary } from './library.js';
import { questionIn, questionStep, type QuestionIntent } from './questions.js';
import { resultsIn, resultsStep, type ResultsIntent } from './results.js';
import { unsupportedIn } from './unsupported.js';
import type { ChatMessage, CompletionRequest, Provider, ProviderEvent, ToolCall } from './provider.js';
import { countPromptTokens, countTokens, loadTokenizer } from './tokens.js';
import {
  call,
  clip,
  duration,
  errorText,
  fixed,
  isObj,
  lookedUp,
  lookupNote,
  objs,
  plural,
  quoteLines,
  say,
  toolError,
  usd,
  type Args,
  type Done,
  type PlannedCall,
  type Step,
} from './steps.js';
import type { DescribedMolecule, ToolResults } from './tool-specs.js';

export const BUILTIN_MODEL = 'crucible-builtin-1';

/** What the builtin model understands, for the docs and the help answer. */
export const BUILTIN_REQUESTS: { example: string; does: string }[] = [
  {
    example: 'describe aspirin and caffeine',
    does: 'RDKit properties (formula, MW, cLogP, TPSA, donors/acceptors, QED, Lipinski) of named compounds (other names than the common ones built in are looked up in PubChem) or SMILES',
  },
  { example: 'draw ibuprofen and CCO', does: 'Draws the molecules' },
  { example: 'find ChEMBL activities for CHEMBL25', does: 'ChEMBL activities of a molecule (or "chembl molecule CHEMBL25" for the record)' },
  { example: 'look up aspirin in PubChem', does: 'PubChem CIDs, titles and SMILES by compound name' },
  { example: 'estimate a triage of artifact <artifact id>', does: 'Cost and runtime of a workflow template (triage, solubility screen, similarity expansion) without running it' },
  {
    example: 'plan a solubility screen of my library',
    does: 'Proposes a plan card for the molecule set you name, else your newest upload (it asks when several could be meant); you approve it, the Assistant never runs it',
  },
  {
    example: 'optimise caffeine with GFN2 in water',
    does: 'Estimates an engine job and proposes it as a plan card you approve: optimisation, single point, frequencies ("frequencies of ethanol at 350 K") or conformers ("find conformers of ibuprofen with GFN-FF"), of named compounds, SMILES or your library, with GFN2, GFN1, GFN-FF, PM7 or PM6, in the gas phase or an implicit solvent',
  },
  {
    example: 'dock my library into 1IEP around its ligand',
    does: 'Estimates an AutoDock Vina docking job and proposes it as a plan card you approve: your library, named compounds or SMILES, into an RCSB PDB entry or an uploaded receptor, around its ligand, a residue name ("around STI") or a box, with the exhaustiveness, poses, seed and pH you name ("how much would ..." estimates only)',
  },
  {
    example: 'what is the pKa of lidocaine',
    does: 'Estimates a chemistry question and proposes it as a plan card you approve: pKa values and the charge state at a pH ("is lidocaine ionised at pH 5", in water only), tautomers ("tautomers of 2-hydroxypyridine in chloroform"), bond dissociation energies ("where is ibuprofen metabolised", "the weakest C-H bond of toluene") and, where the server has the reactivity job type, Fukui indices ("where will a nucleophile attack benzaldehyde"); "plan a profile of lidocaine" runs them all into one table',
  },
  {
    example: 'what is the lowest-energy conformer from my last job?',
    does: 'Answers from the stored result of your job (also "the best docking score of job <id>", "what was the energy?"); nothing new runs',
  },
  { example: 'show my jobs', does: 'Your recent jobs (also "my recent runs", "my artifacts")' },
];

type ListTool = 'list_jobs' | 'list_runs' | 'list_artifacts';
type Intent =
  | { kind: 'molecules'; molecules: MentionedMolecule[]; unknown: UnknownName[]; describe: boolean; depict: boolean }
  | { kind: 'bioactivity'; args: Args }
  | { kind: 'compounds'; names: string[] }
  | {
      kind: 'workflow';
      mode: 'plan' | 'estimate';
      template: (typeof TEMPLATES)[number];
      library: string | null;
      query: MentionedMolecule | null;
      request: string;
      /** An engine template's inputs the request names (method, solvent, temperature_k), and the molecules it runs on when named. */
      extra: Args;
      molecules: MentionedMolecule[];
    }
  | CalculationIntent
  | QuestionIntent
  | DockingIntent
  | ResultsIntent
  | { kind: 'lists'; calls: PlannedCall[] }
  | { kind: 'ask'; text: string }
  | { kind: 'help' };

const UUID_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;

// --- Understanding the request ------------------------------------------------------------------

function templateOf(t: string) {
  const id = /triage/.test(t)
    ? 'library-triage'
    : /solubility|\besol\b/.test(t)
      ? 'solubility-screen'
      : /similarity|expansion|neighbou?rs|analogu?es/.test(t)
        ? 'similarity-expansion'
        : /\bxtb[- ]?screen/.test(t)
          ? 'xtb-screen'
          : /\bconformer-search\b|\bconformer search (?:template|workflow)\b|\bconform\w*\b.*\b(?:frequenc|thermochem)/.test(t)
            ? 'conformer-search'
            : /\bprofiles?\b/.test(t) && !/\b(?:energy|torsion(?:al)?|dihedral|scan|reaction|rotational)\s+profiles?\b/.test(t)
              ? 'profile'
              : null;
  return TEMPLATES.find((x) => x.template_id === id) ?? null;
}

/** The names after a trigger phrase ("look up X and Y in PubChem"), or the known compounds named. */
function namesIn(text: string, trigger: RegExp, molecules: MentionedMolecule[]): string[] {
  const known = molecules.filter((m) => COMPOUNDS.some((c) => c.name === m.label)).map((m) => m.label);
  if (known.length) return known.slice(0, 20);
  const m = trigger.exec(text);
  if (!m) return [];
  const rest = text
    .slice(m.index + m[0].length)
    .replace(/\b(?:in|on|from|at|via|using)\s+(?:pubchem|chembl)\b/gi, ' ')
    .replace(/\b(?:please|for me)\b|[?!.]+$/gi, ' ');
  return rest
    .split(/,|;|\band\b/i)
    .map((s) => clip(s.replace(/^\s*(?:the|a|an|for|of|about|compounds?|molecules?)\s+/i, ''), 100))
    .filter((s) => s.length > 0)
    .slice(0, 20);
}

function statusIn(t: string, tool: ListTool): string | null {
  if (tool === 'list_artifacts') return null;
  if (/\b(failed|failures?|errors?|errored)\b/.test(t)) return tool === 'list_jobs' ? 'error' : 'failed';
  if (/\b(running|in progress|active)\b/.test(t)) return 'running';
  if (/\b(completed|finished|done|succeeded|successful)\b/.test(t)) return 'completed';
  if (/\b(cancell?ed)\b/.test(t)) return 'cancelled';
  if (/\b(queued|pending|waiting)\b/.test(t) && tool === 'list_jobs') return 'queued';
  return null;
}

/** The intent of the last user message; `earlier`: the conversation before it. */
function understand(request: string, earlier: readonly ChatMessage[]): Intent {
  const unsupported = unsupportedIn(request);
  if (unsupported) return unsupported;
  const results = resultsIn(request, earlier);
  if (results) return results;
  const t = request.toLowerCase();
  const molecules = findMolecules(request);
  const template = templateOf(t);
  const library = UUID_RE.exec(request)?.[0].toLowerCase() ?? null;
  const planWord = /\b(plan|propose|proposal|prepare|set up|setup|schedule)\b/.test(t);
  const estimateWord = /\b(estimate|estimated|cost|costs|price|quote|how much|how long|runtime)\b/.test(t);
  const runWord = /\b(run|launch|start|queue)\b/.test(t);
  const docking = dockingIn(request, estimateWord && !planWord ? 'estimate' : 'plan');
  if (docking) return docking;
  const question = questionIn(request, estimateWord && !planWord ? 'estimate' : 'plan');
  if (question) return question;
  const engine = template ? engineTemplateInputs(template.template_id, request) : null;
  if (engine && 'ask' in engine) return { kind: 'ask', text: engine.ask };
  const named = engine && !library ? engine.molecules : [];
  if (template && (planWord || estimateWord || runWord || library || named.length || /\b(library|my molecules|data ?set|molecule set|artifact)\b/.test(t))) {
    const query = template.template_id === 'similarity-expansion' ? (molecules[0] ?? null) : null;
    if (template.template_id === 'similarity-expansion' && !query)
      return { kind: 'ask', text: 'A similarity expansion needs a query molecule: name a compound or give its SMILES, e.g. "plan a similarity expansion of aspirin".' };
    const mode = estimateWord && !planWord ? 'estimate' : 'plan';
    return { kind: 'workflow', mode, template, library, query, request, extra: engine?.inputs ?? {}, molecules: named };
  }
  const calculation = calculationIn(request, estimateWord && !planWord ? 'estimate' : 'plan');
  if (calculation) return calculation;
  if (/chembl/.test(t)) {
    const ids = [...new Set([...request.matchAll(/\bCHEMBL\d{1,10}\b/gi)].map((m) => m[0].toUpperCase()))];
    const queries = ids.length ? ids.slice(0, 20) : namesIn(request, /\b(?:for|of|about|on)\s+/i, molecules);
    if (!queries.length) return { kind: 'ask', text: 'Which molecule or target? Give a ChEMBL ID such as CHEMBL25, or a name.' };
    const target = /\btargets?\b/.test(t);
    if (/activit|\bic50\b|\bki\b|potenc|assays?\b|bioactiv/.test(t))
      return { kind: 'bioactivity', args: { operation: target ? 'target_activities' : 'molecule_activities', queries, limit: 10 } };
    return { kind: 'bioactivity', args: { operation: target ? 'target' : 'molecule', queries } };
  }
  const pubchem = /pubchem|\blook ?up\b|\bfind (?:the )?compounds?\b|\bsearch (?:pubchem )?for\b/i;
  if (pubchem.test(t)) {
    const names = namesIn(request, /pubchem(?:\s+for)?\s+|\blook ?up\s+|\bfind (?:the )?compounds?\s+|\bsearch (?:pubchem )?for\s+/i, molecules);
    return names.length ? { kind: 'compounds', names } : { kind: 'ask', text: 'Which compound names should I look up in PubChem?' };
  }
  const depict = /\b(draw|drawings?|depict|depiction|sketch|render|picture|visuali[sz]e|show me)\b/.test(t);
  const describe = /\b(describe|description|propert(y|ies)|descriptors?|lipinski|drug-?like(ness)?|qed|c?logp|tpsa|mw|weight|formula|analy[sz]e|tell me about)\b/.test(t);
  const { unknown } = describe || depict ? compoundsIn(request) : { unknown: [] };
  if (molecules.length) return { kind: 'molecules', molecules, unknown, describe: describe || !depict, depict };
  const lists: PlannedCall[] = [];
  for (const [tool, re] of [
    ['list_jobs', /\bjobs?\b/],
    ['list_runs', /\bruns?\b/],
    ['list_artifacts', /\b(artifacts?|uploads?|data ?sets?|molecule sets?|files)\b/],
  ] as const) {
    if (!re.test(t)) continue;
    const status = statusIn(t, tool);
    lists.push({ name: tool, args: { ...(status ? { status } : {}), limit: tool === 'list_artifacts' ? 20 : 10 } });
  }
  if (lists.length) return { kind: 'lists', calls: lists };
  if (unknown.length) return { kind: 'molecules', molecules: [], unknown, describe: describe || !depict, depict };
  if (describe || depict) {
    const some = COMPOUNDS.slice(0, 8).map((c) => c.name);
    return { kind: 'ask', text: `I did not find a molecule in your request. Name a well-known compound (${some.join(', ')}, ...) or give SMILES, e.g. "describe CCO".` };
  }
  return { kind: 'help' };
}

function helpText(): string {
  const lines = BUILTIN_REQUESTS.map((r) => `- "${r.example}": ${r.does}.`);
  return `I am the builtin Assistant model (${BUILTIN_MODEL}), a deterministic planner without a language model. I understand requests like these:\n${lines.join('\n')}\nFor free-form questions, your administrator can configure an OpenAI-compatible provider.`;
}

// --- Answers from tool results --------------------------------------------------------------

function describeAnswer(d: Done, labels: Map<string, string>): string {
  const items = objs((d.result as Partial<ToolResults['describe_molecules']>).items) as Partial<DescribedMolecule>[];
  if (!items.length) return 'The describe_molecules tool returned no molecules.';
  const lines = items.map((m) => {
    const name = labels.get(String(m.smiles)) ?? clip(m.smiles, 80);
    if (m.error || m.formula == null) return `- ${name}: could not be described (${clip(m.error ?? 'no result', 120)}).`;
    const rule = m.lipinski_pass === true ? 'passes Lipinski' : m.lipinski_pass === false ? 'fails Lipinski' : 'Lipinski not evaluated';
    const alerts =
      Array.isArray(m.alerts) && m.alerts.length
        ? `; alerts: ${m.alerts
            .slice(0, 5)
            .map((a) => clip(a, 40))
            .join(', ')}`
        : '';
    return `- ${name}: ${clip(m.formula, 60)}, MW ${fixed(m.mw, 2)}, cLogP ${fixed(m.clogp, 2)}, TPSA ${fixed(m.tpsa, 2)}, HBD ${fixed(m.hbd, 0)}, HBA ${fixed(m.hba, 0)}, QED ${fixed(m.qed, 2)}; ${rule}${alerts}.`;
  });
  return `Properties of ${plural(items.length, 'molecule')} (RDKit):\n${lines.join('\n')}`;
}

function depictAnswer(d: Done, labels: Map<string, string>): string {
  const items = objs((d.result as Partial<ToolResults['depict_molecules']>).items);
  const name = (s: unknown) => labels.get(String(s)) ?? clip(s, 80);
  const drawn = items.filter((i) => i.drawn === true).map((i) => name(i.smiles));
  const failed = items.filter((i) => i.drawn !== true).map((i) => `${name(i.smiles)} (${clip(i.error ?? 'not drawn', 120)})`);
  const parts = [
    drawn.length ? `Drew ${drawn.length} of ${plural(items.length, 'molecule')}: ${drawn.join(', ')}; the drawings are shown with this answer.` : 'No molecule was drawn.',
  ];
  if (failed.length) parts.push(`Could not draw: ${failed.join('; ')}.`);
  return parts.join(' ');
}

const ACTIVITY_FIELDS = ['molecule_chembl_id', 'target_chembl_id', 'target_pref_name', 'standard_type', 'standard_relation', 'standard_value', 'standard_units', 'pchembl_value'];

/** Up to `n` short scalar fields of a record, as `key: value`. */
function fields(o: Record<string, unknown>, keys: string[] | null, n: number): string {
  const out: string[] = [];
  for (const k of keys ?? Object.keys(o)) {
    const v = o[k];
    if (out.length >= n || v == null || typeof v === 'object') continue;
    if (typeof v === 'string' && (v.length === 0 || (!keys && v.length > 60))) continue;
    out.push(`${clip(k, 30)}: ${clip(v, 40)}`);
  }
  return out.join(', ');
}

function lookupAnswer(d: Done): string {
  const r = d.result as Record<string, unknown>;
  const items = objs(Array.isArray(r.compounds) ? r.compounds : r.results);
  if (!items.length) return `The ${d.name} tool returned no items.`;
  const counts = new Map<string, number>();
  for (const i of items) counts.set(clip(i.status ?? 'unknown', 30), (counts.get(clip(i.status ?? 'unknown', 30)) ?? 0) + 1);
  const lines = [`${plural(items.length, 'item')}: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}.`];
  for (const i of items.slice(0, 10)) {
    const what = clip(i.name ?? i.query ?? i.record_id ?? '?', 60);
    if (i.status !== 'found') {
      lines.push(`- ${what}: ${clip(i.status, 30)}`);
      continue;
    }
    if (i.cid !== undefined) {
      lines.push(`- ${what}: CID ${clip(i.cid, 20)}${i.title ? `, "${clip(i.title, 60)}"` : ''}${i.smiles ? `, SMILES ${clip(i.smiles, 80)}` : ''}`);
      continue;
    }
    const data = isObj(i.data) ? i.data : {};
    const head = [i.record_id ? clip(i.record_id, 40) : null, i.title ? `"${clip(i.title, 60)}"` : null].filter(Boolean).join(' ');
    const acts = objs(data.activities);
    if (Array.isArray(data.activities)) {
      const total = typeof data.total_count === 'number' ? ` of ${data.total_count}` : '';
      lines.push(`- ${what}${head ? ` (${head})` : ''}: ${plural(acts.length, 'activity')}${total}${acts.length ? ', the first:' : ''}`);
      for (const a of acts.slice(0, 5)) lines.push(`  - ${fields(a, ACTIVITY_FIELDS, 8) || 'no standard fields'}`);
    } else {
      const more = fields(data, null, 6);
      lines.push(`- ${what}${head ? ` (${head})` : ''}${more ? `: ${more}` : ''}`);
    }
  }
  if (items.length > 10) lines.push(`(and ${items.length - 10} more)`);
  if (typeof r.attribution === 'string') lines.push(`Source: ${clip(r.attribution, 160)}`);
  return lines.join('\n');
}

function workflowAnswer(d: Done, intent: Extract<Intent, { kind: 'workflow' }>): string {
  const q = d.result as Partial<ToolResults['propose_plan']>;
  const inputs = isObj(d.args.inputs) ? d.args.inputs : {};
  const set = Array.isArray(inputs.library) ? intent.molecules.map((m) => clip(m.label, 40)).join(', ') : `artifact ${clip(inputs.library, 60)}`;
  const on = `${intent.template.name} (${intent.template.template_id}) on ${set}`;
  const steps = quoteLines(q);
  const per = steps.length ? `\nPer step:\n${steps.join('\n')}` : '';
  if (d.name === 'estimate_workflow')
    return `Estimate for ${on}: ${usd(q.cost_usd)}, ${duration(q.expected_runtime_sec)}.${per}\nNothing has run and nothing was charged; ask me to plan it to get a plan card you can approve.`;
  return (
    `I proposed a plan: "${clip(q.title ?? d.args.title, 120)}" (plan ${clip(q.plan_id, 60)}), ${on}. ` +
    `Estimated cost ${usd(q.cost_usd)}, ${duration(q.expected_runtime_sec)}.${per}\n` +
    `The plan card expires at ${clip(q.expires_at, 40)}. Nothing has run and nothing is charged: approve the plan card to run it, or reject it. I never run a plan myself.`
  );
}

function listAnswer(d: Done): string {
  const r = d.result as Record<string, unknown>;
  const [key, word] = d.name === 'list_jobs' ? ['jobs', 'job'] : d.name === 'list_runs' ? ['runs', 'workflow run'] : ['artifacts', 'artifact'];
  const rows = objs(r[key]);
  const total = typeof r.total === 'number' ? r.total : rows.length;
  if (!rows.length) return `You have no ${word}s${total ? ' matching this' : ' yet'}.`;
  const lines = rows.map((x) => {
    const created = x.created_at ? `, created ${clip(x.created_at, 40)}` : '';
    if (d.name === 'list_jobs')
      return `- ${clip(x.process_id, 60)}: ${clip(x.job_type, 40)}, ${clip(x.status, 20)}${created}${typeof x.charged_usd === 'number' ? `, charged ${usd(x.charged_usd)}` : ''}`;
    if (d.name === 'list_runs') return `- ${clip(x.run_id, 60)}: "${clip(x.name, 60)}", ${clip(x.status, 20)}${created}`;
    const n = typeof x.molecules === 'number' ? `, ${plural(x.molecules, 'molecule')}` : '';
    return `- ${clip(x.artifact_id, 60)}: "${clip(x.name, 60)}" (${clip(x.kind, 30)}${n})${created}`;
  });
  return `You have ${plural(total, word)}; the ${rows.length === 1 ? 'most recent' : `${rows.length} most recent`}:\n${lines.join('\n')}`;
}

// --- One step --------------------------------------------------------------------------------

function workflowStep(intent: Extract<Intent, { kind: 'workflow' }>, done: Done[]): Step {
  const main = intent.mode === 'plan' ? 'propose_plan' : 'estimate_workflow';
  const result = done.findLast((d) => d.name === main);
  if (result) return say(toolError(result.result) ? errorText(result, toolError(result.result)!) : workflowAnswer(result, intent));
  let library: string | string[] | null = intent.library;
  let title = `${intent.template.name} of artifact ${library}`;
  if (!library && intent.molecules.length) {
    library = intent.molecules.map((m) => m.smiles);
    title = `${intent.template.name} of ${intent.molecules.map((m) => m.label).join(', ')}`.slice(0, 200);
  } else if (!library) {
    const listed = done.findLast((d) => d.name === 'list_artifacts');
    if (!listed) return call('list_artifacts', { kind: 'molecules', limit: 50 });
    const err = toolError(listed.result);
    if (err) return say(errorText(listed, err));
    const what = intent.template.name.toLowerCase();
    const picked = chooseLibrary(intent.request, listed.result, `${intent.mode} a ${what} of`, `a ${what}`);
    if (picked.kind === 'ask') return say(picked.text);
    library = picked.artifact_id;
    title = `${intent.template.name} of ${picked.name}`;
  }
  const inputs: Args = intent.query ? { library, query: intent.query.smiles } : { library, ...intent.extra };
  const source = { template_id: intent.template.template_id, inputs };
  return call(main, intent.mode === 'plan' ? { title, ...source } : source);
}

type MoleculesIntent = Extract<Intent, { kind: 'molecules' }>;
/** Describe and draw: the names it does not know are looked up first (lookup_compounds), then every molecule is described and drawn. */
function moleculesStep(intent: MoleculesIntent, done: Done[]): Step {
  const lookup = intent.unknown.length ? done.find((d) => d.name === 'lookup_compounds') : undefined;
  if (intent.unknown.length && !lookup) return call('lookup_compounds', { names: intent.unknown.map((u) => u.name) });
  const seen = new Set<string>();
  const molecules = [...intent.molecules, ...lookedUp(intent, lookup)]
    .sort((a, b) => a.at - b.at)
    .filter((m) => !seen.has(m.smiles) && seen.add(m.smiles))
    .slice(0, 20);
  const note = lookup ? lookupNote(intent, lookup) : null;
  const work = done.filter((d) => d.name === 'describe_molecules' || d.name === 'depict_molecules');
  if (!work.length) {
    if (!molecules.length) return say(note ?? 'I did not find a molecule in your request.');
    const smiles = molecules.map((m) => m.smiles);
    return {
      text: '',
      calls: [...(intent.describe ? [{ name: 'describe_molecules', args: { smiles } }] : []), ...(intent.depict ? [{ name: 'depict_molecules', args: { smiles } }] : [])],
    };
  }
  const labels = new Map(molecules.map((m) => [m.smiles, m.label]));
  const parts = work.map((d) => {
    const err = toolError(d.result);
    if (err) return errorText(d, err);
    return d.name === 'describe_molecules' ? describeAnswer(d, labels) : depictAnswer(d, labels);
  });
  return say([...(note ? [note] : []), ...parts].join('\n\n'));
}

/** What this step does: the intent of the last user message, and how far this turn got. */
function decide(intent: Intent, done: Done[]): Step {
  switch (intent.kind) {
    case 'help':
      return say(helpText());
    case 'ask':
      return say(intent.text);
    case 'workflow':
      return workflowStep(intent, done);
    case 'molecules':
      return moleculesStep(intent, done);
    case 'calculation':
      return calculationStep(intent, done);
    case 'question':
      return questionStep(intent, done);
    case 'docking':
      return dockingStep(intent, done);
    case 'results':
      return resultsStep(intent, done);
    default:
  }
  if (done.length === 0) {
    if (intent.kind === 'bioactivity') return call('lookup_bioactivity', intent.args);
    if (intent.kind === 'compounds') return call('lookup_compounds', { names: intent.names });
    return { text: '', calls: intent.calls };
  }
  const parts = done.map((d) => {
    const err = toolError(d.result);
    if (err) return errorText(d, err);
    if (d.name.startsWith('lookup_')) return lookupAnswer(d);
    if (d.name === 'list_jobs' || d.name === 'list_runs' || d.name === 'list_artifacts') return listAnswer(d);
    return `The ${d.name} tool answered.`;
  });
  return say(parts.join('\n\n'));
}

/** The last user message, this turn's tool calls with their parsed answers, and this step's number. */
function readTurn(messages: readonly ChatMessage[]): { request: string; earlier: ChatMessage[]; done: Done[]; step: number } {
  const u = messages.findLastIndex((m) => m.role === 'user');
  const after = messages.slice(u + 1);
  const answers = new Map(after.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, m.content] as const] : [])));
  const done: Done[] = [];
  for (const m of after) {
    if (m.role !== 'assistant') continue;
    for (const c of m.tool_calls ?? []) {
      let args: unknown = {};
      let result: unknown = { error: { code: 'no-answer', message: 'The tool did not answer' } };
      try {
        args = JSON.parse(c.arguments);
      } catch {
        // Not ours: arguments are always JSON when this model writes them.
      }
      const content = answers.get(c.id);
      try {
        if (content !== undefined) result = JSON.parse(content);
      } catch {
        result = { error: { code: 'invalid-answer', message: 'The tool answered text that is not JSON' } };
      }
      done.push({ name: c.name, args: isObj(args) ? args : {}, result: isObj(result) ? result : { error: { code: 'invalid-answer', message: 'Not a JSON object' } } });
    }
  }
  return { request: messages[u]?.content ?? '', earlier: messages.slice(0, Math.max(0, u)), done, step: after.filter((m) => m.role === 'assistant').length + 1 };
}

/** The longest word-boundary prefix of `text` of at most `budget` tokens. */
function fit(text: string, budget: number): string {
  if (budget <= 0) return '';
  if (countTokens(text) <= budget) return text;
  const words = text.match(/\S+\s*/g) ?? [];
  const prefix = (k: number) => words.slice(0, k).join('').trimEnd();
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(prefix(mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  while (lo > 0 && countTokens(prefix(lo)) > budget) lo--;
  return prefix(lo);
}

/** Several words per delta, as a model streams. */
const WORDS_PER_DELTA = 4;

export class BuiltinProvider implements Provider {
  readonly name = 'builtin' as const;

  countTokens(text: string): number {
    return countTokens(text);
  }

  /** What a step reads: the conversation (user, assistant and tool messages), not the system message or the tool definitions. */
  promptTokens(messages: readonly ChatMessage[]): number {
    return countPromptTokens(messages.filter((m) => m.role !== 'system'));
  }

  async *complete(req: CompletionRequest): AsyncIterable<ProviderEvent> {
    await loadTokenizer();
    if (req.signal.aborted) return;
    const input_tokens = this.promptTokens(req.messages);
    const { request, earlier, done, step: n } = readTurn(req.messages);
    const step = decide(understand(request, earlier), done);
    const offered = new Set(req.tools.map((t) => t.name));
    let text = step.text;
    let calls: ToolCall[] = step.calls.map((c, i) => ({ id: `call_${n}_${i + 1}`, name: c.name, arguments: JSON.stringify(c.args) }));
    const missing = calls.find((c) => !offered.has(c.name));
    if (missing) {
      calls = [];
      text = `I would need the ${missing.name} tool, which is not available here.`;
    }
    let callTokens = calls.reduce((s, c) => s + countTokens(c.name) + countTokens(c.arguments), 0);
    if (callTokens > req.maxTokens) {
      calls = [];
      callTokens = 0;
      text = 'This request needs more output tokens than this step allows.';
    }
    text = fit(text, req.maxTokens - callTokens);
    const words = text.match(/\S+\s*/g) ?? [];
    for (let i = 0; i < words.length; i += WORDS_PER_DELTA) {
      if (req.signal.aborted) return;
      yield { type: 'delta', text: words.slice(i, i + WORDS_PER_DELTA).join('') };
      await tick();
    }
    if (req.signal.aborted) return;
    for (const c of calls) yield { type: 'tool_call', call: c };
    yield { type: 'usage', usage: { input_tokens, output_tokens: countTokens(text) + callTokens } };
  }
}
