// Typed views of the data exported from native RDKit by scripts/rdkit/export_catalogs.py, and
// from RDKit MinimalLib by scripts/rdkit/export_monoisotopic.ts. Nothing here is typed in by
// hand: regenerate the JSON with the scripts.
import catalogsJson from '../data/filter_catalogs.json' with { type: 'json' };
import qedJson from '../data/qed.json' with { type: 'json' };
import elementsJson from '../data/elements.json' with { type: 'json' };
import monoisotopicJson from '../data/monoisotopic.json' with { type: 'json' };

/**
 * Exact prefilter of a query (scripts/rdkit/export_catalogs.py, prefilter()): the query has
 * `atoms` atoms, and for each [k, classes] k of its atoms can only match atoms whose class
 * (atomic number + 1000 if aromatic) is in `classes`. A molecule that has fewer atoms than
 * that, or fewer than k atoms in such a class set, cannot match the query.
 */
export interface Prefilter {
  atoms: number;
  sets: [number, number[]][];
}

interface CatalogEntry {
  family: 'pains' | 'brenk';
  catalog: string;
  index: number;
  name: string;
  smarts: string;
  min_count: number;
  max_count: number | null;
  prefilter: Prefilter;
}

export interface AdsParameter {
  A: number;
  B: number;
  C: number;
  D: number;
  E: number;
  F: number;
  DMAX: number;
}

export type QedProperty = 'MW' | 'ALOGP' | 'HBA' | 'HBD' | 'PSA' | 'ROTB' | 'AROM' | 'ALERTS';

interface QedData {
  properties: QedProperty[];
  ads_parameters: Record<QedProperty, AdsParameter>;
  weights: { mean: number[]; max: number[]; none: number[] };
  acceptor_smarts: string[];
  structural_alert_smarts: string[];
  acceptor_prefilter: Prefilter[];
  structural_alert_prefilter: Prefilter[];
  aliphatic_rings_smarts: string;
}

interface ElementData {
  z: number;
  symbol: string;
  atomic_weight: number;
  /** RDKit 2022.09's "most common isotope" (wrong for V, Rn, Ra; not used for masses) */
  most_common_isotope: number;
  most_common_isotope_mass: number;
  /**
   * The isotope `monoisotopic_mass` (MinimalLib's ExactMolWt) weighs an atom of natural
   * composition at, and its exact mass (monoisotopic.json): the mass-spectrometry hints use it.
   */
  monoisotopic_isotope: number;
  monoisotopic_mass: number;
  /** [mass number, exact mass, abundance in percent] of the naturally occurring isotopes */
  natural_isotopes: [number, number, number][];
  /** [mass number, exact mass] of every isotope RDKit knows */
  isotope_masses: [number, number][];
}

export const CATALOG_ENTRIES: readonly CatalogEntry[] = catalogsJson.entries as unknown as CatalogEntry[];
export const QED_DATA: QedData = qedJson as unknown as QedData;
const MONOISOTOPIC = new Map<number, [number, number]>((monoisotopicJson.elements as unknown as [number, string, number, number][]).map(([z, , a, m]) => [z, [a, m]]));

export const ELEMENTS: readonly ElementData[] = (elementsJson.elements as unknown as Omit<ElementData, 'monoisotopic_isotope' | 'monoisotopic_mass'>[]).map((e) => {
  const [a, m] = MONOISOTOPIC.get(e.z) ?? [e.most_common_isotope, e.most_common_isotope_mass];
  return { ...e, monoisotopic_isotope: a, monoisotopic_mass: m };
});

const bySymbol = new Map<string, ElementData>(ELEMENTS.map((e) => [e.symbol, e]));

/** The element of atomic number z (0 is RDKit's dummy atom '*'). */
export function element(z: number): ElementData {
  const e = ELEMENTS[z];
  if (!e) throw new Error(`unknown atomic number ${String(z)}`);
  return e;
}

export function elementBySymbol(symbol: string): ElementData {
  const e = bySymbol.get(symbol);
  if (!e) throw new Error(`unknown element ${symbol}`);
  return e;
}

/**
 * Exact mass of an isotope (RDKit's periodic table); the mass number itself for an isotope
 * RDKit does not know (e.g. [500C]), as RDKit's ExactMolWt does.
 */
export function isotopeMass(z: number, massNumber: number): number {
  const e = ELEMENTS[z];
  if (!e) return massNumber;
  if (massNumber === e.monoisotopic_isotope) return e.monoisotopic_mass;
  for (const [a, m] of e.isotope_masses) if (a === massNumber) return m;
  return massNumber;
}
