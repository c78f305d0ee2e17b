// Molecular formula (RDKit CalcMolFormula notation), ESI adduct m/z and natural isotope
// patterns. Element symbols, isotope masses and abundances come from RDKit's periodic table
// (src/chem/data/elements.json, exported by scripts/rdkit/export_catalogs.py); the monoisotopic
// isotope of each element is the one MinimalLib's ExactMolWt uses (monoisotopic.json, from
// scripts/rdkit/export_monoisotopic.ts), so that M is `monoisotopic_mass` for every element.
import { element, elementBySymbol, ELEMENTS, isotopeMass } from './data.js';
import { components, type MolGraph } from '../molgraph.js';
import type { IsotopePeak, MassSpecHints, MsAdduct } from './schema.js';

/** Electron rest mass in u (CODATA 2018), the value RDKit's ExactMolWt uses for ions. */
export const ELECTRON_MASS = 0.000548579909065;

/** Removes binary floating-point noise (180.15899999999996 -> 180.159): 12 significant digits. */
export function clean(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(12)) : x;
}

/** Peaks weaker than this (percent of the most intense peak) are left out of a pattern. */
const ISOTOPE_MIN_RELATIVE_ABUNDANCE = 0.1;

/** element symbol -> count; hydrogens under 'H' whatever their isotope (RDKit does the same) */
type Composition = Map<string, number>;

/** Element counts of the given atoms of g (all of them by default). */
export function composition(g: MolGraph, atoms: Iterable<number> = g.z.keys()): Composition {
  const counts: Composition = new Map();
  let hs = 0;
  for (const i of atoms) {
    const z = g.z[i];
    if (z === undefined) continue; // not an atom of g
    const sym = ELEMENTS[z]?.symbol ?? '*';
    counts.set(sym, (counts.get(sym) ?? 0) + 1);
    hs += g.hs[i] ?? 0;
  }
  if (hs) counts.set('H', (counts.get('H') ?? 0) + hs);
  return counts;
}

/**
 * Formula as RDKit's CalcMolFormula writes it: C first, then H, then the other symbols in
 * byte order (so 'HCl', 'H2O', 'ClNa', 'CH*O2'); counts above 1 follow the symbol; the net
 * charge is appended as '+', '-', '+2', '-3'.
 */
export function formatFormula(counts: Composition, charge: number): string {
  const keys = [...counts.keys()].filter((k) => (counts.get(k) ?? 0) > 0);
  keys.sort((a, b) => {
    if (a === b) return 0;
    if (a === 'C') return -1;
    if (b === 'C') return 1;
    if (a === 'H') return -1;
    if (b === 'H') return 1;
    return a < b ? -1 : 1;
  });
  let s = '';
  for (const k of keys) {
    const c = counts.get(k) ?? 0;
    s += c > 1 ? `${k}${c}` : k;
  }
  if (charge > 0) s += charge > 1 ? `+${charge}` : '+';
  else if (charge < 0) s += charge < -1 ? `-${-charge}` : '-';
  return s;
}

function chargeOf(g: MolGraph, atoms: Iterable<number>): number {
  let q = 0;
  for (const i of atoms) q += g.chg[i] ?? 0;
  return q;
}

/**
 * The atoms mass spectrometry hints are about: the whole input when it is one fragment,
 * otherwise its largest fragment (most heavy atoms, then most atoms, then first).
 */
function msSpeciesAtoms(g: MolGraph): number[] {
  const [comp, count] = components(g);
  if (count <= 1) return Array.from({ length: g.n }, (_, i) => i);
  const heavy = new Int32Array(count);
  const all = new Int32Array(count);
  for (let i = 0; i < g.n; i++) {
    const c = comp[i] ?? 0;
    all[c] = (all[c] ?? 0) + 1;
    if ((g.z[i] ?? 0) > 1) heavy[c] = (heavy[c] ?? 0) + 1;
  }
  let best = 0;
  let bestHeavy = heavy[0] ?? 0;
  let bestAll = all[0] ?? 0;
  for (let c = 1; c < count; c++) {
    const h = heavy[c] ?? 0;
    const a = all[c] ?? 0;
    if (h > bestHeavy || (h === bestHeavy && a > bestAll)) {
      best = c;
      bestHeavy = h;
      bestAll = a;
    }
  }
  const out: number[] = [];
  for (let i = 0; i < g.n; i++) if (comp[i] === best) out.push(i);
  return out;
}

// ---- isotope distributions ----------------------------------------------------------------

/** A distribution over nominal mass shifts: p[k] and sum of p*mass mp[k] at shift lo + k. */
interface Dist {
  lo: number;
  p: Float64Array;
  mp: Float64Array;
}

const PRUNE = 1e-14;

function delta(mass: number): Dist {
  return { lo: 0, p: Float64Array.of(1), mp: Float64Array.of(mass) };
}

function convolve(a: Dist, b: Dist): Dist {
  const len = a.p.length + b.p.length - 1;
  const p = new Float64Array(len);
  const mp = new Float64Array(len);
  // (indices are in range by construction: i + j < len; the ?? 0 never applies)
  for (let i = 0; i < a.p.length; i++) {
    const pa = a.p[i] ?? 0;
    if (pa === 0) continue;
    const ma = a.mp[i] ?? 0;
    for (let j = 0; j < b.p.length; j++) {
      const pb = b.p[j] ?? 0;
      if (pb === 0) continue;
      const k = i + j;
      p[k] = (p[k] ?? 0) + pa * pb;
      mp[k] = (mp[k] ?? 0) + (ma * pb + pa * (b.mp[j] ?? 0));
    }
  }
  // prune negligible tails (relative to the largest entry) to keep arrays short
  let max = 0;
  for (let k = 0; k < len; k++) {
    const v = p[k] ?? 0;
    if (v > max) max = v;
  }
  const floor = max * PRUNE;
  let s = 0;
  let e = len - 1;
  while (s < e && (p[s] ?? 0) < floor) s++;
  while (e > s && (p[e] ?? 0) < floor) e--;
  for (let k = s; k <= e; k++) {
    if ((p[k] ?? 0) < floor) {
      p[k] = 0;
      mp[k] = 0;
    }
  }
  return { lo: a.lo + b.lo + s, p: p.slice(s, e + 1), mp: mp.slice(s, e + 1) };
}

function power(d: Dist, n: number): Dist {
  let result = delta(0);
  let base = d;
  while (n > 0) {
    if (n & 1) result = convolve(result, base);
    n >>= 1;
    if (n) base = convolve(base, base);
  }
  return result;
}

const elementDistCache = new Map<number, Dist>();

/** One atom of element z with natural isotopic composition; shifts relative to its monoisotopic isotope. */
function elementDist(z: number): Dist {
  let d = elementDistCache.get(z);
  if (d) return d;
  const e = element(z);
  const iso = e.natural_isotopes;
  if (iso.length === 0) {
    d = delta(e.monoisotopic_mass);
  } else {
    const lo = Math.min(...iso.map(([a]) => a)) - e.monoisotopic_isotope;
    const hi = Math.max(...iso.map(([a]) => a)) - e.monoisotopic_isotope;
    const p = new Float64Array(hi - lo + 1);
    const mp = new Float64Array(hi - lo + 1);
    const total = iso.reduce((s, [, , ab]) => s + ab, 0);
    for (const [a, mass, ab] of iso) {
      const k = a - e.monoisotopic_isotope - lo;
      p[k] = (p[k] ?? 0) + ab / total;
      mp[k] = (mp[k] ?? 0) + (ab / total) * mass;
    }
    d = { lo, p, mp };
  }
  elementDistCache.set(z, d);
  return d;
}

interface Species {
  counts: Composition;
  charge: number;
  /** exact monoisotopic mass, electron mass accounted for ions (RDKit ExactMolWt convention) */
  mass: number;
  /** natural-abundance atom counts by atomic number (implicit H included under 1) */
  natural: Map<number, number>;
  /** summed exact mass of isotope-labelled atoms */
  labelledMass: number;
}

function species(g: MolGraph, atoms: readonly number[]): Species {
  const natural = new Map<number, number>();
  let labelledMass = 0;
  let hs = 0;
  for (const i of atoms) {
    const z = g.z[i];
    if (z === undefined) continue; // not an atom of g
    hs += g.hs[i] ?? 0;
    const iso = g.isotope[i] ?? 0;
    if (iso) labelledMass += isotopeMass(z, iso);
    else natural.set(z, (natural.get(z) ?? 0) + 1);
  }
  if (hs) natural.set(1, (natural.get(1) ?? 0) + hs);
  const charge = chargeOf(g, atoms);
  let mass = labelledMass - charge * ELECTRON_MASS;
  for (const [z, n] of natural) mass += n * element(z).monoisotopic_mass;
  return { counts: composition(g, atoms), charge, mass, natural, labelledMass };
}

function isotopePattern(sp: Species): IsotopePeak[] {
  let d = delta(sp.labelledMass - sp.charge * ELECTRON_MASS);
  // natural elements in a fixed order (by atomic number) so results are reproducible
  for (const z of [...sp.natural.keys()].sort((a, b) => a - b)) {
    d = convolve(d, power(elementDist(z), sp.natural.get(z) ?? 0));
  }
  let max = 0;
  for (let k = 0; k < d.p.length; k++) {
    const v = d.p[k] ?? 0;
    if (v > max) max = v;
  }
  const peaks: IsotopePeak[] = [];
  for (let k = 0; k < d.p.length; k++) {
    const pk = d.p[k] ?? 0;
    const rel = (100 * pk) / max;
    if (rel < ISOTOPE_MIN_RELATIVE_ABUNDANCE) continue;
    const shift = d.lo + k;
    peaks.push({ label: shift === 0 ? 'M' : shift > 0 ? `M+${shift}` : `M${shift}`, mass: clean((d.mp[k] ?? 0) / pk), relative_abundance: clean(rel) });
  }
  return peaks;
}

// ---- adducts ---------------------------------------------------------------------------

interface AdductRule {
  adduct: string;
  charge: 1 | -1;
  add: [string, number][];
}

/** ESI adducts of a neutral species M. */
const NEUTRAL_ADDUCTS: AdductRule[] = [
  { adduct: '[M+H]+', charge: 1, add: [['H', 1]] },
  { adduct: '[M+Na]+', charge: 1, add: [['Na', 1]] },
  { adduct: '[M+K]+', charge: 1, add: [['K', 1]] },
  {
    adduct: '[M+NH4]+',
    charge: 1,
    add: [
      ['N', 1],
      ['H', 4],
    ],
  },
  { adduct: '[M-H]-', charge: -1, add: [['H', -1]] },
  { adduct: '[M+Cl]-', charge: -1, add: [['Cl', 1]] },
  {
    adduct: '[M+HCOO]-',
    charge: -1,
    add: [
      ['C', 1],
      ['H', 1],
      ['O', 2],
    ],
  },
];

function monoMass(symbol: string): number {
  return elementBySymbol(symbol).monoisotopic_mass;
}

function adducts(sp: Species): MsAdduct[] {
  if (sp.charge !== 0) {
    const q = sp.charge;
    const abs = Math.abs(q);
    const sign = q > 0 ? '+' : '-';
    return [{ adduct: `[M]${abs > 1 ? abs : ''}${sign}`, charge: q, mz: clean(sp.mass / abs), formula: formatFormula(sp.counts, q) }];
  }
  const out: MsAdduct[] = [];
  for (const rule of NEUTRAL_ADDUCTS) {
    const counts = new Map(sp.counts);
    let mass = sp.mass - rule.charge * ELECTRON_MASS;
    let possible = true;
    for (const [sym, n] of rule.add) {
      counts.set(sym, (counts.get(sym) ?? 0) + n);
      mass += n * monoMass(sym);
      // [M-H]- needs a natural-abundance hydrogen to lose (the mass removed is that of 1H)
      if (n < 0 && sym === 'H' && (sp.natural.get(1) ?? 0) < -n) possible = false;
    }
    if (!possible) continue;
    out.push({ adduct: rule.adduct, charge: rule.charge, mz: clean(mass), formula: formatFormula(counts, rule.charge) });
  }
  return out;
}

export function massSpecHints(g: MolGraph): MassSpecHints | null {
  for (let i = 0; i < g.n; i++) if (g.z[i] === 0) return null;
  if (g.n === 0) return null;
  const sp = species(g, msSpeciesAtoms(g));
  return { adducts: adducts(sp), isotopes: isotopePattern(sp) };
}
