// A quick shape check of a SMILES string without RDKit (brackets, ring bonds, branches, bond
// symbols): molecule files are checked with it on upload, so a job does not meet a line that
// is not a SMILES at all. RDKit has the last word when the molecule is read.

const MAX_SMILES = 10_000;

const ORGANIC_1 = new Set(['B', 'C', 'N', 'O', 'P', 'S', 'F', 'I', 'b', 'c', 'n', 'o', 'p', 's', '*']);
const BONDS = new Set(['-', '=', '#', '$', ':', '/', '\\']);
const BRACKET_ATOM = /^(\d+)?([A-Z][a-z]?|[a-z][a-z]?|\*)(@+|@TH[12]|@AL[12]|@SP[1-3]|@TB\d{1,2}|@OH\d{1,2})?(H\d?)?([+-]+\d*)?(:\d+)?$/;

/** Why `s` is not shaped like a SMILES string, or null when it is. */
export function smilesShapeError(s: string): string | null {
  if (s.length === 0) return 'empty SMILES';
  if (s.length > MAX_SMILES) return `longer than ${MAX_SMILES} characters`;
  let depth = 0;
  let atoms = 0;
  let prev: 'start' | 'atom' | 'bond' | 'dot' | 'open' | 'close' | 'ring' = 'start';
  const open = new Set<number>();
  const ring = (label: number, pos: number): string | null => {
    if (atoms === 0 || prev === 'dot' || prev === 'open' || prev === 'start') return `ring bond ${label} at position ${pos} does not follow an atom`;
    if (open.has(label)) open.delete(label);
    else open.add(label);
    return null;
  };
  for (let i = 0; i < s.length;) {
    const c = s.charAt(i);
    const pos = i + 1;
    if (c === '[') {
      const j = s.indexOf(']', i + 1);
      if (j < 0) return `unclosed '[' at position ${pos}`;
      const inner = s.slice(i + 1, j);
      if (inner.includes('[')) return `'[' inside a bracket atom at position ${pos}`;
      if (!BRACKET_ATOM.test(inner)) return `malformed bracket atom [${inner}] at position ${pos}`;
      atoms++;
      prev = 'atom';
      i = j + 1;
      continue;
    }
    if (c === ']') return `unexpected ']' at position ${pos}`;
    if (c === '(') {
      if (prev === 'start' || prev === 'dot' || prev === 'open' || prev === 'bond') return `branch '(' at position ${pos} does not follow an atom`;
      depth++;
      prev = 'open';
      i++;
      continue;
    }
    if (c === ')') {
      if (depth === 0) return `unmatched ')' at position ${pos}`;
      if (prev === 'open') return `empty branch '()' at position ${pos - 1}`;
      if (prev === 'bond') return `bond before ')' at position ${pos}`;
      depth--;
      prev = 'close';
      i++;
      continue;
    }
    if (c >= '0' && c <= '9') {
      const err = ring(c.charCodeAt(0) - 48, pos);
      if (err) return err;
      prev = 'ring';
      i++;
      continue;
    }
    if (c === '%') {
      const m = /^%(\d\d)|^%\((\d{1,5})\)/.exec(s.slice(i));
      if (!m) return `malformed ring bond '%' at position ${pos}`;
      const err = ring(100 + Number(m[1] ?? m[2]), pos);
      if (err) return err;
      prev = 'ring';
      i += m[0].length;
      continue;
    }
    if (BONDS.has(c)) {
      if (prev === 'start' || prev === 'dot' || prev === 'bond') return `bond '${c}' at position ${pos} does not follow an atom`;
      prev = 'bond';
      i++;
      continue;
    }
    if (c === '.') {
      if (prev !== 'atom' && prev !== 'close' && prev !== 'ring') return `'.' at position ${pos} does not follow an atom`;
      if (depth > 0 && s[i + 1] === ')') return `'.' before ')' at position ${pos}`;
      prev = 'dot';
      i++;
      continue;
    }
    if ((c === 'C' && s[i + 1] === 'l') || (c === 'B' && s[i + 1] === 'r')) {
      atoms++;
      prev = 'atom';
      i += 2;
      continue;
    }
    if (ORGANIC_1.has(c)) {
      atoms++;
      prev = 'atom';
      i++;
      continue;
    }
    if (/\s/.test(c)) return `whitespace at position ${pos}`;
    return `unexpected character '${c}' at position ${pos}`;
  }
  if (depth > 0) return `${depth} unclosed '('`;
  if (open.size) return `ring bond${open.size > 1 ? 's' : ''} ${[...open].map((l) => (l >= 100 ? `%${l - 100}` : String(l))).join(', ')} not closed`;
  if (prev === 'bond' || prev === 'dot') return `ends with '${s[s.length - 1]}'`;
  if (atoms === 0) return 'no atoms';
  return null;
}

/** The SMILES itself: what comes before the first space (a CXSMILES extension or a name follows it). */
export function smilesCore(smiles: string): string {
  const space = smiles.indexOf(' ');
  return space < 0 ? smiles : smiles.slice(0, space);
}
