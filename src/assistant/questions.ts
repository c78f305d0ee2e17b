// Chemistry questions of the builtin Assistant model (docs/assistant.md, "Chemistry questions"):
// "what is the pKa of lidocaine", "is lidocaine ionised at pH 5", "tautomers of 2-hydroxypyridine
// in chloroform", "where is ibuprofen metabolised", "the weakest C-H bond of toluene", "Fukui
// indices of benzaldehyde", "where will a nucleophile attack acrolein". Each asks one job type:
// pka (pKa, protonation, charge state, ionised at a pH; `ph` from "at pH 5", else 7.4), tautomers
// (its solvent from "in ...", water by default), bde (bond dissociation energies, the weakest C-H
// bond, metabolism and its soft spots) or reactivity (Fukui indices, nucleophilic and
// electrophilic attack, IP/EA, electrophilicity). The molecules are read as for engine jobs
// (compounds.ts: known names and SMILES, other names looked up in PubChem first, an artifact id or
// "my library"). Then estimate_engine_job and, unless only an estimate was asked for,
// propose_engine_job: a one-step plan card the user approves.
//
// What a job type cannot do is said plainly, with nothing run or planned, never replaced by
// something else: a pKa in another solvent than water (the calibration is aqueous), a bond energy
// in a solvent (gas phase), a method the job does not run (read from the job type's own payload
// schema: pka and tautomers GFN2-xTB only, bde GFN2 or B3LYP energies), a pH for anything but a
// pKa, a temperature, two questions at once, and reactivity while its job type is not registered.
import { JOB_TYPES } from '../compute/registry.js';
import { SOLVENTS } from '../engines/qm/solvents.js';
import { blank, GAS_RE, LIBRARY_RE, METHOD_LABELS, METHODS, planLines, SOLVENT_ALIASES, SOLVENT_RE } from './calculations.js';
import { compoundsIn, type MentionedMolecule, type UnknownName } from './compounds.js';
import { structuresOf } from './structures.js';
import { andList, call, clip, duration, errorText, isObj, plural, say, toolError, usd, type Args, type Done, type Step } from './steps.js';
import type { EngineJobQuote } from './tool-specs.js';

export type QuestionType = 'pka' | 'tautomers' | 'bde' | 'reactivity';

export interface QuestionIntent {
  kind: 'question';
  mode: 'plan' | 'estimate';
  jobType: QuestionType;
  /** The job's parameters but its structures: ph (pka), solvent (tautomers, reactivity), method. */
  params: Args;
  molecules: MentionedMolecule[];
  unknown: UnknownName[];
  /** An artifact id given, or "mine" for "my library" (list_artifacts, then library.ts). */
  library: string | null;
  request: string;
  /** Asked where a molecule is metabolised (or its soft spots): the answer says what the bond energies stand for. */
  metabolism: boolean;
}

interface Question {
  type: QuestionType;
  /** The words that ask it; blanked before the molecules are read. */
  trigger: RegExp;
  /** What is computed, as "Estimate for <what> <molecules>". */
  what: string;
  /** The card's title starts with this. */
  title: string;
  /** The calculation, as "run <noun> on". */
  noun: string;
  /** A request for it, for the questions the answer asks. */
  example: string;
  /** Where it is computed when the job takes no solvent: said when the request names one. */
  medium?: string;
}

const QUESTIONS: readonly Question[] = [
  {
    type: 'pka',
    trigger:
      /\bpk[ab]s?\b|\bpk\s+a\b|\bacid(?:ity)?\s+(?:dissociation\s+)?constants?\b|\bprotonation(?:\s+(?:states?|sites?))?\b|\b(?:de)?protonated\b|\bcharge\s+states?\b|\bioni[sz]ation\s+states?\b|\bioni[sz](?:ed|able)\b|\bmicro-?states?\b|\bnet\s+charge\b|\bcharged?\b(?=[^.?!]*\bph\b)/i,
    what: 'the pKa values and charge state of',
    title: 'pKa of',
    noun: 'a pKa calculation',
    example: 'what is the pKa of lidocaine',
    medium: 'in water',
  },
  {
    type: 'tautomers',
    trigger: /\btautomer(?:s|ic|ism|i[sz]ation|i[sz]es?)?\b/i,
    what: 'the tautomers of',
    title: 'Tautomers of',
    noun: 'a tautomer search',
    example: 'tautomers of 2-hydroxypyridine',
  },
  {
    type: 'bde',
    trigger:
      /\bmetaboli[sz](?:ed|es|e|ing|m|ation)\b|\bmetabolic\s+(?:soft\s*spots?|hot\s*spots?|sites?|liabilit(?:y|ies))\b|\bsites?\s+of\s+metabolism\b|\bsoft\s*spots?\b|\bweakest\s+(?:[cnosx]\s*[-–]\s*h\s+)?bonds?\b|\bweakest\s+[cnosx]\s*[-–]\s*h\b|\bbond\s+dissociation\s+(?:energ(?:y|ies)|enthalp(?:y|ies))\b|\bbdes?\b|\bhydrogen(?:\s+atom)?\s+abstraction\b/i,
    what: 'the X-H bond dissociation enthalpies of',
    title: 'X-H bond dissociation enthalpies of',
    noun: 'a bond dissociation energy calculation',
    example: 'what is the weakest C-H bond of ibuprofen',
    medium: 'in the gas phase',
  },
  {
    type: 'reactivity',
    trigger:
      /\bfukui\b|\b(?:nucleophiles?|electrophiles?)\s+(?:will\s+|would\s+|can\s+|could\s+|might\s+|to\s+)?(?:attack|add|react)s?\b|\b(?:nucleophilic|electrophilic)\s+(?:attacks?|additions?|sites?|centres?|centers?|substitutions?|aromatic\s+substitutions?)\b|\breactivity\b|\breactive\s+sites?\b|\belectrophilicity(?:\s+index)?\b|\bnucleophilicity\b|\bioni[sz]ation\s+(?:potentials?|energ(?:y|ies))\b|\belectron\s+affinit(?:y|ies)\b|\bconceptual\s+dft\b/i,
    what: 'the Fukui indices and reactivity descriptors (HOMO, LUMO, IP, EA, electrophilicity) of',
    title: 'Fukui indices of',
    noun: 'a reactivity calculation',
    example: 'where will a nucleophile attack benzaldehyde',
  },
];

const METABOLISM_RE = /\bmetaboli|\bsoft\s*spots?\b|\bsites?\s+of\s+metabolism\b|\bmetabolic\b/i;
const PH_RE = /\b(?:at\s+|of\s+)?ph\s*(?:of|=|:)?\s*(\d{1,2}(?:\.\d+)?)(?![\d.])/i;
const PHYSIOLOGICAL_RE = /\b(?:at\s+)?(?:the\s+)?physiological(?:\s+ph)?\b|\b(?:at\s+)?(?:the\s+)?ph\s+of\s+blood\b/i;
const TEMPERATURE_RE = /\bat\s+-?\d{1,4}(?:\.\d+)?\s*(?:k|kelvin|°\s*c|degrees?\s+c(?:elsius)?)\b|\bbody\s+temperature\b/i;
/** Basis sets: none of these jobs takes one (bde's B3LYP energies are def2-SVP). */
const BASIS_RE = /\bdef2-?tzvp\b|\b6-31\+*g\S*|\bcc-?pv[dtq]z\b|\baug-cc-p\w+\b/i;
/** Methods of pKa and reactivity prediction no job here runs (the engine methods are calculations.ts's METHODS). */
const OTHER_METHODS: readonly [RegExp, string][] = [
  [/\bcosmo-?rs\b/i, 'COSMO-RS'],
  [/\bsmd\b/i, 'SMD'],
  [/\bc?pcm\b/i, 'PCM'],
  [/\bmachine[- ]learn\w*|\bneural\s+net\w*|\bgnn\b|\bd-?mpnn\b|\bml\s+(?:model|method)\b/i, 'machine-learning model'],
  [/\bhammett\b|\btaft\b/i, 'Hammett or Taft relation'],
  // A program's own name, as written.
  [/\bepik\b|\bmarvin\w*\b|\bchemaxon\b|\bmoka\b|\bjaguar\b|\bacd\s*\/?\s*(?:labs|percepta)\b|\bschr[oö]dinger\b/i, ''],
];
const UUID_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;
/** Words of the questions that name no molecule, blanked before the molecules are read. */
const FILLER_RE =
  /\b(?:what(?:'s)?|which|where|when|how|why|is|are|was|were|will|would|does|do|did|can|could|should|may|might|be|being|been|there|the|a|an|of|for|in|on|at|to|by|about|from|into|with|and\s+its|its|their|it|they|this|that|these|those|please|tell|me|us|give|show|list|compute|calculate|predict|estimate|estimated|find|get|determine|plan|propose|run|cost|costs|price|much|long|take|takes|value|values|sites?|atoms?|bonds?|positions?|most|least|more|likely|likeliest|probably|first|main|major|dominant|dominates?|predominates?|prevails?|favou?red|preferred|stable|strongest|lowest|highest|form|forms|states?|molecules?|compounds?|drugs?|attacked|attacks?|humans?|liver|body|cyp\s?\d\w*|cytochrome\s+p450|p450|enzymes?|oxidi[sz]ed|oxidation|[cnosx]\s*[-–]\s*h|ip|ea|homo|lumo|gfn2(?:-xtb)?|xtb|alpb|using|via|nucleophiles?|electrophiles?|fukui|indices|index|functions?|descriptors?|reactivity|reactive|prone|nucleophilic|electrophilic)\b/gi;

/** The constants a payload field's schema allows (a const, an enum or an anyOf of them); null when it is no such field. */
function constants(schema: unknown): string[] | null {
  if (!isObj(schema)) return null;
  if (typeof schema.const === 'string') return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum.filter((x): x is string => typeof x === 'string');
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (!branches) return null;
  const out = branches.flatMap((b) => constants(b) ?? []);
  return out.length ? out : null;
}

/** A payload field of a registered job type: its schema, or undefined when the type has no such field. */
function payloadField(type: string, field: string): unknown {
  const props = (JOB_TYPES.get(type)?.payload as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props && Object.hasOwn(props, field) ? props[field] : undefined;
}

const LABELS: Readonly<Record<string, string>> = { ...METHOD_LABELS, b3lyp: 'B3LYP/def2-SVP single points on GFN2-xTB geometries' };
const label = (m: string) => LABELS[m] ?? m;
const refusal = (text: string) => ({ kind: 'ask' as const, text: `${text} I did not run or plan anything.` });

/** How the job is run, for the estimate line: "at pH 7.4 with GFN2-xTB in water (ALPB), calibrated per site class". */
function how(type: QuestionType, p: Args): string {
  const method = typeof p.method === 'string' ? p.method : 'gfn2';
  const solvent = typeof p.solvent === 'string' ? `in ${p.solvent} (ALPB)` : 'in the gas phase';
  switch (type) {
    case 'pka':
      return ` at pH ${typeof p.ph === 'number' ? p.ph : 7.4} with GFN2-xTB in water (ALPB), calibrated per site class`;
    case 'tautomers':
      return `, ranked by GFN2-xTB free energy ${solvent}`;
    case 'bde':
      return ` with ${p.energies === 'gfn2' ? 'GFN2-xTB' : 'B3LYP/def2-SVP energies on GFN2-xTB geometries'} in the gas phase, calibrated`;
    case 'reactivity':
      return ` with ${label(method)} ${solvent}`;
  }
}

/** Replaces each run of two or more blanks by ", " and blanks (same length), so that words apart in the request are apart as names. */
const separate = (text: string) => text.replace(/ {2,}/g, (m) => `, ${' '.repeat(m.length - 2)}`);

/**
 * The molecules a question names in `text` (the request with the question's conditions blanked
 * out): what is left once the question's own words are gone (compounds.ts), an artifact id, or
 * "my library"; `any`: whether it names some.
 */
function moleculesIn(text: string, request: string): { molecules: MentionedMolecule[]; unknown: UnknownName[]; library: string | null; any: boolean } {
  const id = UUID_RE.exec(request)?.[0].toLowerCase() ?? null;
  if (id) return { molecules: [], unknown: [], library: id, any: true };
  const { molecules, unknown } = compoundsIn(separate(blank(blank(text, FILLER_RE), /[?!]/)), 20, /^/);
  const library = !molecules.length && !unknown.length && LIBRARY_RE.test(request) ? 'mine' : null;
  return { molecules, unknown, library, any: molecules.length > 0 || unknown.length > 0 || library !== null };
}

/**
 * A chemistry question (see the file comment), a plain answer to one the job cannot answer as
 * asked (ask: nothing is run or planned), or null when the request asks none.
 */
export function questionIn(request: string, mode: 'plan' | 'estimate'): QuestionIntent | { kind: 'ask'; text: string } | null {
  const asked = QUESTIONS.filter((q) => q.trigger.test(request));
  if (!asked.length) return null;
  if (asked.length > 1)
    return refusal(
      `You asked for ${andList(asked.map((q) => q.what.replace(/ of$/, '')))}: I plan one calculation at a time. Ask for each on its own (e.g. "${asked[0]!.example}"), or for all of them in one table with the profile workflow ("plan a profile of lidocaine").`,
    );
  const q = asked[0]!;
  if (!JOB_TYPES.has(q.type))
    return refusal(
      `Crucible cannot compute Fukui indices or reactivity descriptors (sites of nucleophilic or electrophilic attack, IP, EA, electrophilicity) on this server: its ${q.type} job type is not available here. Closest: the weakest C-H bonds ("${QUESTIONS[2]!.example}") and a single point's HOMO-LUMO gap and partial charges ("single point of benzaldehyde with GFN2").`,
    );
  let text = blank(request, q.trigger);
  const params: Args = {};
  // The pH: the pka job's alone.
  const ph = PH_RE.exec(text);
  const physiological = PHYSIOLOGICAL_RE.exec(text);
  if (ph || physiological) {
    if (q.type !== 'pka')
      return refusal(
        `The ${q.type} job takes no pH: it computes the neutral molecule as given. For the charge state at a pH, ask for its pKa, e.g. "what is the pKa of lidocaine at pH 5".`,
      );
    params.ph = ph ? Number(ph[1]) : 7.4;
    if ((params.ph as number) > 14) return refusal(`A pH of ${String(params.ph)} is outside 0 to 14, the pka job's range.`);
    text = blank(blank(text, PH_RE), PHYSIOLOGICAL_RE);
  } else if (q.type === 'pka') params.ph = 7.4;
  if (TEMPERATURE_RE.test(text)) return refusal(`The ${q.type} job computes at 298.15 K only; it takes no temperature. Ask again without one.`);
  // The solvent: the job's own field when it has one, else the medium it is computed in. "The
  // weakest C-H bond in toluene" names the molecule: a solvent's name after "in" is the molecule
  // when nothing else is (unless "solvent", "solution", "implicit" or "ALPB" says otherwise).
  let solvent = SOLVENT_RE.exec(text);
  if (solvent && !/\b(?:solvent|solution|solvation|implicit|alpb|cosmo|gbsa)\b/i.test(solvent[0]) && !moleculesIn(blank(text, SOLVENT_RE), request).any) solvent = null;
  const gas = GAS_RE.exec(text);
  if (solvent || gas) {
    const said = solvent ? solvent[1]!.toLowerCase() : null;
    const name = said === null ? null : Object.hasOwn(SOLVENTS, said) ? said : (SOLVENT_ALIASES[said] ?? undefined);
    if (q.type === 'pka' && name !== 'water')
      return refusal(
        `Crucible computes pKa in water only: the pka job uses GFN2-xTB with ALPB water and a calibration against aqueous pKa values, so it cannot give a pKa ${solvent ? `in ${clip(solvent[1], 40)}` : 'in the gas phase'}. Ask for the aqueous pKa instead, e.g. "${q.example}".`,
      );
    if (q.type !== 'pka' && payloadField(q.type, 'solvent') === undefined && name !== null)
      return refusal(`The ${q.type} job computes ${q.medium ?? 'in the gas phase'} only; it takes no solvent. Ask again without one.`);
    if (name === undefined)
      return {
        kind: 'ask',
        text: `The implicit solvent model has no parameters for ${clip(solvent![1], 40)}. The solvents are: ${Object.keys(SOLVENTS).join(', ')}; ask again with one of them, or in the gas phase.`,
      };
    if (q.type !== 'pka' && payloadField(q.type, 'solvent') !== undefined) params.solvent = name;
    if (solvent) text = blank(text, SOLVENT_RE);
    if (gas) text = blank(text, GAS_RE);
  } else if (q.type === 'tautomers') params.solvent = 'water';
  // The method: those the job type's payload schema allows (bde: its energies; its geometries are GFN2's).
  const allowed = constants(payloadField(q.type, q.type === 'bde' ? 'energies' : 'method')) ?? ['gfn2'];
  const method = METHODS.find(([re]) => re.test(text))?.[1] ?? null;
  const otherHit = OTHER_METHODS.map(([re, name]) => [re.exec(text), name] as const).find(([m]) => m);
  const other = otherHit ? otherHit[1] || clip(otherHit[0]![0], 40) : null;
  const basis = BASIS_RE.exec(text);
  if ((method && !allowed.includes(method)) || other || basis) {
    const named = other ?? (basis ? `the ${basis[0]} basis set` : label(method!));
    return refusal(`The ${q.type} job runs ${andList(allowed.map(label))} only; it has no ${named}. Ask again without naming a method to plan it with ${label(allowed[0]!)}.`);
  }
  if (q.type === 'bde') {
    params.method = 'gfn2';
    params.energies = method ?? allowed[0]!;
  } else params.method = method ?? allowed[0]!;
  for (const [re] of METHODS) text = blank(text, re);
  const { molecules, unknown, library, any } = moleculesIn(text, request);
  if (!any) return { kind: 'ask', text: `Which molecules should I compute ${q.what}? Name compounds, give SMILES, or say "my library", e.g. "${q.example}".` };
  return {
    kind: 'question',
    mode,
    jobType: q.type,
    params,
    molecules,
    unknown,
    library,
    request,
    metabolism: q.type === 'bde' && METABOLISM_RE.test(request),
  };
}

/** What the answer to "where is X metabolised" says first. */
const METABOLISM_NOTE =
  'Crucible does not predict metabolism itself. Cytochrome P450 oxidation mostly starts by taking a hydrogen atom from the weakest C-H bond, so the C-H bond dissociation enthalpies point to the likeliest soft spots: the lower the BDE, the likelier the site.';

/** One step of a chemistry question: look names up, pick the library, estimate, propose, answer. */
export function questionStep(intent: QuestionIntent, done: Done[]): Step {
  const q = QUESTIONS.find((x) => x.type === intent.jobType)!;
  const source = structuresOf(intent, done, {
    example: intent.mode === 'plan' ? q.title.replace(/^[A-Z]/, (c) => c.toLowerCase()) : `estimate ${q.what}`,
    what: q.noun,
    none: `I have no molecule to run ${q.noun} on.`,
  });
  if (source.kind === 'step') return source.step;
  const { input: structures, on } = source;
  const note = `${intent.metabolism ? `${METABOLISM_NOTE}\n\n` : ''}${source.note}`;
  const job: Args = { job_type: intent.jobType, ...structures, ...intent.params };
  const estimate = done.findLast((d) => d.name === 'estimate_engine_job');
  if (!estimate) return call('estimate_engine_job', job);
  const err = toolError(estimate.result);
  if (err) return say(`${note}${errorText(estimate, err)}`);
  const e = estimate.result as Partial<EngineJobQuote>;
  const n = typeof e.structures === 'number' && e.structures > 0 ? ` (${plural(e.structures, 'structure')})` : '';
  const line = `Estimate for ${q.what} ${on}${n}${how(intent.jobType, intent.params)}: ${usd(e.cost_usd)}, ${duration(e.expected_runtime_sec)}.`;
  if (intent.mode === 'estimate') return say(`${note}${line}\nNothing has run and nothing was charged; ask me to plan it to get a plan card you can approve.`);
  const proposed = done.findLast((d) => d.name === 'propose_engine_job');
  if (!proposed) {
    const p = intent.params;
    const detail =
      intent.jobType === 'pka'
        ? `pH ${String(p.ph)}`
        : intent.jobType === 'bde'
          ? `${p.energies === 'gfn2' ? 'GFN2-xTB' : 'B3LYP/def2-SVP'}${intent.metabolism ? ', metabolic soft spots' : ''}`
          : `${label(String(p.method))}, ${typeof p.solvent === 'string' ? p.solvent : 'gas phase'}`;
    return call('propose_engine_job', { title: clip(`${q.title} ${on} (${detail})`, 200), ...job });
  }
  const perr = toolError(proposed.result);
  if (perr || !isObj(proposed.result)) return say(`${note}${line}\n${errorText(proposed, perr ?? 'no answer')}`);
  return say(`${note}${line}\n${planLines(proposed)}`);
}
