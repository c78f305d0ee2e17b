// Is a query a structure? docs/lookups.md, "Privacy": a compound "name" that is an InChI, or that
// parses as a SMILES of two or more atoms, is a structure and must not leave the service
// without permission. RDKit must not run on the event loop (and the chemistry pool is not ours
// to load with this), so this is a small SMILES reader in plain TypeScript that runs in
// microseconds and is held to RDKit's verdict by a reference table:
// scripts/lookups/structure_reference.py computes, with RDKit 2022.09, for several hundred
// strings (real names, gene symbols, SMILES, CXSMILES, reaction SMILES, InChI, with trailing
// names) whether RDKit reads them as a structure; test/lookups/structure.test.ts asserts that
// this reader agrees on every one, except the listed cases where it holds back a string RDKit
// rejects (the safe side: holding back never leaks).
//
// How RDKit reads a "name" (what `isStructureName` follows):
//  * Only the first whitespace-separated token is the SMILES; RDKit takes the rest as the
//    molecule's name, and a CXSMILES `|...|` block after the space as extensions. So
//    "CC(=O)Oc1ccccc1C(=O)O aspirin" and "Cc1ccccc1 |c:1|" are structures.
//  * The token is read with RDKit's grammar (organic subset, bracket atoms, bonds incl. `$` and
//    the dative `->`/`<-`, branches, ring closures `1`, `%12`, `%(123)` also after a `)`,
//    dot-disconnections) and then sanitised: an aromatic atom outside a ring is rejected ("Co",
//    "Cs", "Sn" are not SMILES), and so is an unbracketed atom over its largest valence ("CFC",
//    "IFN"). Where RDKit's sanitisation rescues a hypervalent atom (nitro groups, azides,
//    perchlorates) or rejects one for reasons this reader does not model (kekulisation of
//    aromatic rings, bracket-atom valences, duplicate closures across fragments), the reader says
//    "structure": the safe side.
//  * A reaction SMILES ("CCO>>CC=O") with two or more atoms over all its parts is a structure
//    too (RDKit's ReactionFromSmarts(useSmiles=True); its parts are not sanitised).
//  * An InChI is recognised in any letter case ("inchi=1S/..."), as is an InChI's AuxInfo and
//    a bare standard InChI body ("1S/C2H6O/c1-2-3/h3H,2H2,1H3").
//
// Free-text operations (gene symbols, protein and disease names, PDB full text, target search)
// cannot use that rule: gene symbols such as CS, CNP, FOS or INS parse as SMILES. There
// `hasStructureInText` holds back a string in which any token is an InChI, or parses as a
// SMILES (or reaction) of two or more atoms AND carries syntax that only SMILES has: one of
// = # $ : ( ) [ ] @ / \ % . > *, a ring-closure digit, or an aromatic lowercase atom
// (b c n o p s). All-uppercase organic-subset strings (CNP, CS, CCO) cannot be told from gene
// symbols and identifiers there and are sent; in compound-name lookups they are held back.

/** Organic-subset atoms RDKit accepts unbracketed, with their largest default valence. */
const MAX_VALENCE: Record<string, number> = { B: 3, C: 4, N: 3, O: 2, P: 7, S: 6, F: 1, Cl: 1, Br: 1, I: 5 };
/** Elements RDKit never rescues by sanitisation clean-up: any excess valence is an error. */
const NO_CLEANUP = new Set(['B', 'C', 'O', 'F']);
/** Bracket-atom content, read permissively: isotope, symbol (element, aromatic, *, #n), then chirality, H count, charge, map number. */
const BRACKET_ATOM = /^\d{0,3}(?:[A-Z][a-z]{0,2}|[a-z]{1,2}|\*|#\d{1,3})[@A-Za-z0-9+\-:]*$/;
/** The element symbols RDKit accepts in brackets (the 118 elements and the old Uu* names). */
const ELEMENTS = new Set(
  (
    'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr ' +
    'Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu ' +
    'Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr ' +
    'Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og Uub Uuh Uun Uuo Uup Uuq Uus Uut Uuu'
  ).split(' '),
);
/** Lower-case (aromatic) bracket symbols: any element's symbol in lower case (RDKit accepts b c n o p s se te as si; the rest is a safe superset). */
const AROMATIC_BRACKET = new Set([...ELEMENTS].filter((e) => e.length <= 2).map((e) => e.toLowerCase()));

/** The symbol of a bracket atom if RDKit could accept it, else null. */
function bracketSymbol(inner: string): string | null {
  if (!BRACKET_ATOM.test(inner)) return null;
  const body = inner.replace(/^\d*/, '');
  if (body.startsWith('*')) return '*';
  if (body.startsWith('#')) return /^#\d+/.exec(body)?.[0] ?? null;
  if (/^[a-z]/.test(body)) {
    const two = body.slice(0, 2);
    if (/^[a-z]{2}$/.test(two) && AROMATIC_BRACKET.has(two)) return two;
    const one = body.slice(0, 1);
    return AROMATIC_BRACKET.has(one) ? one : null;
  }
  // Longest element symbol first: [Uuo], [Cl-], [C@@H] (C, then @@H), [Co+2] (Co).
  for (const len of [3, 2, 1]) {
    const sym = body.slice(0, len);
    if (sym.length === len && /^[A-Z][a-z]*$/.test(sym) && ELEMENTS.has(sym)) return sym;
  }
  return null;
}

type BondKind = 'implicit' | '-' | '=' | '#' | '$' | ':' | '/' | '\\' | 'dative';
const BOND_CHARS: Record<string, BondKind> = { '-': '-', '=': '=', '#': '#', $: '$', ':': ':', '/': '/', '\\': '\\' };

interface Atom {
  symbol: string;
  aromatic: boolean;
  bracket: boolean;
}
interface Bond {
  a: number;
  b: number;
  kind: BondKind;
}
interface Graph {
  atoms: Atom[];
  bonds: Bond[];
}

/** Reads one SMILES token (no whitespace) with RDKit's grammar; null if it is not SMILES. */
function readSmiles(s: string): Graph | null {
  if (!s || /\s/.test(s)) return null;
  const atoms: Atom[] = [];
  const bonds: Bond[] = [];
  const stack: number[] = [];
  const rings = new Map<number, { atom: number; bond: BondKind | null }>();
  let prev = -1; // the atom the next bond starts from
  let last: 'start' | 'atom' | 'bond' | 'open' | 'close' | 'dot' | 'ring' = 'start';
  let pending: BondKind | null = null;
  const pairs = new Set<string>();
  const connect = (a: number, b: number, kind: BondKind): boolean => {
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    if (pairs.has(key)) return false; // RDKit: duplicated ring closure
    pairs.add(key);
    bonds.push({ a, b, kind });
    return true;
  };
  const addAtom = (atom: Atom): boolean => {
    atoms.push(atom);
    const idx = atoms.length - 1;
    if (last === 'atom' || last === 'bond' || last === 'open' || last === 'close' || last === 'ring') {
      if (prev < 0 || !connect(prev, idx, pending ?? 'implicit')) return false;
    }
    prev = idx;
    pending = null;
    last = 'atom';
    return true;
  };
  const afterAtomish = () => last === 'atom' || last === 'ring' || last === 'close';
  let i = 0;
  while (i < s.length) {
    const ch = s.charAt(i);
    if (ch === '[') {
      const end = s.indexOf(']', i + 1);
      if (end < 0) return null;
      const sym = bracketSymbol(s.slice(i + 1, end));
      if (sym === null) return null;
      if (!addAtom({ symbol: sym, aromatic: /^[a-z]/.test(sym), bracket: true })) return null;
      i = end + 1;
      continue;
    }
    const two = s.slice(i, i + 2);
    if (two === 'Cl' || two === 'Br') {
      if (!addAtom({ symbol: two, aromatic: false, bracket: false })) return null;
      i += 2;
      continue;
    }
    if ('BCNOPSFI*'.includes(ch)) {
      if (!addAtom({ symbol: ch, aromatic: false, bracket: false })) return null;
      i++;
      continue;
    }
    if ('bcnops'.includes(ch)) {
      if (!addAtom({ symbol: ch.toUpperCase(), aromatic: true, bracket: false })) return null;
      i++;
      continue;
    }
    const dative = two === '->' || two === '<-';
    const bond = dative ? 'dative' : BOND_CHARS[ch];
    if (bond !== undefined) {
      if (!(afterAtomish() || last === 'open') || pending !== null) return null;
      pending = bond;
      last = 'bond';
      i += dative ? 2 : 1;
      continue;
    }
    if (ch === '(') {
      if (!afterAtomish()) return null;
      stack.push(prev);
      last = 'open';
      i++;
      continue;
    }
    if (ch === ')') {
      if (!afterAtomish()) return null;
      const opener = stack.pop();
      if (opener === undefined) return null;
      prev = opener;
      last = 'close';
      i++;
      continue;
    }
    if (ch === '.') {
      if (!afterAtomish()) return null;
      prev = -1;
      last = 'dot';
      i++;
      continue;
    }
    if (/\d/.test(ch) || ch === '%') {
      if (!(afterAtomish() || last === 'bond') || prev < 0) return null;
      let n: number;
      if (ch === '%') {
        const m = /^%(?:(\d{2})|\((\d{1,5})\))/.exec(s.slice(i));
        if (!m) return null;
        n = Number(m[1] ?? m[2]);
        i += m[0].length;
      } else {
        n = Number(ch);
        i++;
      }
      const open = rings.get(n);
      if (open) {
        if (open.atom === prev) return null; // RDKit: a ring closure on the atom itself
        if (!connect(open.atom, prev, pending ?? open.bond ?? 'implicit')) return null;
        rings.delete(n);
      } else {
        rings.set(n, { atom: prev, bond: pending });
      }
      pending = null;
      last = 'ring';
      continue;
    }
    return null; // any other character: not SMILES
  }
  if (!afterAtomish() || stack.length || rings.size || atoms.length === 0) return null;
  return { atoms, bonds };
}

/** `xs[i]` for an index that is in range by construction (a bond's ends are atom indices). */
function at<T>(xs: readonly T[], i: number): T {
  const v = xs[i];
  if (v === undefined) throw new Error(`SMILES graph: index ${i} out of range (${xs.length} entries)`);
  return v;
}

/** An atom in the bridge search: its bonds, discovery time and low-link. */
interface DfsNode {
  edges: { to: DfsNode; id: number }[];
  disc: number;
  low: number;
}

/** Atoms that lie on a ring (incident to a bond that is not a bridge). */
function ringAtoms(g: Graph): Set<number> {
  const nodes: DfsNode[] = g.atoms.map(() => ({ edges: [], disc: -1, low: 0 }));
  g.bonds.forEach((b, id) => {
    const a = at(nodes, b.a);
    const c = at(nodes, b.b);
    a.edges.push({ to: c, id });
    c.edges.push({ to: a, id });
  });
  const bridge = new Set<number>();
  let t = 0;
  for (const root of nodes) {
    if (root.disc >= 0) continue;
    // Iterative DFS (a 500-character SMILES must not recurse 500 deep).
    const stack: { v: DfsNode; via: number; k: number }[] = [{ v: root, via: -1, k: 0 }];
    root.disc = root.low = t++;
    for (let top = stack.at(-1); top; top = stack.at(-1)) {
      const edge = top.v.edges[top.k];
      if (edge) {
        top.k++;
        const { to, id } = edge;
        if (id === top.via) continue;
        if (to.disc < 0) {
          to.disc = to.low = t++;
          stack.push({ v: to, via: id, k: 0 });
        } else top.v.low = Math.min(top.v.low, to.disc);
      } else {
        stack.pop();
        const parent = stack.at(-1);
        if (parent) {
          parent.v.low = Math.min(parent.v.low, top.v.low);
          if (top.v.low > parent.v.disc) bridge.add(top.via);
        }
      }
    }
  }
  const out = new Set<number>();
  g.bonds.forEach((b, id) => {
    if (!bridge.has(id)) {
      out.add(b.a);
      out.add(b.b);
    }
  });
  return out;
}

/** RDKit's sanitisation, as far as it decides between "a molecule" and "no molecule" for plain names. */
function sanitizes(g: Graph): boolean {
  const inRing = ringAtoms(g);
  for (const [i, a] of g.atoms.entries()) if (a.aromatic && !inRing.has(i)) return false; // non-ring atom marked aromatic
  const orders = g.atoms.map(() => [] as (number | null)[]);
  for (const b of g.bonds) {
    let o: number | null;
    switch (b.kind) {
      case 'implicit':
        o = at(g.atoms, b.a).aromatic && at(g.atoms, b.b).aromatic ? null : 1;
        break;
      case '-':
      case '/':
      case '\\':
        o = 1;
        break;
      case '=':
        o = 2;
        break;
      case '#':
        o = 3;
        break;
      case '$':
        o = 4;
        break;
      default:
        o = null; // aromatic or dative: not modelled
    }
    at(orders, b.a).push(o);
    at(orders, b.b).push(o);
  }
  for (const [i, a] of g.atoms.entries()) {
    const max = MAX_VALENCE[a.symbol];
    if (a.bracket || a.aromatic || max === undefined) continue;
    const os = at(orders, i);
    if (os.some((o) => o === null)) continue;
    const sum = (os as number[]).reduce((x, y) => x + y, 0);
    // Hypervalent N, P, S and halogens with multiple bonds may be rescued by RDKit's clean-up
    // (nitro, azide, perchlorate): only all-single excess is certain to fail for them.
    if (sum > max && (NO_CLEANUP.has(a.symbol) || os.every((o) => o === 1))) return false;
  }
  return true;
}

/** Number of atoms RDKit would read from this SMILES token (sanitised), or null if it rejects it. */
export function smilesAtomCount(token: string): number | null {
  const g = readSmiles(token.trim());
  if (!g || !sanitizes(g)) return null;
  return g.atoms.length;
}

/** Atoms over all parts of a reaction SMILES ("A>B>C", parts may be empty), or null. */
export function reactionAtomCount(token: string): number | null {
  const t = token.trim();
  if (!t.includes('>')) return null;
  // A dative bond "->" is not a reaction arrow: try the token with datives read as bonds too.
  for (const variant of [t, t.replace(/->/g, '-').replace(/<-/g, '-')]) {
    const parts = variant.split('>');
    if (parts.length !== 3) continue;
    let n = 0;
    let ok = true;
    for (const p of parts) {
      if (p === '') continue;
      const g = readSmiles(p); // reaction templates are not sanitised
      if (!g) {
        ok = false;
        break;
      }
      n += g.atoms.length;
    }
    if (ok) return n;
  }
  return null;
}

/** An InChI (any letter case), its AuxInfo, or a bare standard InChI body. */
export function isInchi(token: string): boolean {
  const t = token.trim();
  return /^inchi=/i.test(t) || /^auxinfo=1\//i.test(t) || /^1S\/[A-Za-z0-9.*]+\/[a-z]/.test(t);
}

const tokens = (s: string): string[] => s.trim().split(/\s+/).filter(Boolean);

/** The first whitespace-separated token: what RDKit reads as the SMILES. */
export function firstToken(s: string): string {
  return tokens(s)[0] ?? '';
}

/** RDKit's verdict on one string: InChI, or its first token a SMILES or reaction of >= 2 atoms. */
export function rdkitReadsStructure(s: string): boolean {
  if (/^\s*inchi=/i.test(s)) return true;
  const tok = firstToken(s);
  const n = smilesAtomCount(tok) ?? reactionAtomCount(tok);
  return n !== null && n >= 2;
}

/** Syntax no gene symbol, identifier or plain word has: SMILES bonds, branches, brackets, ring digits, aromatic atoms. */
export function hasSmilesOnlySyntax(token: string): boolean {
  if (/[=#$:()[\]@/\\%.>*]/.test(token) || /\d/.test(token)) return true;
  return /[bcnops]/.test(token.replace(/Cl|Br/g, ''));
}

/** Tokens of free text, also without quotes, trailing punctuation or one pair of enclosing brackets. */
function candidates(s: string): string[] {
  const out = new Set<string>();
  for (const raw of s.split(/[\s,;|"'`]+/)) {
    if (!raw) continue;
    out.add(raw);
    const trimmed = raw.replace(/[.:!?]+$/, '');
    if (trimmed) out.add(trimmed);
    for (const t of [raw, trimmed]) {
      const m = /^[([{](.*)[)\]}]$/.exec(t);
      if (m && m[1]) out.add(m[1]);
    }
  }
  return [...out];
}

/** Some token of the text (also quoted or bracketed) is an InChI. */
export function containsInchi(s: string): boolean {
  return candidates(s).some(isInchi);
}

/**
 * Free text that carries a structure: some token is an InChI, or a SMILES (or reaction) of at
 * least two atoms written with SMILES-only syntax. Gene symbols and identifiers that merely
 * happen to parse as SMILES (CS, CNP, FOS, CCO) are not caught.
 */
export function hasStructureInText(s: string): boolean {
  for (const tok of candidates(s)) {
    if (isInchi(tok)) return true;
    if (!hasSmilesOnlySyntax(tok)) continue;
    const n = smilesAtomCount(tok) ?? reactionAtomCount(tok);
    if (n !== null && n >= 2) return true;
  }
  return false;
}

/**
 * The default structure test for compound names (docs/lookups.md, "Privacy"): RDKit's verdict on the
 * first token, or a structure anywhere in the text by the free-text rule (a name followed by a
 * pasted SMILES or InChI is held back as well).
 */
export function looksLikeStructure(name: string): boolean {
  return rdkitReadsStructure(name) || hasStructureInText(name);
}
