// The torsion tree of a ligand PDBQT (docs/engines.md, "Docking"). Open Babel types the atoms
// (AutoDock types: A aromatic carbon, NA/OA acceptors, HD polar hydrogens); the tree is ours, so
// that the rotatable bonds are those a docking run needs: every acyclic single bond between two
// atoms that each carry something else, except amide C-N bonds (kept as built, trans), bonds to
// an sp atom, and bonds that would only spin two or three hydrogens (NH2, NH3+). Open Babel's
// own tree also freezes the N-C bond of 2-aminopyridines and 2-aminopyrimidines (an amidine to
// it), which fixes imatinib's anilinopyrimidine in whatever rotamer the 3D builder chose: the
// crystal pose of 1IEP is then out of reach.
import type { Mol } from '../molblock.js';

export interface TorsionTree {
  pdbqt: string;
  /** Rotatable bonds that move heavy atoms (TORSDOF, Vina's count for its torsion penalty). */
  torsdof: number;
  /** Every branch of the tree (those that only turn a polar hydrogen too). */
  branches: number;
}

interface Bond {
  a: number;
  b: number;
  order: number;
}

function bondsOf(mol: Mol): Bond[] {
  const nA = mol.symbols.length;
  return mol.bonds.map(([a, b], k) => ({ a, b, order: Number(mol.lines[4 + nA + k]!.slice(6, 9)) }));
}

/** Whether the bond a-b lies on a ring (b is reachable from a without it). */
function inRing(adj: number[][], a: number, b: number): boolean {
  const seen = new Set([a]);
  const stack = adj[a]!.filter((n) => n !== b);
  for (const s of stack) seen.add(s);
  while (stack.length) {
    const x = stack.pop()!;
    if (x === b) return true;
    for (const n of adj[x]!)
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
  }
  return false;
}

/**
 * The ligand's PDBQT with our torsion tree, over the atoms `kept` (indices into mol; PDBQT
 * serial k+1 is kept[k]), taking each atom's line (type, coordinates) from `lines` (by serial).
 */
export function torsionTree(mol: Mol, kept: number[], lines: Map<number, string>, title: string): TorsionTree {
  const serialOf = new Map(kept.map((atom, k) => [atom, k + 1]));
  const isKept = (i: number) => serialOf.has(i);
  const all = bondsOf(mol);
  const adj = mol.symbols.map(() => [] as number[]);
  for (const { a, b } of all) {
    adj[a]!.push(b);
    adj[b]!.push(a);
  }
  const heavy = (i: number) => mol.symbols[i] !== 'H';
  const triple = new Set(all.filter((x) => x.order === 3).flatMap((x) => [x.a, x.b]));
  const doubleTo = (i: number, el: string[]) => all.some((x) => x.order === 2 && (x.a === i || x.b === i) && el.includes(mol.symbols[x.a === i ? x.b : x.a]!));
  const isAmide = (c: number, n: number) => mol.symbols[c] === 'C' && mol.symbols[n] === 'N' && doubleTo(c, ['O', 'S']);
  /** The other kept neighbours of `i` (away from `j`): none, or only 2-3 hydrogens, leaves nothing to turn. */
  const turnsSomething = (i: number, j: number) => {
    const others = adj[i]!.filter((n) => n !== j && isKept(n));
    return others.some(heavy) || others.length === 1;
  };
  const rotatable = all.filter(
    ({ a, b, order }) =>
      order === 1 &&
      isKept(a) &&
      isKept(b) &&
      heavy(a) &&
      heavy(b) &&
      !triple.has(a) &&
      !triple.has(b) &&
      !isAmide(a, b) &&
      !isAmide(b, a) &&
      turnsSomething(a, b) &&
      turnsSomething(b, a) &&
      !inRing(adj, a, b),
  );
  const cut = new Set(rotatable.map(({ a, b }) => `${Math.min(a, b)}-${Math.max(a, b)}`));
  // Rigid fragments: the kept atoms joined by every bond but the rotatable ones.
  const fragOf = new Map<number, number>();
  const frags: number[][] = [];
  for (const start of kept) {
    if (fragOf.has(start)) continue;
    const f: number[] = [];
    const stack = [start];
    fragOf.set(start, frags.length);
    while (stack.length) {
      const x = stack.pop()!;
      f.push(x);
      for (const n of adj[x]!)
        if (isKept(n) && !fragOf.has(n) && !cut.has(`${Math.min(x, n)}-${Math.max(x, n)}`)) {
          fragOf.set(n, frags.length);
          stack.push(n);
        }
    }
    frags.push(f.sort((p, q) => p - q));
  }
  const links = frags.map(() => [] as { to: number; from: number; atom: number }[]);
  for (const { a, b } of rotatable) {
    links[fragOf.get(a)!]!.push({ to: fragOf.get(b)!, from: a, atom: b });
    links[fragOf.get(b)!]!.push({ to: fragOf.get(a)!, from: b, atom: a });
  }
  // The root: the fragment whose largest branch holds the fewest atoms (the tree's centre).
  const sizeAway = (f: number, parent: number): number => frags[f]!.length + links[f]!.filter((l) => l.to !== parent).reduce((s, l) => s + sizeAway(l.to, f), 0);
  let root = 0;
  let best = Infinity;
  frags.forEach((f, i) => {
    const worst = Math.max(0, ...links[i]!.map((l) => sizeAway(l.to, i)));
    if (worst < best || (worst === best && f.length > frags[root]!.length)) {
      best = worst;
      root = i;
    }
  });
  const out: string[] = [`REMARK  Name = ${title.replace(/[\r\n]/g, ' ').slice(0, 60)}`, `REMARK  ${rotatable.length} active torsions`, 'ROOT'];
  // A branch's first atom is the one its bond moves (as AutoDock's tools write them).
  const atomLines = (f: number, first = -1) => [...frags[f]!].sort((p, q) => Number(q === first) - Number(p === first) || p - q).map((i) => lines.get(serialOf.get(i)!)!);
  out.push(...atomLines(root), 'ENDROOT');
  let torsdof = 0;
  const walk = (f: number, parent: number) => {
    for (const l of links[f]!) {
      if (l.to === parent) continue;
      const s1 = String(serialOf.get(l.from)).padStart(4);
      const s2 = String(serialOf.get(l.atom)).padStart(4);
      if (adj[l.atom]!.some((n) => n !== l.from && heavy(n)) && adj[l.from]!.some((n) => n !== l.atom && heavy(n))) torsdof++;
      out.push(`BRANCH${s1}${s2}`, ...atomLines(l.to, l.atom));
      walk(l.to, f);
      out.push(`ENDBRANCH${s1}${s2}`);
    }
  };
  walk(root, -1);
  out.push(`TORSDOF ${torsdof}`, '');
  return { pdbqt: out.join('\n'), torsdof, branches: rotatable.length };
}
