// Well-known compounds the builtin Assistant model recognises by name (docs/assistant.md,
// "Providers"): common drugs, metabolites and laboratory solvents, each with its SMILES, so
// that "describe aspirin and caffeine" becomes a describe_molecules call. Also the test for
// "this word is a SMILES the user typed" (e.g. "describe CCO"): a conservative syntactic check
// of the organic-subset SMILES grammar, never a parse (RDKit runs in the chemistry workers and
// the tool reports a SMILES that does not parse).

export interface KnownCompound {
  /** The name as answers show it. */
  name: string;
  smiles: string;
  /** Other names a user may write (lower case). */
  aliases?: string[];
}

export const COMPOUNDS: readonly KnownCompound[] = [
  { name: 'aspirin', smiles: 'CC(=O)Oc1ccccc1C(=O)O', aliases: ['acetylsalicylic acid'] },
  { name: 'caffeine', smiles: 'Cn1cnc2c1c(=O)n(C)c(=O)n2C' },
  { name: 'ibuprofen', smiles: 'CC(C)Cc1ccc(cc1)C(C)C(=O)O' },
  { name: 'paracetamol', smiles: 'CC(=O)Nc1ccc(O)cc1', aliases: ['acetaminophen'] },
  { name: 'naproxen', smiles: 'COc1ccc2cc(ccc2c1)[C@H](C)C(=O)O' },
  { name: 'diclofenac', smiles: 'OC(=O)Cc1ccccc1Nc1c(Cl)cccc1Cl' },
  { name: 'metformin', smiles: 'CN(C)C(=N)N=C(N)N' },
  { name: 'nicotine', smiles: 'CN1CCC[C@H]1c1cccnc1' },
  { name: 'morphine', smiles: 'CN1CC[C@]23[C@@H]4[C@H]1CC5=C2C(=C(C=C5)O)O[C@H]3[C@H](C=C4)O' },
  { name: 'penicillin G', smiles: 'CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O', aliases: ['benzylpenicillin', 'penicillin'] },
  { name: 'salicylic acid', smiles: 'OC(=O)c1ccccc1O' },
  { name: 'lidocaine', smiles: 'CCN(CC)CC(=O)Nc1c(C)cccc1C' },
  { name: 'warfarin', smiles: 'CC(=O)CC(c1ccccc1)c1c(O)c2ccccc2oc1=O' },
  { name: 'fluoxetine', smiles: 'CNCCC(Oc1ccc(cc1)C(F)(F)F)c1ccccc1' },
  { name: 'sildenafil', smiles: 'CCCc1nn(C)c2c1nc([nH]c2=O)-c1cc(ccc1OCC)S(=O)(=O)N1CCN(C)CC1' },
  { name: 'omeprazole', smiles: 'COc1ccc2[nH]c(nc2c1)S(=O)Cc1ncc(C)c(OC)c1C' },
  { name: 'dopamine', smiles: 'NCCc1ccc(O)c(O)c1' },
  { name: 'serotonin', smiles: 'NCCc1c[nH]c2ccc(O)cc12' },
  { name: 'glucose', smiles: 'OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O', aliases: ['d-glucose'] },
  { name: 'urea', smiles: 'NC(N)=O' },
  { name: 'benzene', smiles: 'c1ccccc1' },
  { name: 'toluene', smiles: 'Cc1ccccc1' },
  { name: 'phenol', smiles: 'Oc1ccccc1' },
  { name: 'pyridine', smiles: 'c1ccncc1' },
  { name: 'ethanol', smiles: 'CCO' },
  { name: 'methanol', smiles: 'CO' },
  { name: 'water', smiles: 'O' },
  { name: 'acetone', smiles: 'CC(C)=O' },
  { name: 'acetic acid', smiles: 'CC(=O)O' },
  { name: 'acetonitrile', smiles: 'CC#N' },
  { name: 'ethyl acetate', smiles: 'CCOC(C)=O' },
  { name: 'hexane', smiles: 'CCCCCC', aliases: ['n-hexane'] },
  { name: 'butane', smiles: 'CCCC', aliases: ['n-butane'] },
  { name: 'DMSO', smiles: 'CS(C)=O', aliases: ['dimethyl sulfoxide', 'dimethylsulfoxide'] },
  { name: 'THF', smiles: 'C1CCOC1', aliases: ['tetrahydrofuran'] },
  { name: 'chloroform', smiles: 'ClC(Cl)Cl' },
  { name: 'dichloromethane', smiles: 'ClCCl', aliases: ['dcm', 'methylene chloride'] },
];

/** Every name and alias (lower case) to its compound, longest names first (so "acetic acid" wins over a shorter overlap). */
const BY_NAME: readonly [string, KnownCompound][] = COMPOUNDS.flatMap((c) => [c.name.toLowerCase(), ...(c.aliases ?? [])].map((n): [string, KnownCompound] => [n, c])).sort(
  (a, b) => b[0].length - a[0].length || a[0].localeCompare(b[0]),
);

export function compoundByName(name: string): KnownCompound | undefined {
  const key = name.trim().toLowerCase();
  return BY_NAME.find(([n]) => n === key)?.[1];
}

/** A molecule named in a request: where it starts in the text, how it is shown, and its SMILES. */
export interface MentionedMolecule {
  at: number;
  label: string;
  smiles: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NAME_RES: readonly [RegExp, KnownCompound][] = BY_NAME.map(([n, c]) => [new RegExp(`(?<![\\w-])${escape(n)}(?![\\w-])`, 'gi'), c]);

/** Organic-subset SMILES tokens: bracket atoms, Cl/Br, the organic atoms (aromatic in lower case), ring bonds, bonds and branches. */
const SMILES_RE = /^(?:\[[A-Za-z0-9@+\-#:]{1,20}\]|Cl|Br|[BCNOPSFI]|[bcnops]|%\d{2}|\d|[=#$:/\\().\-+*~])+$/;
/** An artifact id (a UUID) may spell only SMILES characters ("12bc...-..."): it is never a molecule. */
const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ATOM_RE = /\[[^\]]*[A-Za-z][^\]]*\]|Cl|Br|[BCNOPSFI]|[bcnops]/;

/**
 * Whether a word the user typed is plausibly a SMILES: only SMILES tokens, balanced branches
 * and brackets, at least one atom, and not an ordinary word that happens to spell atoms
 * ("No", "on", "I"): a letters-only word must be capitals (CCO, CN) or a single atom symbol.
 */
export function looksLikeSmiles(word: string): boolean {
  if (word.length === 0 || word.length > 500 || !SMILES_RE.test(word) || !ATOM_RE.test(word) || UUID_RE.test(word)) return false;
  let depth = 0;
  for (const ch of word) {
    depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  if (depth !== 0) return false;
  if (/^[A-Za-z]+$/.test(word)) {
    if (word === 'I' || word === 'A') return false;
    // A capitalised or lower-case word ("No", "So", "on", "cobs") is English, not a molecule.
    if (/^[A-Z]?[a-z]+$/.test(word) && word !== 'Cl' && word !== 'Br') return false;
  }
  // A trailing bond or an opening ring bond alone is not a molecule ("C=", "-").
  return !/^[=#$:/\\.\-+*~]|[=#$:/\\.\-+~]$/.test(word);
}

/**
 * The molecules a request names, in the order they appear: well-known compound names (see
 * COMPOUNDS) and SMILES typed directly, without repeats (paracetamol and acetaminophen are
 * one molecule) and at most `max`.
 */
export function findMolecules(text: string, max = 20): MentionedMolecule[] {
  const found: MentionedMolecule[] = [];
  const taken: [number, number][] = [];
  const free = (a: number, b: number) => taken.every(([x, y]) => b <= x || a >= y);
  for (const [re, c] of NAME_RES) {
    for (const m of text.matchAll(re)) {
      const at = m.index ?? 0;
      if (!free(at, at + m[0].length)) continue;
      taken.push([at, at + m[0].length]);
      found.push({ at, label: c.name, smiles: c.smiles });
    }
  }
  for (const m of text.matchAll(/\S+/g)) {
    const at = m.index ?? 0;
    if (!free(at, at + m[0].length)) continue;
    // Quotes and sentence punctuation around a SMILES are not part of it.
    const word = m[0]
      .replace(/^["'`(]+/, '')
      .replace(/["'`,;!?]+$/, '')
      .replace(/\.$/, '');
    let smiles = word;
    // "(e.g. CCO)": a closing parenthesis that opens nothing belongs to the sentence.
    while (smiles.endsWith(')') && smiles.split(')').length > smiles.split('(').length) smiles = smiles.slice(0, -1);
    if (looksLikeSmiles(smiles)) found.push({ at, label: smiles, smiles });
  }
  found.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  return found.filter((f) => !seen.has(f.smiles) && seen.add(f.smiles)).slice(0, max);
}

/** A name the request gives that is neither a known compound nor a SMILES: looked up in PubChem (lookup_compounds). */
export interface UnknownName {
  at: number;
  name: string;
}

/** Where the molecules of a describe or draw request start ("describe X and Y", "properties of X"). */
const TRIGGER_RE =
  /\b(?:describe|description of|draw|drawings? of|depict|depiction of|sketch|render|picture of|visuali[sz]e|show me|tell me about|analy[sz]e|properties of|descriptors (?:of|for)|lipinski (?:of|for)|qed of|(?:c?logp|tpsa|mw|weight|formula) of)\s+/i;
/** Between names: a comma and space (not "2,4-"), a semicolon, "and", "&", "or", sentence ends. */
const SEPARATOR_RE = /,\s+|;\s*|\s+and\s+|\s*&\s*|\s+or\s+|[?!]+|\.(?:\s+|$)/gi;
const LEADING_RE =
  /^(?:the|a|an|and|or|then|of|for|about|me|please|also|both|molecules?|compounds?|drugs?|structures?|properties|descriptors|describe|draw|depict|sketch|render|show|tell)\s+/i;
const TRAILING_RE = /\s+(?:please|for me|too|as well|properties|structures?|molecules?|compounds?|drugs?)$/i;
/** Words that make a phrase a sentence rather than a compound's name. */
const NOT_A_NAME = new Set(
  'it its this that these those them they their something anything everything one ones all some what which how why who me my mine you your yours yourself i we our us is are was be can could would should will if then than not no with without from into to in on at by please tell show give help also molecule molecules compound compounds structure drug jobs runs artifacts library results'.split(
    ' ',
  ),
);
const NAME_WORD_RE = /^[\p{L}\p{N}][\p{L}\p{N}'(),+\-[\]]*$/u;

function nameLike(phrase: string): boolean {
  const words = phrase.split(/\s+/);
  if (phrase.length < 2 || phrase.length > 100 || words.length > 4 || !/\p{L}{2}/u.test(phrase)) return false;
  return words.every((w) => NAME_WORD_RE.test(w) && !NOT_A_NAME.has(w.toLowerCase()));
}

/**
 * The molecules a describe or draw request names (findMolecules), and the names in it that are
 * neither a known compound nor a SMILES ("describe sertraline and olaparib"), in request order:
 * each phrase after the request's verb ("describe", "properties of", ...), between commas and
 * "and", that holds no known molecule and reads as a name (at most four words, none of them an
 * ordinary English word such as "it" or "my"). At most `max` of each. `triggerRe` finds where the
 * names start (other requests than describe and draw: "optimise X", calculations.ts).
 */
export function compoundsIn(text: string, max = 20, triggerRe: RegExp = TRIGGER_RE): { molecules: MentionedMolecule[]; unknown: UnknownName[] } {
  const molecules = findMolecules(text, max);
  const trigger = triggerRe.exec(text);
  if (!trigger) return { molecules, unknown: [] };
  const start = trigger.index + trigger[0].length;
  const rest = text.slice(start);
  const unknown: UnknownName[] = [];
  let from = 0;
  for (const sep of [...rest.matchAll(SEPARATOR_RE), null]) {
    const to = sep ? (sep.index ?? 0) : rest.length;
    const raw = rest.slice(from, to);
    from = sep ? to + sep[0].length : to;
    let phrase = raw.trim().replace(/^["'`]+|["'`]+$/g, '');
    for (let before = ''; before !== phrase;) {
      before = phrase;
      phrase = phrase.replace(LEADING_RE, '').replace(TRAILING_RE, '').trim();
    }
    if (!phrase || findMolecules(phrase, 1).length || !nameLike(phrase)) continue;
    if (unknown.some((u) => u.name.toLowerCase() === phrase.toLowerCase())) continue;
    unknown.push({ at: start + (to - raw.length) + raw.indexOf(phrase), name: phrase });
  }
  return { molecules, unknown: unknown.slice(0, max) };
}
