// Is a compound "name" really a structure? CONTRACT.md section 7: an InChI, or anything that
// parses as a SMILES of two or more atoms, is a structure and must not leave the service
// without permission. This is a syntactic SMILES check (OpenSMILES grammar: organic-subset
// and bracket atoms, bonds, branches, ring closures, dot-disconnections) that runs in
// microseconds on the event loop. It accepts every valid SMILES with >= 2 atoms, and some
// strings RDKit would reject for chemistry reasons (valence, unkekulizable aromatic rings):
// those are treated as structures too, which errs on the side of privacy. The lead can
// inject an RDKit-backed `isStructure` (LookupServiceOptions.isStructure) instead.

const ELEMENTS = new Set(
  (
    'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr ' +
    'Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu ' +
    'Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr ' +
    'Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og'
  ).split(' '),
);
const BRACKET_AROMATIC = new Set(['b', 'c', 'n', 'o', 'p', 's', 'se', 'as', 'te', 'si', 'ge', 'sb']);
const BONDS = new Set(['-', '=', '#', '$', ':', '/', '\\']);

export function isInchi(s: string): boolean {
  return /^InChI=1S?\/\S+/.test(s.trim());
}

/** Validates bracket-atom content like `13CH4`, `C@@H`, `nH`, `Na+`, `Fe+3`, `NH4+:1`. */
function validBracketAtom(inner: string): boolean {
  const m = /^(\d+)?([A-Z][a-z]?|[a-z]{1,2}|\*)(@(?:@|TH[12]|AL[12]|SP[123]|TB\d{1,2}|OH\d{1,2})?)?(H\d?)?([+-](?:\d{1,2}|[+-]*)?)?(:\d+)?$/.exec(inner);
  if (!m) return false;
  const sym = m[2];
  if (sym === '*') return true;
  if (/^[a-z]/.test(sym)) return BRACKET_AROMATIC.has(sym);
  return ELEMENTS.has(sym);
}

/** Number of atoms if `s` is syntactically a SMILES, else null. */
export function smilesAtomCount(input: string): number | null {
  const s = input.trim();
  if (!s || /\s/.test(s)) return null;
  let i = 0;
  let atoms = 0;
  let prev: 'start' | 'atom' | 'bond' | 'open' | 'close' | 'dot' | 'ring' = 'start';
  const open = new Set<number>();
  let depth = 0;
  while (i < s.length) {
    const ch = s[i];
    if (ch === '[') {
      const end = s.indexOf(']', i + 1);
      if (end < 0 || !validBracketAtom(s.slice(i + 1, end))) return null;
      atoms++;
      prev = 'atom';
      i = end + 1;
      continue;
    }
    const two = s.slice(i, i + 2);
    if (two === 'Cl' || two === 'Br') {
      atoms++;
      prev = 'atom';
      i += 2;
      continue;
    }
    if ('BCNOPSFI*bcnops'.includes(ch)) {
      atoms++;
      prev = 'atom';
      i++;
      continue;
    }
    if (BONDS.has(ch)) {
      if (prev !== 'atom' && prev !== 'open' && prev !== 'close' && prev !== 'ring') return null;
      prev = 'bond';
      i++;
      continue;
    }
    if (ch === '(') {
      if (prev !== 'atom' && prev !== 'close' && prev !== 'ring') return null;
      depth++;
      prev = 'open';
      i++;
      continue;
    }
    if (ch === ')') {
      if (depth === 0 || prev === 'open' || prev === 'bond' || prev === 'dot') return null;
      depth--;
      prev = 'close';
      i++;
      continue;
    }
    if (ch === '.') {
      if (prev !== 'atom' && prev !== 'close' && prev !== 'ring') return null;
      prev = 'dot';
      i++;
      continue;
    }
    if (/\d/.test(ch) || ch === '%') {
      if (prev !== 'atom' && prev !== 'ring' && prev !== 'bond') return null;
      let n: number;
      if (ch === '%') {
        const m = /^%(\d{2})/.exec(s.slice(i));
        if (!m) return null;
        n = Number(m[1]);
        i += 3;
      } else {
        n = Number(ch);
        i++;
      }
      if (open.has(n)) open.delete(n);
      else open.add(n);
      prev = 'ring';
      continue;
    }
    return null; // any other character: not SMILES
  }
  if (depth !== 0 || open.size !== 0) return null;
  if (prev === 'bond' || prev === 'dot' || prev === 'open' || prev === 'start') return null;
  return atoms;
}

/** The default structure test: an InChI, or a SMILES of two or more atoms. */
export function looksLikeStructure(name: string): boolean {
  if (isInchi(name)) return true;
  const n = smilesAtomCount(name);
  return n !== null && n >= 2;
}
