// Engine job requests of the builtin Assistant model (docs/assistant.md, "Engine jobs"):
// "optimise caffeine with GFN2 in water", "frequencies of ethanol with GFN-FF at 350 K",
// "single point of CCO with PM7", "find conformers of ibuprofen", "optimise my library".
//
// The request gives the job type (its trigger words, conformers first, then frequencies, single
// points, optimisation), the method (gfn2 unless one is named: GFN2/GFN1/GFN-FF, PM7/PM6, "xtb",
// "mopac", "force field"; for single points and optimisations also HF, PBE, PBE0, B3LYP,
// ωB97X-D, B3LYP-D3(BJ), PBE0-D3(BJ), "DFT" meaning B3LYP, with a basis set: def2-SVP unless
// def2-TZVP, 6-31G* or cc-pVDZ is named), the solvent ("in water", "in chloroform", "in ALPB dmso"; xtb's ALPB
// names, COSMO with MOPAC), charge ("charge -1"), multiplicity ("triplet", "multiplicity 3"),
// temperature ("at 350 K", "at 25 °C"; frequencies and conformers) and the molecules: known
// names and SMILES (compounds.ts), other names looked up in PubChem first, an artifact id, or
// "my library" (library.ts picks the set). Those phrases are blanked out before molecules are
// looked for, so "in water" or "in toluene" never becomes a molecule. Then: estimate_engine_job,
// and (unless only an estimate was asked for) propose_engine_job with the same job: a plan card
// the user approves. Tool answers fill in the numbers, never choose the next tool.
import { BASES, DFT_METHODS, isDftMethod, METHODS as DFT_SPECS, type BasisSet } from '../engines/dft/methods.js';
import { SOLVENTS } from '../engines/qm/solvents.js';
import { COMPOUNDS, compoundsIn, findMolecules, type MentionedMolecule, type UnknownName } from './compounds.js';
import { structuresOf } from './structures.js';
import { call, clip, duration, errorText, isObj, plural, say, toolError, usd, type Args, type Done, type Step } from './steps.js';
import type { EngineJobQuote, EngineJobType, ToolResults } from './tool-specs.js';

export interface CalculationIntent {
  kind: 'calculation';
  mode: 'plan' | 'estimate';
  jobType: EngineJobType;
  /** The job's parameters but its structures: method, solvent, charge, multiplicity, temperature_k. */
  params: Args;
  molecules: MentionedMolecule[];
  unknown: UnknownName[];
  /** An artifact id given, or "mine" for "my library" (list_artifacts, then library.ts). */
  library: string | null;
  request: string;
}

interface Kind {
  type: EngineJobType;
  /** What the job is, in a sentence. */
  what: string;
  /** The card's title starts with this. */
  title: string;
  trigger: RegExp;
  methods: readonly string[];
  temperature: boolean;
}

const QM = ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6'] as const;
/** Single points and optimisations run DFT and HF too (Psi4, NWChem). */
const QM_DFT = [...QM, ...DFT_METHODS];
const KINDS: readonly Kind[] = [
  { type: 'conformers', what: 'conformer search', title: 'Conformers of', trigger: /\bconform(?:er|ers|ational)\b/, methods: ['gfn2', 'gfnff'], temperature: true },
  {
    type: 'frequencies',
    what: 'frequency calculation',
    title: 'Frequencies of',
    trigger: /\bfrequenc(?:y|ies)\b|\bvibrations?\b|\bvibrational\b|\bir spectr(?:um|a)\b|\bthermochemistry\b|\bhessian\b|\bzero[- ]point\b|\bzpve\b|\bgibbs (?:free )?energ/,
    methods: QM,
    temperature: true,
  },
  { type: 'singlepoint', what: 'single point', title: 'Single point of', trigger: /\bsingle[- ]?points?\b/, methods: QM_DFT, temperature: false },
  {
    type: 'optimize',
    what: 'geometry optimisation',
    title: 'Optimise',
    trigger: /\boptimi[sz](?:e|es|ed|ing|ation|ations)\b|\bminimi[sz]e\b/,
    methods: QM_DFT,
    temperature: false,
  },
];

export const METHODS: readonly [RegExp, string][] = [
  // The D3(BJ) variants before their functionals; "DFT" alone is B3LYP.
  [/\bb3lyp-?d3(?:\s*\(\s*bj\s*\)|-?bj)?(?![\w(])/i, 'b3lyp-d3bj'],
  [/\bpbe0-?d3(?:\s*\(\s*bj\s*\)|-?bj)?(?![\w(])/i, 'pbe0-d3bj'],
  [/(?:\b|(?<=\s|^))[wω]b97x-?d(?![\w-])/i, 'wb97x-d'],
  [/\bb3lyp\b/i, 'b3lyp'],
  [/\bpbe0\b/i, 'pbe0'],
  [/\bpbe\b/i, 'pbe'],
  // "HF" alone may be hydrogen fluoride: Hartree-Fock is "Hartree-Fock" or HF with a basis set.
  [/\bhartree[- ]fock\b|\bhf(?=\s*\/\s*(?:def2|6-31|cc-))/i, 'hf'],
  [/\bdft\b|\bdensity[- ]functional(?:\s+theory)?\b/i, 'b3lyp'],
  [/\bgfn[- ]?2(?:[- ]?xtb)?\b/i, 'gfn2'],
  [/\bgfn[- ]?1(?:[- ]?xtb)?\b/i, 'gfn1'],
  [/\bgfn[- ]?ff\b|\bforce[- ]field\b/i, 'gfnff'],
  [/\bpm7\b/i, 'pm7'],
  [/\bpm6\b/i, 'pm6'],
  [/\bmopac\b/i, 'pm7'],
  [/\bxtb\b/i, 'gfn2'],
];
export const METHOD_LABELS: Readonly<Record<string, string>> = {
  gfn2: 'GFN2-xTB',
  gfn1: 'GFN1-xTB',
  gfnff: 'GFN-FF',
  pm7: 'PM7',
  pm6: 'PM6',
  ...Object.fromEntries(DFT_METHODS.map((m) => [m, DFT_SPECS[m].label])),
};
/** Basis sets a user writes ("def2-SVP", "6-31G(d)"), to the payload's names. */
const BASIS_NAMES: readonly [RegExp, BasisSet][] = [
  [/\bdef2-?svp\b/i, 'def2-svp'],
  [/\bdef2-?tzvp\b/i, 'def2-tzvp'],
  [/\b6-31g(?:\*|\s*\(d\))(?!\*)/i, '6-31g*'],
  [/\bcc-?pvdz\b/i, 'cc-pvdz'],
];

/** Solvent names a user writes, to xtb's ALPB names (payload.ts SOLVENTS). */
export const SOLVENT_ALIASES: Readonly<Record<string, string>> = {
  aqueous: 'water',
  dichloromethane: 'ch2cl2',
  dcm: 'ch2cl2',
  'methylene chloride': 'ch2cl2',
  chloroform: 'chcl3',
  'carbon disulfide': 'cs2',
  '1,4-dioxane': 'dioxane',
  dimethylformamide: 'dmf',
  'dimethyl sulfoxide': 'dmso',
  dimethylsulfoxide: 'dmso',
  'diethyl ether': 'ether',
  'ethyl acetate': 'ethylacetate',
  furan: 'furane',
  tetrahydrofuran: 'thf',
  'wet octanol': 'woctanol',
  'n-hexane': 'hexane',
  '1-octanol': 'octanol',
};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every name after "in": ALPB names, their aliases, and the known compounds (a compound that is no ALPB solvent is asked about). */
const SOLVENT_WORDS = [...new Set([...Object.keys(SOLVENTS), ...Object.keys(SOLVENT_ALIASES), ...COMPOUNDS.flatMap((c) => [c.name.toLowerCase(), ...(c.aliases ?? [])])])].sort(
  (a, b) => b.length - a.length,
);
/** "in water", "in ALPB dmso", "in aqueous solution"; "with" or "using" only before a solvent's name ("using implicit water", not "with caffeine"). */
export const SOLVENT_RE = new RegExp(
  `\\b(?:in|(?:with|using)(?=\\s+(?:an?\\s+)?(?:implicit\\s+|alpb\\s+|cosmo\\s+|solvent\\s+)*(?:${[...Object.keys(SOLVENTS), ...Object.keys(SOLVENT_ALIASES)].map(escape).join('|')})(?![\\w-])))\\s+(?:an?\\s+)?(?:implicit\\s+)?(?:(?:alpb|cosmo|gbsa)\\s+)?(?:solvent\\s+)?(${SOLVENT_WORDS.map(escape).join('|')})(?![\\w-])(?:\\s+(?:solvent|solution|solvation))?`,
  'i',
);
export const GAS_RE = /\b(?:in\s+(?:the\s+)?)?(?:gas[- ]phase|vacuum|vacuo)\b/i;
const SPIN: Readonly<Record<string, number>> = { singlet: 1, doublet: 2, triplet: 3, quartet: 4, quintet: 5, sextet: 6, septet: 7 };
const UUID_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;
export const LIBRARY_RE =
  /\b(?:my|our|the)\s+(?:\w+\s+)?(?:library|libraries|molecules|molecule set|data ?set|uploads?|compounds)\b|\b(?:latest|newest|last)\s+upload\b|[\w-]+\.(?:smi|sdf|csv|mol2?)\b/i;
/** Where the molecules start: after the request's verb ("optimise the geometry of", "frequencies of"). */
const NAMES_AFTER =
  /\b(?:(?:re-?)?optimi[sz]e(?:\s+the)?(?:\s+(?:geometry|geometries|structures?)\s+of)?|minimi[sz]e|(?:find|generate|search|get|compute|calculate|run)?\s*(?:the\s+)?(?:conformers?|conformer search|conformational search|frequenc(?:y|ies)|vibrations?|ir spectr(?:um|a)|thermochemistry|single[- ]?points?(?:\s+energ(?:y|ies))?)\s+(?:of|for|on))\s+/i;

/** Blanks `re`'s matches out of `text` (same length, so positions keep their meaning). */
export function blank(text: string, re: RegExp): string {
  return text.replace(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`), (m) => ' '.repeat(m.length));
}

/**
 * The conditions a request names, with their phrases blanked out of the text: the method (null
 * when none is named), the solvent, charge, multiplicity and temperature; or a question (ask)
 * when a method or solvent named cannot be used.
 */
function conditionsIn(request: string, what: string, methods: readonly string[], temperature: boolean): { params: Args; method: string | null; text: string } | { ask: string } {
  let text = request;
  const params: Args = {};
  const method = METHODS.find(([re]) => re.test(text))?.[1] ?? null;
  for (const [re] of METHODS) text = blank(text, re);
  if (method && !methods.includes(method)) return { ask: `A ${what} runs with ${methods.map((m) => METHOD_LABELS[m]).join(' or ')}; ask again with one of them.` };
  const basis = BASIS_NAMES.find(([re]) => re.test(text))?.[1];
  for (const [re] of BASIS_NAMES) text = blank(text, re);
  if (basis && !isDftMethod(method))
    return { ask: `A basis set goes with a DFT or HF method (${DFT_METHODS.map((m) => METHOD_LABELS[m]).join(', ')}); ask again with one, e.g. "B3LYP/${BASES[basis].label}".` };
  if (isDftMethod(method)) params.basis = basis ?? 'def2-svp';
  const solvent = SOLVENT_RE.exec(text);
  if (solvent) {
    const said = solvent[1]!.toLowerCase();
    const name = Object.hasOwn(SOLVENTS, said) ? said : SOLVENT_ALIASES[said];
    if (!name)
      return {
        ask: `The implicit solvent model has no parameters for ${clip(solvent[1], 40)}. The solvents are: ${Object.keys(SOLVENTS).join(', ')}; ask again with one of them, or in the gas phase.`,
      };
    params.solvent = name;
    text = blank(text, SOLVENT_RE);
  }
  text = blank(text, GAS_RE);
  const charge = /\bcharge\s*(?:of|=|:)?\s*([+-]?\d{1,2})\b/i.exec(text);
  if (charge) params.charge = Number(charge[1]);
  const spin = /\b(singlet|doublet|triplet|quartet|quintet|sextet|septet)\b/i.exec(text);
  const mult = /\bmultiplicity\s*(?:of|=|:)?\s*(\d)\b/i.exec(text);
  if (mult) params.multiplicity = Number(mult[1]);
  else if (spin) params.multiplicity = SPIN[spin[1]!.toLowerCase()];
  const kelvin = /\bat\s+(\d{1,4}(?:\.\d+)?)\s*(?:k|kelvin)\b/i.exec(text);
  const celsius = /\bat\s+(-?\d{1,4}(?:\.\d+)?)\s*(?:°\s*c|degrees?\s+c(?:elsius)?)\b/i.exec(text);
  if (temperature && (kelvin || celsius)) params.temperature_k = kelvin ? Number(kelvin[1]) : Math.round((Number(celsius![1]) + 273.15) * 100) / 100;
  for (const re of [
    /\bcharge\s*(?:of|=|:)?\s*[+-]?\d{1,2}\b/i,
    /\bmultiplicity\s*(?:of|=|:)?\s*\d\b/i,
    /\bat\s+-?\d{1,4}(?:\.\d+)?\s*(?:k|kelvin|°\s*c|degrees?\s+c(?:elsius)?)\b/i,
  ])
    text = blank(text, re);
  return { params, method, text };
}

/** An engine job request, a question about one (ask), or null when the request is something else. */
export function calculationIn(request: string, mode: 'plan' | 'estimate'): CalculationIntent | { kind: 'ask'; text: string } | null {
  const kind = KINDS.find((k) => k.trigger.test(request.toLowerCase()));
  if (!kind) return null;
  const c = conditionsIn(request, kind.what, kind.methods, kind.temperature);
  if ('ask' in c) return { kind: 'ask', text: c.ask };
  const params: Args = { method: c.method ?? 'gfn2', ...c.params };
  const { molecules, unknown } = compoundsIn(c.text, 20, NAMES_AFTER);
  const id = UUID_RE.exec(request)?.[0].toLowerCase() ?? null;
  const library = id ?? (!molecules.length && !unknown.length && LIBRARY_RE.test(request) ? 'mine' : null);
  if (!molecules.length && !unknown.length && !library)
    return {
      kind: 'ask',
      text: `Which molecules should the ${kind.what} run on? Name compounds, give SMILES, or say "my library", e.g. "${kind.type === 'optimize' ? 'optimise caffeine with GFN2 in water' : `${kind.title.toLowerCase()} ethanol with GFN-FF`}".`,
    };
  return { kind: 'calculation', mode, jobType: kind.type, params, molecules: id ? [] : molecules, unknown: id ? [] : unknown, library, request };
}

/**
 * The inputs an engine template's request names (docs/workflows.md, "Templates"): xtb-screen
 * takes a method and a solvent, conformer-search a method and a temperature, profile a pH; and the molecules
 * it names (known names and SMILES, run as the template's library). Null for other templates.
 */
export function engineTemplateInputs(templateId: string, request: string): { inputs: Args; molecules: MentionedMolecule[] } | { ask: string } | null {
  if (templateId === 'profile') {
    // The profile's one input beside the molecules: the pH of the charge state ("at pH 5").
    const ph = /\bat\s+ph\s*(\d{1,2}(?:\.\d+)?)(?![\d.])/i.exec(request);
    if (ph && Number(ph[1]) > 14) return { ask: `A pH of ${ph[1]} is outside 0 to 14.` };
    return { inputs: ph ? { ph: Number(ph[1]) } : {}, molecules: findMolecules(ph ? blank(request, /\bat\s+ph\s*\d{1,2}(?:\.\d+)?/i) : request) };
  }
  const screen = templateId === 'xtb-screen';
  if (!screen && templateId !== 'conformer-search') return null;
  // The template's own name is no method: "an xtb screen" leaves the method to its default.
  const text = blank(request, /\bxtb[- ]?screen\b/i);
  const c = screen ? conditionsIn(text, 'xtb screen', QM, false) : conditionsIn(text, 'conformer search', ['gfn2', 'gfnff'], true);
  if ('ask' in c) return c;
  const inputs: Args = {};
  if (c.method) inputs.method = c.method;
  if (screen && typeof c.params.solvent === 'string') inputs.solvent = c.params.solvent;
  if (!screen && typeof c.params.temperature_k === 'number') inputs.temperature_k = c.params.temperature_k;
  return { inputs, molecules: findMolecules(c.text) };
}

const kindOf = (t: string) => KINDS.find((k) => k.type === t)!;

/** A method with its basis set: "GFN2-xTB", "B3LYP/def2-SVP". */
function methodLabel(method: unknown, basis: unknown): string {
  const m = typeof method === 'string' ? method : 'gfn2';
  const label = METHOD_LABELS[m] ?? clip(m, 20);
  return isDftMethod(m) && typeof basis === 'string' && Object.hasOwn(BASES, basis) ? `${label}/${BASES[basis as BasisSet].label}` : label;
}

/** "GFN2-xTB in water (ALPB)", "PM7 in the gas phase", "B3LYP/def2-SVP in water (COSMO)". */
function conditions(method: unknown, solvent: unknown, basis?: unknown): string {
  const m = typeof method === 'string' ? method : 'gfn2';
  const label = methodLabel(m, basis);
  return typeof solvent === 'string' ? `${label} in ${clip(solvent, 30)} (${m.startsWith('pm') || isDftMethod(m) ? 'COSMO' : 'ALPB'})` : `${label} in the gas phase`;
}

function estimateLine(d: Done, on: string): string {
  const q = d.result as Partial<EngineJobQuote>;
  const n = typeof q.structures === 'number' && q.structures > 0 ? ` (${plural(q.structures, 'structure')})` : '';
  return `Estimate for a ${kindOf(String(d.args.job_type)).what} of ${on}${n} with ${conditions(d.args.method, d.args.solvent, d.args.basis)}: ${usd(q.cost_usd)}, ${duration(q.expected_runtime_sec)}.`;
}

export function planLines(d: Done): string {
  const q = d.result as Partial<ToolResults['propose_engine_job']>;
  return (
    `I proposed a plan: "${clip(q.title ?? d.args.title, 120)}" (plan ${clip(q.plan_id, 60)}), one ${clip(d.args.job_type, 20)} job. ` +
    `Estimated cost ${usd(q.cost_usd)}, ${duration(q.expected_runtime_sec)}.\n` +
    `The plan card expires at ${clip(q.expires_at, 40)}. Nothing has run and nothing is charged: approve the plan card to run it, or reject it. I never run a plan myself.`
  );
}

/** One step of an engine job request: look names up, pick the library, estimate, propose, answer. */
export function calculationStep(intent: CalculationIntent, done: Done[]): Step {
  const kind = kindOf(intent.jobType);
  const source = structuresOf(intent, done, {
    example: intent.mode === 'plan' ? kind.title.toLowerCase() : `estimate a ${kind.what} of`,
    what: `a ${kind.what}`,
    none: `I have no molecule to run the ${kind.what} on.`,
  });
  if (source.kind === 'step') return source.step;
  const { input: structures, on, note } = source;
  const job: Args = { job_type: intent.jobType, ...structures, ...intent.params };
  const estimate = done.findLast((d) => d.name === 'estimate_engine_job');
  if (!estimate) return call('estimate_engine_job', job);
  const err = toolError(estimate.result);
  if (err) return say(`${note}${errorText(estimate, err)}`);
  const line = estimateLine(estimate, on);
  if (intent.mode === 'estimate') return say(`${note}${line}\nNothing has run and nothing was charged; ask me to plan it to get a plan card you can approve.`);
  const proposed = done.findLast((d) => d.name === 'propose_engine_job');
  if (!proposed) {
    const title = `${kind.title} ${on} (${methodLabel(intent.params.method, intent.params.basis)}${typeof intent.params.solvent === 'string' ? `, ${intent.params.solvent}` : ''})`;
    return call('propose_engine_job', { title: clip(title, 200), ...job });
  }
  const perr = toolError(proposed.result);
  if (perr || !isObj(proposed.result)) return say(`${note}${line}\n${errorText(proposed, perr ?? 'no answer')}`);
  return say(`${note}${line}\n${planLines(proposed)}`);
}
