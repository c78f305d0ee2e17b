// The builtin model's docking requests (docs/assistant.md, "Docking"): "dock my library into
// 1IEP around its ligand", "dock imatinib into 1IEP around STI", "how much would docking my
// library into 1IEP cost". What the request says: the receptor (a four-character PDB ID, or an
// uploaded receptor's artifact id after "into"), the box (around its ligand, the default; around
// a residue name typed in capitals, "around STI"; or "center x y z size a b c"), Vina's
// exhaustiveness, poses, seed and pH, how many best ligands to keep, and the ligands: known names
// and SMILES, other names looked up in PubChem first, an artifact id, or "my library" (library.ts
// picks the set). The phrases of the receptor, the box and the parameters are blanked out before
// ligands are looked for, so "1IEP" or "STI" never becomes a molecule. Then estimate_engine_job
// (job_type docking) and, unless only an estimate was asked for, propose_engine_job: a one-step
// docking job as a plan card, with "its ligand" replaced by the residue name the estimate found,
// so that the card says what it docks around. Tool answers fill in numbers and names, never
// choose the next tool.
import { compoundsIn, type MentionedMolecule, type UnknownName } from './compounds.js';
import { structuresOf } from './structures.js';
import { call, clip, duration, errorText, isObj, plural, say, toolError, usd, type Args, type Done, type Step } from './steps.js';
import type { EngineJobQuote, ToolResults } from './tool-specs.js';

export interface DockingIntent {
  kind: 'docking';
  mode: 'plan' | 'estimate';
  /** pdb_id or receptor_artifact_id. */
  receptor: Args;
  /** box_site ("ligand" for its ligand) or box. */
  box: Args;
  /** exhaustiveness, num_modes, seed, ph, padding, keep_best. */
  params: Args;
  molecules: MentionedMolecule[];
  unknown: UnknownName[];
  /** An artifact id given, or "mine" for "my library" (list_artifacts, then library.ts). */
  library: string | null;
  request: string;
}

const TRIGGER_RE = /\bdock(?:s|ed|ing)?\b/i;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID_RE = new RegExp(`\\b${UUID}\\b`, 'gi');
/** "into artifact <id>", "against my receptor <id>", "receptor <id>". */
const RECEPTOR_ARTIFACT_RE = new RegExp(
  `\\b(?:(?:into|to|against|in|on)\\s+(?:(?:the|my|an?|uploaded|receptor|protein|artifact|upload|file|structure|pdb)\\s+)*|receptor\\s+(?:artifact\\s+)?)(${UUID})\\b`,
  'i',
);
/** "into 1IEP", "against PDB entry 1iep", "PDB 1IEP": a four-character PDB ID with a letter in it. */
const PDB_ID_RE =
  /\b(?:(?:into|to|against|in|on|with|receptor|protein|target|structure)\s+(?:(?:the|pdb|rcsb|entry|id|code|structure|receptor|protein)\s+)*|(?:pdb|rcsb)(?:\s+(?:entry|id|code))?\s*:?\s*)([0-9](?=[a-z0-9]{0,2}[a-z])[a-z0-9]{3})\b/i;
/** "around its ligand", "around the bound ligand", "in the ligand's pocket", "at the ligand site". */
const ITS_LIGAND_RE =
  /\b(?:around|near|at|in|on|into)\s+(?:(?:its|the|their)\s+)?(?:(?:own|bound|native|crystal|co-?crystalli[sz]ed|original|reference)\s+)*ligand(?:'s)?(?:\s+(?:site|pocket|binding\s+site))?\b|\b(?:its|the)\s+ligand(?:'s)?\s+(?:site|pocket|binding\s+site)\b/i;
/** "around STI", "at the STI site", "near ligand STI", "in the STI pocket": a residue name in capitals (case-sensitive). */
const SITE_RE =
  /\b(?:around|near|at|on|in)\s+(?:the\s+)?(?:(?:ligand|residue|hetero\s+group|group|site|pocket\s+of)\s+)?([A-Z0-9]{1,3})(?![\w-])(?:\s+(?:ligand|site|pocket|binding\s+site|group|residue))?/;
/** Capitals that are not residue names in these phrases. */
const NOT_SITES = new Set(['PH', 'A', 'I', 'PDB', 'UTC', 'GPU', 'CPU']);
const NUM = '(-?\\d+(?:\\.\\d+)?)';
const CENTER_RE = new RegExp(`\\bcent(?:er|re)(?:ed|d)?\\s*(?:at|on|of|=|:)?\\s*[([]?\\s*${NUM}\\s*[,;\\s]\\s*${NUM}\\s*[,;\\s]\\s*${NUM}\\s*[)\\]]?`, 'i');
const SIZE_RE = new RegExp(
  `\\b(?:size|edges?|sides?)\\s*(?:of|=|:)?\\s*[([]?\\s*${NUM}(?:\\s*(?:[,;x×]|\\s)\\s*${NUM}\\s*(?:[,;x×]|\\s)\\s*${NUM})?\\s*[)\\]]?(?:\\s*(?:Å|A|angstroms?)\\b)?`,
  'i',
);
const PARAMS: readonly [string, RegExp, (m: RegExpExecArray) => number][] = [
  ['exhaustiveness', /\bexhaustiveness\s*(?:of|=|:)?\s*(\d{1,3})\b/i, (m) => Number(m[1])],
  ['num_modes', /\b(\d{1,3})\s+(?:poses|modes)\b|\bnum[_ ]modes\s*(?:of|=|:)?\s*(\d{1,3})\b/i, (m) => Number(m[1] ?? m[2])],
  ['seed', /\b(?:random\s+)?seed\s*(?:of|=|:)?\s*(\d{1,10})\b/i, (m) => Number(m[1])],
  ['ph', /\b(?:at\s+)?ph\s*(?:of|=|:)?\s*(\d{1,2}(?:\.\d+)?)\b/i, (m) => Number(m[1])],
  ['padding', /\bpadding\s*(?:of|=|:)?\s*(\d{1,2}(?:\.\d+)?)|\b(\d{1,2}(?:\.\d+)?)\s*(?:Å|A|angstroms?)\s+(?:of\s+)?padding\b/i, (m) => Number(m[1] ?? m[2])],
  [
    'keep_best',
    /\b(?:keep|keeping)\s+(?:only\s+)?(?:the\s+)?(?:best|top)\s+(\d{1,4})\b|\b(?:the\s+)?(?:best|top)\s+(\d{1,4})\s+(?:ligands?|molecules?|compounds?|hits?|poses?|scores?)\b/i,
    (m) => Number(m[1] ?? m[2]),
  ],
];
const LIBRARY_RE =
  /\b(?:my|our|the)\s+(?:\w+\s+)?(?:library|libraries|molecules|molecule set|data ?set|uploads?|compounds|ligands)\b|\b(?:latest|newest|last)\s+upload\b|[\w-]+\.(?:smi|sdf|csv|mol2?)\b/i;
/** Where the ligands start: after the verb ("dock", "docking the ligands"). */
const NAMES_AFTER = /\bdock(?:s|ed|ing)?\s+(?:the\s+)?(?:(?:ligands?|molecules?|compounds?|smiles)\s+)?/i;

/** Blanks `re`'s first match out of `text` (same length, so positions keep their meaning). */
function blank(text: string, m: RegExpExecArray | null): string {
  return m ? text.slice(0, m.index) + ' '.repeat(m[0].length) + text.slice(m.index + m[0].length) : text;
}

/** A docking request, a question about one (ask), or null when the request is no docking request. */
export function dockingIn(request: string, mode: 'plan' | 'estimate'): DockingIntent | { kind: 'ask'; text: string } | null {
  if (!TRIGGER_RE.test(request)) return null;
  let text = request;
  let receptor: Args;
  const artifact = RECEPTOR_ARTIFACT_RE.exec(text);
  const pdb = artifact ? null : PDB_ID_RE.exec(text);
  if (artifact) receptor = { receptor_artifact_id: artifact[1]!.toLowerCase() };
  else if (pdb) receptor = { pdb_id: pdb[1]!.toUpperCase() };
  else
    return {
      kind: 'ask',
      text: 'Which receptor should I dock into? Give an RCSB PDB entry ("dock my library into 1IEP around its ligand") or the artifact id of a PDB file you uploaded ("dock aspirin into artifact <id> around its ligand").',
    };
  text = blank(text, artifact ?? pdb);
  const params: Args = {};
  for (const [name, re, value] of PARAMS) {
    const m = re.exec(text);
    if (!m) continue;
    params[name] = value(m);
    text = blank(text, m);
  }
  let box: Args;
  const center = CENTER_RE.exec(text);
  const size = SIZE_RE.exec(text);
  const its = ITS_LIGAND_RE.exec(text);
  const site = its ? null : [...text.matchAll(new RegExp(SITE_RE.source, 'g'))].find((m) => /[A-Z]/.test(m[1]!) && !NOT_SITES.has(m[1]!));
  if (center || size) {
    if (!center || !size)
      return {
        kind: 'ask',
        text: 'A box needs its centre and its size, e.g. "center 15.6 53.4 16.8 size 20 20 20" (Å); or dock "around its ligand", or around a residue name ("around STI").',
      };
    const c = [center[1], center[2], center[3]].map(Number);
    const s = size[2] === undefined ? [size[1], size[1], size[1]].map(Number) : [size[1], size[2], size[3]].map(Number);
    box = { box: { center: c, size: s } };
    text = blank(blank(text, center), size);
    delete params.padding;
  } else if (site) {
    box = { box_site: site[1]! };
    text = blank(text, site as RegExpExecArray);
  } else {
    box = { box_site: 'ligand' };
    text = blank(text, its);
  }
  const { molecules, unknown } = compoundsIn(text, 20, NAMES_AFTER);
  const ids = [...request.matchAll(UUID_RE)].map((m) => m[0].toLowerCase()).filter((id) => id !== receptor.receptor_artifact_id);
  const library = ids[0] ?? (!molecules.length && !unknown.length && LIBRARY_RE.test(text) ? 'mine' : null);
  if (!molecules.length && !unknown.length && !library)
    return {
      kind: 'ask',
      text: 'Which ligands should I dock? Name compounds, give SMILES, or say "my library", e.g. "dock my library into 1IEP around its ligand".',
    };
  return { kind: 'docking', mode, receptor, box, params, molecules: ids[0] ? [] : molecules, unknown: ids[0] ? [] : unknown, library, request };
}

const receptorName = (r: Args) => (typeof r.pdb_id === 'string' ? r.pdb_id : `artifact ${clip(r.receptor_artifact_id, 60)}`);
/** A residue name from a tool answer (data): 1 to 3 letters or digits, else nothing. */
const residue = (x: unknown) => (typeof x === 'string' && /^[A-Za-z0-9]{1,3}$/.test(x) ? x.toUpperCase() : null);
const fmt = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(Math.round(v * 10) / 10) : '?');

/** "around STI (its ligand), a 16.7 x 24.7 x 21.5 Å box at (15.2, 53.9, 16.9)". */
function where(intent: DockingIntent, q: Partial<EngineJobQuote>): string {
  const found = residue(q.box?.box_site);
  const asked = intent.box.box_site;
  const around = asked === 'ligand' ? (found ? `around ${found} (its ligand)` : 'around its ligand') : typeof asked === 'string' ? `around ${found ?? asked}` : 'in the box given';
  const b = isObj(q.box) && Array.isArray(q.box.center) && Array.isArray(q.box.size) ? q.box : null;
  return b ? `${around}, a ${b.size.map(fmt).join(' x ')} Å box at (${b.center.map(fmt).join(', ')})` : around;
}

/** One step of a docking request: look names up, pick the library, estimate, propose, answer. */
export function dockingStep(intent: DockingIntent, done: Done[]): Step {
  const source = structuresOf(intent, done, { example: `dock into ${receptorName(intent.receptor)}`, what: 'docking', none: 'I have no ligand to dock.' });
  if (source.kind === 'step') return source.step;
  const { input: ligands, on, note } = source;
  const job: Args = { job_type: 'docking', ...ligands, ...intent.receptor, ...intent.box, ...intent.params };
  const receptor = receptorName(intent.receptor);
  const estimate = done.findLast((d) => d.name === 'estimate_engine_job');
  if (!estimate) return call('estimate_engine_job', job);
  const err = toolError(estimate.result);
  if (err) {
    // Its ligand could not be told (none, or several): the answer lists the groups; the user names one.
    if (intent.box.box_site === 'ligand' && /box_site/.test(err))
      return say(
        `${note}I could not tell which ligand of ${receptor} to dock around (${err}). Ask again naming its residue name, e.g. "dock ${on} into ${receptor} around STI", or give a box.`,
      );
    return say(`${note}${errorText(estimate, err)}`);
  }
  const q = estimate.result as Partial<EngineJobQuote>;
  const n = typeof q.structures === 'number' && q.structures > 0 ? ` (${plural(q.structures, 'ligand')})` : '';
  const exh = typeof intent.params.exhaustiveness === 'number' ? intent.params.exhaustiveness : 8;
  const line = `Estimate for docking ${on}${n} into ${receptor} ${where(intent, q)}, exhaustiveness ${exh}: ${usd(q.cost_usd)}, ${duration(q.expected_runtime_sec)}.`;
  if (intent.mode === 'estimate') return say(`${note}${line}\nNothing has run and nothing was charged; ask me to plan it to get a plan card you can approve.`);
  const proposed = done.findLast((d) => d.name === 'propose_engine_job');
  if (!proposed) {
    // The card docks around the group the estimate found, by name: what is approved is what runs.
    const site = intent.box.box_site === 'ligand' ? (residue(q.box?.box_site) ?? 'ligand') : intent.box.box_site;
    const around = typeof site === 'string' && site !== 'ligand' ? ` around ${site}` : intent.box.box ? ' (box given)' : ' around its ligand';
    const title = `Dock ${on} into ${receptor}${around}${intent.params.exhaustiveness !== undefined ? ` (exhaustiveness ${exh})` : ''}`;
    return call('propose_engine_job', { title: clip(title, 200), ...job, ...(typeof site === 'string' ? { box_site: site } : {}) });
  }
  const perr = toolError(proposed.result);
  if (perr || !isObj(proposed.result)) return say(`${note}${line}\n${errorText(proposed, perr ?? 'no answer')}`);
  const c = proposed.result as Partial<ToolResults['propose_engine_job']>;
  return say(
    `${note}${line}\n` +
      `I proposed a plan: "${clip(c.title ?? proposed.args.title, 160)}" (plan ${clip(c.plan_id, 60)}), one docking job. Estimated cost ${usd(c.cost_usd)}, ${duration(c.expected_runtime_sec)}.\n` +
      `The plan card expires at ${clip(c.expires_at, 40)}. Nothing has run and nothing is charged: approve the plan card to run it, or reject it. I never run a plan myself.`,
  );
}
