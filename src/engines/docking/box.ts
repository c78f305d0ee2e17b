// The search box of a docking job (docs/engines.md, "Docking"): around an uploaded reference
// ligand's pose, or around a hetero group of the receptor, named by its residue name or found as
// "its ligand" (box_site "ligand"). Pure functions of text and coordinates; the reference
// ligand's file is read in the receptor reader's thread (receptor-reader.ts).
import { listFew } from '../../errors.js';
import { atomsInBox, extentOf, type Box, type ReceptorInfo } from './receptor.js';

/** A box side may be at most this long (AutoDock's grid limit the contract keeps). */
export const MAX_BOX_SIDE = 126;
/** box_site's word for the receptor's own ligand (a residue name has 1 to 3 characters, so never this). */
export const ITS_LIGAND = 'ligand';
/** box_site's word for the receptor's best pocket (docs/structure.md, "Pockets"; four letters, so never a residue name). */
export const AUTO_SITE = 'auto';
/** A hetero group with fewer heavy atoms is an ion or a small additive, not a ligand to dock around. */
export const MIN_LIGAND_HEAVY_ATOMS = 6;
/**
 * Hetero groups that are never "its ligand": crystallisation additives, cryoprotectants,
 * buffers, detergents, and the sugars of glycosylation (docs/engines.md, "Docking").
 */
export const NOT_LIGANDS = new Set(
  (
    'GOL EDO PEG PGE PG4 PG5 PG6 1PE 2PE P6G 12P 15P PE4 PE5 PE8 P33 XPE MPD MRD PGO PGR 1PG DIO ' +
    'ACT ACY ACE FMT DMS DMF EOH MOH IPA IOH BU3 BU1 TBU CXS BME DTT DTU MES EPE HEPES TRS TRIS B3P 144 CAC ' +
    'CIT FLC TLA TAR MLI MLA MAL SIN SUC MPO PIN IMD AZI NO3 SCN SO4 PO4 PI2 PO3 2HP SUL NH4 OXL ' +
    'BOG LDA LMT LMU C8E HTG SDS DDQ UNX UNL ' +
    'NAG NDG BMA MAN FUC FUL GAL GLA GLC BGC SIA NGA A2G XYP XYS'
  ).split(' '),
);

/** The heavy atoms' coordinates of a ligand file, x y z flattened: SDF/MOL (V2000, V3000), MOL2 or PDB. */
export function ligandCoords(text: string): number[] {
  const out: number[] = [];
  const lines = text.replace(/\r/g, '').split('\n');
  const push = (el: string, x: number, y: number, z: number) => {
    if (!/^(H|D)$/i.test(el) && [x, y, z].every(Number.isFinite)) out.push(x, y, z);
  };
  // A molfile's counts line: the fourth line, "aaabbb..." (V2000, which some writers leave unsaid).
  const v2000 = /^[ \d]{3}[ \d]{3}/.test(lines[3] ?? '') && !/V3000/.test(lines[3]!) && Number(lines[3]!.slice(0, 3)) > 0 ? 3 : -1;
  if (v2000 >= 0) {
    const n = Number(lines[v2000]!.slice(0, 3));
    for (const l of lines.slice(v2000 + 1, v2000 + 1 + n)) push(l.slice(31, 34).trim(), Number(l.slice(0, 10)), Number(l.slice(10, 20)), Number(l.slice(20, 30)));
    return out;
  }
  if (lines.some((l) => l.startsWith('M  V30 BEGIN ATOM'))) {
    let on = false;
    for (const l of lines) {
      if (l.startsWith('M  V30 BEGIN ATOM')) on = true;
      else if (l.startsWith('M  V30 END ATOM')) break;
      else if (on) {
        const t = l.slice(7).trim().split(/\s+/);
        push(t[1] ?? '', Number(t[2]), Number(t[3]), Number(t[4]));
      }
    }
    return out;
  }
  const mol2 = lines.findIndex((l) => l.startsWith('@<TRIPOS>ATOM'));
  if (mol2 >= 0) {
    for (const l of lines.slice(mol2 + 1)) {
      if (l.startsWith('@<TRIPOS>')) break;
      const t = l.trim().split(/\s+/);
      if (t.length >= 6) push((t[5] ?? '').split('.')[0]!, Number(t[2]), Number(t[3]), Number(t[4]));
    }
    return out;
  }
  for (const l of lines) {
    if (!l.startsWith('ATOM  ') && !l.startsWith('HETATM')) continue;
    const el = l.slice(76, 78).trim() || l.slice(12, 14).trim();
    push(el, Number(l.slice(30, 38)), Number(l.slice(38, 46)), Number(l.slice(46, 54)));
  }
  return out;
}

/** The box around atoms (x y z flattened): their extent plus `padding` on every side. */
export function boxAround(coords: ArrayLike<number>, padding: number): Box {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < coords.length; i += 3)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, coords[i + k]!);
      max[k] = Math.max(max[k]!, coords[i + k]!);
    }
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return {
    center: [0, 1, 2].map((k) => r((min[k]! + max[k]!) / 2)) as Box['center'],
    size: [0, 1, 2].map((k) => r(Math.max(1, max[k]! - min[k]! + 2 * padding))) as Box['size'],
  };
}

function boundedBox(coords: ArrayLike<number>, padding: number, what: string): Box | string {
  const box = boxAround(coords, padding);
  const big = box.size.findIndex((s) => s > MAX_BOX_SIDE);
  if (big >= 0) return `the box around ${what} would be ${box.size[big]} A along ${'xyz'[big]}; at most ${MAX_BOX_SIDE} A`;
  return box;
}

/** The problem a reference ligand's text has, or its box. */
export function referenceBox(text: string, padding: number): Box | string {
  const coords = ligandCoords(text);
  if (!coords.length) return 'the reference ligand has no atoms with coordinates: upload a pose as SDF, MOL, MOL2 or PDB';
  let flat = coords.length > 6;
  for (let i = 2; i < coords.length && flat; i += 3) flat = Math.abs(coords[i]!) < 1e-4;
  if (flat) return 'the reference ligand is 2D (all z are 0): upload its 3D pose';
  return boundedBox(coords, padding, 'the reference ligand');
}

/** Heavy atoms of each hetero group (its first group of a residue name), largest first, waters left out. */
function heteroGroups(info: Pick<ReceptorInfo, 'sites'>): { name: string; heavy: number }[] {
  return [...info.sites]
    .filter(([name]) => name !== 'HOH')
    .map(([name, c]) => ({ name, heavy: c.length / 3 }))
    .sort((a, b) => b.heavy - a.heavy || a.name.localeCompare(b.name));
}

const named = (g: { name: string; heavy: number }) => `${g.name} (${g.heavy} heavy atom${g.heavy === 1 ? '' : 's'})`;
/** The first few groups and how many more (errors.listFew: a receptor may hold 20,000). */
const listed = (groups: { name: string; heavy: number }[]) => listFew(groups.map(named));

/**
 * "Its ligand": the one hetero group of the receptor, by residue name, that is neither water, nor
 * kept in the receptor (keep_hetero), nor an ion or small additive (fewer than 6 heavy atoms),
 * nor a crystallisation additive, buffer, detergent or glycosylation sugar (NOT_LIGANDS). None,
 * or several with different names, cannot be told: the problem names the groups there are, so
 * that the caller can name one (box_site "STI").
 */
export function itsLigand(info: Pick<ReceptorInfo, 'sites' | 'kept'>): { site: string } | { problem: string } {
  const groups = heteroGroups(info);
  const why = (g: { name: string; heavy: number }) =>
    Object.hasOwn(info.kept, g.name)
      ? 'kept in the receptor'
      : g.heavy < MIN_LIGAND_HEAVY_ATOMS
        ? 'an ion or small additive'
        : NOT_LIGANDS.has(g.name)
          ? 'an additive or sugar'
          : null;
  const candidates = groups.filter((g) => why(g) === null);
  if (candidates.length === 1) return { site: candidates[0]!.name };
  if (candidates.length > 1)
    return {
      problem: `the receptor has ${candidates.length} ligands, so "its ligand" cannot be told: ${listed(candidates)}; give box_site as one of their residue names`,
    };
  return {
    problem: groups.length
      ? `the receptor has no ligand to dock around: its hetero groups are ${listFew(
          groups.map((g) => `${named(g)}, ${why(g)}`),
          undefined,
          '; ',
        )}; give box_site as a residue name, or a box`
      : 'the receptor has no hetero group, so no ligand to dock around; give a box, or reference_ligand_artifact_id',
  };
}

/** The box around a hetero group of the receptor (its first group of that residue name, or its ligand), or the problem. */
export function siteBox(info: Pick<ReceptorInfo, 'sites' | 'kept'>, site: string, padding: number): { box: Box; site: string } | string {
  let name = site.toUpperCase();
  if (site === ITS_LIGAND) {
    const found = itsLigand(info);
    if ('problem' in found) return found.problem;
    name = found.site;
  }
  const coords = info.sites.get(name);
  if (!coords?.length) {
    const names = [...info.sites.keys()].filter((n) => n !== 'HOH');
    return `the receptor has no hetero group ${name} (${names.length ? `its hetero groups: ${listFew(names)}` : 'it has no hetero groups'})`;
  }
  const box = boundedBox(coords, padding, name);
  return typeof box === 'string' ? box : { box, site: name };
}

/** Why a box misses the receptor (it holds none of its heavy atoms, naming where they are), or null. */
export function boxMissing(box: Box, coords: Float64Array): string | null {
  if (atomsInBox(coords, box) > 0) return null;
  const e = extentOf(coords);
  const span = [0, 1, 2].map((k) => `${'xyz'[k]} ${e.min[k]!.toFixed(1)}..${e.max[k]!.toFixed(1)}`).join(', ');
  return `the box (center ${box.center.join(', ')}, size ${box.size.join(', ')} A) holds no atom of the receptor, whose atoms span ${span} A`;
}
