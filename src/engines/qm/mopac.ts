// MOPAC (PM7, PM6; COSMO solvation) for the engine job types (docs/engines.md). The structure
// goes in as Cartesian coordinates in the input's atom order, and the figures come from the
// AUX file: the heat of formation (MOPAC's energy: its developers advise heats, not its "total
// energy", for energy differences), the dipole, the charges and the optimised coordinates; the
// HOMO-LUMO gap from the output. `energy_hartree` of a MOPAC result is the heat of formation
// in Hartree, so relative energies mean the same as with xtb.
import fs from 'node:fs';
import path from 'node:path';
import { withCoords } from '../molblock.js';
import { ItemFailure, lastLines, type EngineTools, type Prepared } from '../tools.js';
import { SOLVENTS } from './solvents.js';
import { HARTREE_PER_KCAL, type XtbResult } from './xtb.js';

export interface MopacOptions {
  method: 'pm7' | 'pm6';
  solvent?: string | null;
  charge: number;
  multiplicity: number;
  optimize?: { maxIterations?: number };
  /** Extra keywords (e.g. FORCE THERMO for frequencies). */
  extra?: string[];
  timeoutMs?: number;
}

const SPIN = ['', 'SINGLET', 'DOUBLET', 'TRIPLET', 'QUARTET', 'QUINTET', 'SEXTET', 'SEPTET'];

/** The keyword line of a calculation. */
export function mopacKeywords(o: MopacOptions): string {
  const kw = [o.method.toUpperCase(), `CHARGE=${o.charge}`, 'PRECISE', 'AUX(PRECISION=9)', 'THREADS=1'];
  if (o.multiplicity > 1) kw.push('UHF', SPIN[o.multiplicity] ?? 'SINGLET');
  if (o.solvent) kw.push(`EPS=${SOLVENTS[o.solvent] ?? 78.4}`);
  if (!o.optimize) kw.push('1SCF');
  else if (o.optimize.maxIterations) kw.push(`CYCLES=${o.optimize.maxIterations}`);
  kw.push(...(o.extra ?? []));
  return kw.join(' ');
}

/** A Fortran number (1.5D+02) from MOPAC's AUX file. */
function fnum(s: string): number {
  return Number(s.replace(/[dD]/, 'e'));
}

/** The values of an AUX array (`NAME[n]=` followed by numbers on the next lines), the last block of that name. */
export function auxArray(aux: string, name: string): number[] | null {
  const re = new RegExp(`^\\s*${name.replace(/[[\]:.]/g, (c) => `\\${c}`)}\\[(\\d+)\\]=\\s*\\n`, 'gm');
  let m: RegExpExecArray | null;
  let last: { at: number; n: number } | null = null;
  while ((m = re.exec(aux))) last = { at: m.index + m[0].length, n: Number(m[1]) };
  if (!last) return null;
  const values: number[] = [];
  const tokens = aux.slice(last.at).split(/\s+/).filter(Boolean);
  for (const t of tokens) {
    if (values.length >= last.n || !/^[-+]?\d/.test(t)) break;
    values.push(fnum(t));
  }
  return values.length === last.n ? values : null;
}

function auxScalar(aux: string, name: string): number | null {
  const m = new RegExp(`^\\s*${name.replace(/[[\]:./]/g, (c) => `\\${c}`)}=\\s*(\\S+)`, 'm').exec(aux);
  return m ? fnum(m[1]!) : null;
}

/** Runs MOPAC on `s` in `dir`. */
export async function runMopac(tools: EngineTools, dir: string, s: Prepared, o: MopacOptions): Promise<XtbResult> {
  const flag = o.optimize ? '1' : '0';
  const atoms = s.symbols.map((sym, i) => {
    const [x, y, z] = s.coords[i]!;
    return `${sym.padEnd(2)} ${x.toFixed(6)} ${flag} ${y.toFixed(6)} ${flag} ${z.toFixed(6)} ${flag}`;
  });
  fs.writeFileSync(path.join(dir, 'calc.mop'), `${mopacKeywords(o)}\n${(s.name ?? `structure ${s.index}`).replace(/[\r\n]/g, ' ').slice(0, 70)}\n\n${atoms.join('\n')}\n`);
  const r = await tools.run('mopac', ['calc.mop'], dir, { timeoutMs: o.timeoutMs, threads: 1 });
  const read = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : '');
  const out = read('calc.out');
  const aux = read('calc.aux');
  const xyz = auxArray(aux, 'ATOM_X_OPT:ANGSTROMS') ?? auxArray(aux, 'ATOM_X_UPDATED:ANGSTROMS');
  const coords = xyz && xyz.length === s.symbols.length * 3 ? s.symbols.map((_, i) => [xyz[3 * i]!, xyz[3 * i + 1]!, xyz[3 * i + 2]!] as [number, number, number]) : null;
  const last = coords ? withCoords(s.molblock, coords) : null;
  const heat = auxScalar(aux, 'HEAT_OF_FORMATION:KCAL/MOL');
  const errorLine = /^\s*(?:\*\*\*|ERROR|.*\bNOT\b.*\b(?:SATISFIED|CONVERGE|ACHIEVED)\b|.*UNABLE TO ACHIEVE SELF-CONSISTENCE).*$/im.exec(out);
  if (heat === null) {
    const why = errorLine?.[0]?.trim() ?? lastLines(out || r.stdout || r.stderr);
    throw new ItemFailure(/SELF-CONSISTEN|SCF/i.test(why) ? 'scf_not_converged' : 'engine_failed', `MOPAC: ${why}`, last);
  }
  const gap = /HOMO LUMO ENERGIES \(EV\)\s*=\s*(-?\d+\.\d+)\s+(-?\d+\.\d+)/.exec(out);
  const alpha = /ALPHA SOMO LUMO \(EV\)\s*=\s*(-?\d+\.\d+)\s+(-?\d+\.\d+)/.exec(out);
  const g = gap ?? alpha;
  const charges = auxArray(aux, 'ATOM_CHARGES');
  const cycles = /CYCLES=|GEOMETRY OPTIMISED/i.test(out) ? (/^\s*CYCLE:\s*(\d+)/gm.exec(out) ? [...out.matchAll(/^\s*CYCLE:\s*(\d+)/gm)].length : null) : null;
  const notConverged = o.optimize && /GRADIENT IS TOO LARGE|NOT ACHIEVED|EXCESS NUMBER OF OPTIMIZATION CYCLES|CYCLES EXCEEDED/i.test(out);
  const result: XtbResult = {
    energyHartree: heat * HARTREE_PER_KCAL,
    gapEv: g ? Math.round((Number(g[2]) - Number(g[1])) * 1e6) / 1e6 : null,
    dipoleDebye: auxScalar(aux, 'DIPOLE:DEBYE'),
    charges: charges && charges.length === s.symbols.length ? charges : null,
    molblock: o.optimize ? (last ?? s.molblock) : s.molblock,
    converged: o.optimize ? !notConverged : null,
    iterations: cycles,
    stdout: out,
  };
  if (notConverged)
    throw new ItemFailure('not_converged', `MOPAC: ${errorLine?.[0]?.trim() ?? 'the geometry optimisation did not converge'} (the last structure is kept)`, result.molblock);
  return Object.assign(result, { heatOfFormationKcal: heat });
}
