// The ionisable sites (docs/questions.md, "pKa"): a SMARTS catalogue, in order (an atom takes the
// first class that matches it; its first SMARTS atom is the site). Classes with a calibration
// line (src/engines/questions/pka-calibration.ts) get a pKa; the others are found and reported
// with `pka: null` and the reason. The RDKit program matches them at run time on the neutral
// form of the molecule; the chemistry pool matches them at submit to count the sites.

export type SiteKind = 'acid' | 'base';

export interface SiteClass {
  class: string;
  kind: SiteKind;
  smarts: string;
}

export const SITE_CATALOGUE: readonly SiteClass[] = [
  { class: 'carboxylic acid', kind: 'acid', smarts: '[OX2H1;+0][CX3]=O' },
  { class: 'tetrazole', kind: 'acid', smarts: '[nH1]1nnnc1' },
  { class: 'tetrazole', kind: 'acid', smarts: '[nH1]1nncn1' },
  { class: 'sulfonamide', kind: 'acid', smarts: '[NX3;H1,H2;+0][SX4](=O)(=O)' },
  { class: 'imide', kind: 'acid', smarts: '[NX3H1;+0]([CX3]=O)[CX3]=O' },
  { class: 'phenol', kind: 'acid', smarts: '[OX2H1;+0]c' },
  { class: 'thiol', kind: 'acid', smarts: '[SX2H1;+0][#6]' },
  // Amidines and guanidines: the imine nitrogen takes the proton.
  { class: 'amidine', kind: 'base', smarts: '[NX2;+0;!$(N~[O,S,N]);!$(N-C=O)]=[CX3]([#6,#1,#7])[NX3;+0;!$(N-C=O)]' },
  // An amino group on a benzene-like ring: not one on a ring with an aromatic nitrogen within two
  // bonds of it (aminopyridines, aminopyrimidines: their ring nitrogen is the base).
  {
    class: 'aniline',
    kind: 'base',
    smarts: '[NX3;+0;!$(N-[C,S,P]=[O,S,N]);!$(N-[a;!c]);!$(N-c:n);!$(N-c:c:n);!$(N-c:c:c:n);!$(N-[N,O,S]);!$(N-C=C)]-c',
  },
  // sp3 amines: not amides, sulfonamides, enamines, hydrazines, hydroxylamines or cyanamides.
  { class: 'aliphatic amine', kind: 'base', smarts: '[NX3;+0;!$(N-a);!$(N-[C,S,P]=[O,S,N]);!$(N-[N,O,S]);!$(N-C=C);!$(N-C#*);!$(N-[SX4])]' },
  // Pyridine-like and azole nitrogens: not in tetrazoles or triazoles, nor next to a ring O or S.
  { class: 'aromatic nitrogen', kind: 'base', smarts: '[nX2;+0;!$(n1nnnc1);!$(n1nncn1);!$(n:n:n);!$(n(:o));!$(n(:s))]' },
];

/** The most sites a `pka` job takes per molecule (a 422 at submit above it, an item error for an uploaded set). */
export const MAX_SITES = 20;

export interface Site {
  atom_index: number;
  element: string;
  class: string;
  kind: SiteKind;
}

/** The sites from each SMARTS's matched first atoms (in catalogue order): each atom once, with its first class. */
export function sitesFromMatches(matches: readonly (readonly number[])[]): Map<number, SiteClass> {
  const seen = new Map<number, SiteClass>();
  SITE_CATALOGUE.forEach((c, i) => {
    for (const atom of matches[i] ?? []) if (!seen.has(atom)) seen.set(atom, c);
  });
  return seen;
}
