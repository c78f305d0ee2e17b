// Conceptual-DFT reactivity descriptors from xtb, for the `reactivity` job type (docs/engines.md,
// "Reactivity"): the structure optimised with GFN2-xTB, then on that geometry
//
// - `--vomega`: the neutral's SCC (its orbital table gives the HOMO and LUMO), the vertical IP
//   and EA (xtb's "delta SCC" cation and anion calculations, the ones --vipea runs) and the
//   global electrophilicity index (IP+EA)²/(8(IP-EA));
// - `--vfukui`: the condensed Fukui indices f+, f- and f0 per atom, from the charges of the
//   neutral, the cation and the anion at the same geometry.
//
// Each figure is the number xtb prints, at its precision (eV to 4 decimals, Fukui indices to 3).
// Both property runs start from scratch (--norestart), so xtb run by hand on the returned
// molblock with the same flags prints the same numbers. xtb 6.5 prints the Fukui columns under
// each other's heading (its "f(+)" is the charge change on removing an electron, q(N-1) - q(N),
// which is f-); the columns are read by what they are (fukuiColumns).
import fs from 'node:fs';
import path from 'node:path';
import { readMolblock, subsetMolblock } from '../molblock.js';
import { ItemFailure, lastLines, type EngineTools, type Prepared } from '../tools.js';
import { runXtb } from './xtb.js';

export interface ReactivityCall {
  solvent?: string | null;
  charge: number;
  multiplicity: number;
  /** Optimisation cycles at most (xtb's default when absent). */
  maxIterations?: number;
  timeoutMs?: number;
}

export interface FukuiIndex {
  atom_index: number;
  f_plus: number;
  f_minus: number;
  f_zero: number;
}

export interface Reactivity {
  /** The optimised structure (the input's atom order), on which the properties were computed. */
  molblock: string;
  homoEv: number | null;
  lumoEv: number | null;
  ipEv: number;
  eaEv: number;
  electrophilicityEv: number;
  fukui: FukuiIndex[];
  /** The xtb version that printed them (its banner), e.g. "6.5.1". */
  xtbVersion: string | null;
}

/** The figures of a `--vomega` run: the neutral's frontier orbitals, the vertical IP and EA, the electrophilicity index. */
export interface VomegaFigures {
  homoEv: number | null;
  lumoEv: number | null;
  ipEv: number | null;
  eaEv: number | null;
  electrophilicityEv: number | null;
}

const NUM = '(-?\\d+\\.\\d+)';

function figure(text: string, re: RegExp): number | null {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * Reads xtb's output of `--vomega` (or `--vipea`, without the index). The HOMO and LUMO are the
 * eV column of the first orbital table, the neutral's (the output ends with the anion's table).
 */
export function readVomega(stdout: string): VomegaFigures {
  const orbital = (label: string) => figure(stdout, new RegExp(`^\\s*\\d+\\s+(?:\\d+\\.\\d+\\s+)?-?\\d+\\.\\d+\\s+${NUM}\\s+\\(${label}\\)\\s*$`, 'm'));
  return {
    homoEv: orbital('HOMO'),
    lumoEv: orbital('LUMO'),
    ipEv: figure(stdout, new RegExp(`delta SCC IP \\(eV\\):\\s*${NUM}`)),
    eaEv: figure(stdout, new RegExp(`delta SCC EA \\(eV\\):\\s*${NUM}`)),
    electrophilicityEv: figure(stdout, new RegExp(`Global electrophilicity index \\(eV\\):\\s*${NUM}`)),
  };
}

/** The version in xtb's banner ("* xtb version 6.5.1 (...)"), or null. */
export function xtbVersionOf(stdout: string): string | null {
  return /xtb version (\d+\.\d+\.\d+)/.exec(stdout)?.[1] ?? null;
}

/** The table `--vfukui` prints under "#  f(+)  f(-)  f(0)": one row per atom, as printed. */
export function readFukuiTable(stdout: string): { atom: number; symbol: string; columns: [number, number, number] }[] {
  const lines = stdout.split('\n');
  const head = lines.findIndex((l) => /#\s+f\(\+\)\s+f\(-\)\s+f\(0\)/.test(l));
  if (head < 0) return [];
  const rows: { atom: number; symbol: string; columns: [number, number, number] }[] = [];
  for (const line of lines.slice(head + 1)) {
    const m = new RegExp(`^\\s*(\\d+)([A-Za-z]{1,3})\\s+${NUM}\\s+${NUM}\\s+${NUM}\\s*$`).exec(line);
    if (!m) break;
    rows.push({ atom: Number(m[1]), symbol: m[2]!, columns: [Number(m[3]), Number(m[4]), Number(m[5])] });
  }
  return rows;
}

/**
 * Which printed column is f+ and which f- (docs/engines.md, "Reactivity"). xtb 6.5 heads the
 * charge change on removing an electron, q(N-1) - q(N) (the standard f-, large on a lone pair),
 * "f(+)", and the one on adding an electron, q(N) - q(N+1) (f+), "f(-)": checked on 6.5.1 against
 * separate single points of the cation and the anion (test/engines/reactivity.test.ts). Other
 * versions head them as they are; 6.4 and early 6.6 printed them with the opposite sign, so a
 * column that sums to about -1 is negated (f0 follows f+ and f-).
 */
export function fukuiColumns(version: string | null): { plus: 0 | 1; minus: 0 | 1 } {
  return version !== null && /^6\.5\./.test(version) ? { plus: 1, minus: 0 } : { plus: 0, minus: 1 };
}

/** The condensed Fukui indices of a `--vfukui` output, per atom in the input order; null when xtb printed none for these atoms. */
export function readFukui(stdout: string, symbols: readonly string[]): FukuiIndex[] | null {
  const rows = readFukuiTable(stdout);
  if (rows.length !== symbols.length || rows.some((r, i) => r.atom !== i + 1 || r.symbol.toLowerCase() !== symbols[i]!.toLowerCase())) return null;
  const { plus, minus } = fukuiColumns(xtbVersionOf(stdout));
  const sum = (k: number) => rows.reduce((t, r) => t + r.columns[k]!, 0);
  const flip = sum(plus) + sum(minus) < 0;
  const value = (v: number) => (flip && v !== 0 ? -v : v);
  return rows.map((r, i) => ({ atom_index: i, f_plus: value(r.columns[plus]), f_minus: value(r.columns[minus]), f_zero: value(r.columns[2]) }));
}

/**
 * `s` optimised with GFN2-xTB (in the solvent if given), then `--vomega` and `--vfukui` on the
 * optimised structure, each in a clean directory of its own with --norestart: nothing of the
 * optimisation's wave function carries over, as when xtb is run by hand on the molblock.
 */
export async function xtbReactivity(tools: EngineTools, dir: string, s: Prepared, c: ReactivityCall): Promise<Reactivity> {
  const call = { method: 'gfn2' as const, solvent: c.solvent, charge: c.charge, multiplicity: c.multiplicity, timeoutMs: c.timeoutMs };
  const opt = await runXtb(tools, dir, s, { ...call, optimize: { maxIterations: c.maxIterations } });
  const optimized: Prepared = { ...s, molblock: opt.molblock };
  const property = async (flag: '--vomega' | '--vfukui') => {
    const sub = path.join(dir, flag.slice(2));
    fs.mkdirSync(sub);
    const r = await runXtb(tools, sub, optimized, { ...call, extra: [flag, '--norestart'] });
    return r.stdout;
  };
  const omega = await property('--vomega');
  const v = readVomega(omega);
  if (v.ipEv === null || v.eaEv === null || v.electrophilicityEv === null)
    throw new ItemFailure('engine_failed', `xtb --vomega printed no vertical IP, EA or electrophilicity index: ${lastLines(omega)}`, opt.molblock);
  const fukuiOut = await property('--vfukui');
  const fukui = readFukui(fukuiOut, s.symbols);
  if (!fukui) throw new ItemFailure('engine_failed', `xtb --vfukui printed no Fukui index for each of the ${s.symbols.length} atoms: ${lastLines(fukuiOut)}`, opt.molblock);
  return {
    molblock: opt.molblock,
    homoEv: v.homoEv,
    lumoEv: v.lumoEv,
    ipEv: v.ipEv,
    eaEv: v.eaEv,
    electrophilicityEv: v.electrophilicityEv,
    fukui,
    xtbVersion: xtbVersionOf(fukuiOut),
  };
}

/** Sites of attack drawn per kind: the heavy atoms with the largest indices (more where values tie). */
export const TOP_SITES = 2;

/**
 * The top sites of attack (docs/engines.md, "Reactivity"): the heavy atoms with the TOP_SITES
 * largest f+ (where a nucleophile attacks: the added electron goes there) and the TOP_SITES
 * largest f- (where an electrophile attacks: the electron is taken from there), each with every
 * heavy atom of the same printed value (symmetry-equivalent atoms, such as pyridine's two meta
 * carbons, come together), largest first, then by index. Hydrogens keep their indices in `fukui`
 * but are never a site (a structure without heavy atoms gets its hydrogens).
 */
export function topSites(fukui: readonly FukuiIndex[], symbols: readonly string[]): { nucleophilic: number[]; electrophilic: number[] } {
  const heavy = fukui.filter((f) => symbols[f.atom_index] !== 'H');
  const pool = heavy.length ? heavy : [...fukui];
  const top = (key: 'f_plus' | 'f_minus') => {
    const sorted = [...pool].sort((a, b) => b[key] - a[key] || a.atom_index - b.atom_index);
    const cut = sorted[Math.min(TOP_SITES, sorted.length) - 1]?.[key] ?? Infinity;
    return sorted.filter((f) => f[key] >= cut).map((f) => f.atom_index);
  };
  return { nucleophilic: top('f_plus'), electrophilic: top('f_minus') };
}

/** The highlight colours of the drawing: light enough that the atom labels stay readable on them. */
export const SITE_COLOURS = { nucleophilic: '#8CBFFF', electrophilic: '#FFB866' } as const;

/** Sites a legend row names (the others are counted). */
const LEGEND_SITES = 3;

/** What the chemistry pool draws for a structure's sites (src/chem/depict.ts, depictHighlighted's input). */
export interface SitesDrawing {
  molblock: string;
  atoms: Record<number, string[]>;
  title: string;
  legend: { colour: string; text: string }[];
}

/**
 * The drawing of a structure's top sites: its atoms up to the last heavy one (the hydrogens after
 * it left to RDKit's implicit ones, so that every drawn atom keeps its index, which the drawing
 * shows), each site highlighted in its kind's colour (an atom that is both gets both), and a
 * legend naming each colour's sites with their indices.
 */
export function sitesDrawing(molblock: string, fukui: readonly FukuiIndex[], title: string): SitesDrawing {
  const mol = readMolblock(molblock);
  let last = mol.symbols.length - 1;
  while (last > 0 && mol.symbols[last] === 'H') last--;
  const keep = mol.symbols.some((x) => x !== 'H') ? Array.from({ length: last + 1 }, (_, i) => i) : mol.symbols.map((_, i) => i);
  const sites = topSites(fukui, mol.symbols);
  const atoms: Record<number, string[]> = {};
  for (const i of sites.nucleophilic) (atoms[i] ??= []).push(SITE_COLOURS.nucleophilic);
  for (const i of sites.electrophilic) (atoms[i] ??= []).push(SITE_COLOURS.electrophilic);
  // At most LEGEND_SITES named per row (a benzene ring's six equal carbons: three, then how many more).
  const named = (list: number[], key: 'f_plus' | 'f_minus') =>
    list
      .slice(0, LEGEND_SITES)
      .map((i) => `${mol.symbols[i]}${i} ${fukui[i]![key].toFixed(3)}`)
      .join(', ') + (list.length > LEGEND_SITES ? ` +${list.length - LEGEND_SITES} more` : '');
  return {
    molblock: subsetMolblock(mol, keep),
    atoms,
    title,
    legend: [
      { colour: SITE_COLOURS.nucleophilic, text: `nucleophilic attack, largest f+: ${named(sites.nucleophilic, 'f_plus')}` },
      { colour: SITE_COLOURS.electrophilic, text: `electrophilic attack, largest f\u2212: ${named(sites.electrophilic, 'f_minus')}` },
    ],
  };
}
