// Harmonic frequencies, IR intensities and thermochemistry of an optimised structure, for the
// `frequencies` job type (docs/engines.md, "Frequencies and scans").
//
// - xtb: `--hess` on the optimised geometry with `$thermo temp=T` in an --input file; the
//   modes and IR intensities from the `vibspectrum` file, the zero-point energy, the total
//   enthalpy and free energy from the output's summary, the entropy from its `TOT` row
//   (xtb's modified rigid-rotor harmonic-oscillator treatment). xtb 6.5.1 aborts in its point
//   group search for linear molecules, so for those the search is off (`$symmetry maxat=0`)
//   and the rotational symmetry number is applied here (2 for a centrosymmetric molecule).
// - MOPAC: `FORCE THERMO(T,T,1)` on the optimised geometry; the modes, transition dipoles,
//   normal modes, zero-point energy and thermodynamic table from the AUX file.
import fs from 'node:fs';
import path from 'node:path';
import { mopacKeywords } from './mopac.js';
import { ItemFailure, lastLines, type EngineTools, type Prepared } from '../tools.js';
import { HARTREE_PER_KCAL, runXtb } from './xtb.js';
import { isCentrosymmetric, isLinear } from './geometry.js';

/** The gas constant in cal/(mol K). */
const R_CAL = 1.98720425864083;
/**
 * km/mol per (MOPAC transition dipole)^2 / reduced mass: MOPAC's VIB._T_DIP is half the dipole
 * derivative in Debye per Ångström along the mode's unit Cartesian displacement (checked
 * against finite differences of MOPAC's own dipole, docs/engines.md), and 1 D^2 Å^-2 amu^-1
 * is 42.2561 km/mol.
 */
const MOPAC_TDIP_TO_KM_MOL = 42.2561 * 4;

export interface VibrationCall {
  method: 'gfn2' | 'gfn1' | 'gfnff' | 'pm7' | 'pm6';
  solvent?: string | null;
  charge: number;
  multiplicity: number;
  temperatureK: number;
  /** The optimisation's energy: MOPAC's FORCE on one atom runs no SCF and reports no heat of formation. */
  energyHartree?: number;
  timeoutMs?: number;
}

export interface Vibrations {
  energyHartree: number;
  /** Vibrational modes, lowest first; imaginary ones negative. */
  frequencies: number[];
  intensities: number[];
  zpveHartree: number;
  enthalpyHartree: number;
  entropyCalMolK: number;
  gibbsHartree: number;
  /** The temperature the figures are for (MOPAC tabulates whole kelvins). */
  temperatureK: number;
}

/** Rotations and translations a structure has: 6, 5 when linear, 3 for one atom. */
export function rigidModes(s: Pick<Prepared, 'coords'>): number {
  if (s.coords.length === 1) return 3;
  return isLinear(s.coords) ? 5 : 6;
}

/** Keeps the 3N - rigid vibrations: the `rigid` modes nearest zero are the rotations and translations. */
export function dropRigid(freqs: number[], ints: number[], rigid: number): { frequencies: number[]; intensities: number[] } {
  const order = freqs.map((_, i) => i).sort((a, b) => Math.abs(freqs[a]!) - Math.abs(freqs[b]!));
  const drop = new Set(order.slice(0, rigid));
  const kept = freqs.map((_, i) => i).filter((i) => !drop.has(i));
  kept.sort((a, b) => freqs[a]! - freqs[b]!);
  return { frequencies: kept.map((i) => freqs[i]!), intensities: kept.map((i) => ints[i] ?? 0) };
}

/** The modes of xtb's `vibspectrum` file: wave number and IR intensity per line. */
export function readVibspectrum(text: string): { freqs: number[]; ints: number[] } {
  const freqs: number[] = [];
  const ints: number[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\d+\s+(?:[A-Za-z][\w'"]*\s+)?(-?\d+\.\d+)\s+(-?\d+\.\d+)/.exec(line);
    if (m) {
      freqs.push(Number(m[1]));
      ints.push(Number(m[2]));
    }
  }
  return { freqs, ints };
}

function lastNumber(text: string, re: RegExp): number | null {
  let v: number | null = null;
  for (const m of text.matchAll(re)) v = Number(m[1]);
  return v;
}

/** xtb: the Hessian of `s` (already optimised) in `dir`. */
export async function xtbVibrations(tools: EngineTools, dir: string, s: Prepared, c: VibrationCall): Promise<Vibrations> {
  const linear = s.coords.length > 1 && isLinear(s.coords);
  const run = async (symmetry: boolean) => {
    fs.writeFileSync(path.join(dir, 'hess.inp'), `$thermo\n  temp=${c.temperatureK}\n${symmetry ? '' : '$symmetry\n  maxat=0\n'}$end\n`);
    fs.rmSync(path.join(dir, 'vibspectrum'), { force: true });
    return runXtb(tools, dir, s, {
      method: c.method as 'gfn2' | 'gfn1' | 'gfnff',
      solvent: c.solvent,
      charge: c.charge,
      multiplicity: c.multiplicity,
      extra: ['--hess', '--input', 'hess.inp'],
      timeoutMs: c.timeoutMs,
    });
  };
  let symmetry = !linear;
  let r;
  try {
    r = await run(symmetry);
  } catch (err) {
    // The point group search is the part of xtb 6.5.1 known to abort; without it the symmetry number is 1.
    if (!(err instanceof ItemFailure) || err.code !== 'engine_failed' || !symmetry) throw err;
    symmetry = false;
    r = await run(symmetry);
  }
  const file = path.join(dir, 'vibspectrum');
  if (!fs.existsSync(file)) throw new ItemFailure('engine_failed', `xtb wrote no vibrational spectrum: ${lastLines(r.stdout)}`, s.molblock);
  const { freqs, ints } = readVibspectrum(fs.readFileSync(file, 'utf8'));
  if (freqs.length !== 3 * s.coords.length) throw new ItemFailure('engine_failed', `xtb gave ${freqs.length} modes for ${s.coords.length} atoms`, s.molblock);
  const modes = dropRigid(freqs, ints, rigidModes(s));
  const out = r.stdout;
  const zpve = lastNumber(out, /zero point energy\s+(-?\d+\.\d+)\s+Eh/g);
  const enthalpy = lastNumber(out, /TOTAL ENTHALPY\s+(-?\d+\.\d+)\s+Eh/g);
  const gibbs = lastNumber(out, /TOTAL FREE ENERGY\s+(-?\d+\.\d+)\s+Eh/g);
  const tot = [...out.matchAll(/^\s*TOT\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s*$/gm)].pop();
  if (zpve === null || enthalpy === null || gibbs === null || !tot) throw new ItemFailure('engine_failed', `xtb gave no thermochemistry: ${lastLines(out)}`, s.molblock);
  let entropy = Number(tot[3]);
  let g = gibbs;
  // Without the point group search xtb counts every molecule as C1 (symmetry number 1).
  const sigma = !symmetry && linear && isCentrosymmetric(s.symbols, s.coords) ? 2 : 1;
  if (sigma > 1) {
    entropy -= R_CAL * Math.log(sigma);
    g += (c.temperatureK * R_CAL * Math.log(sigma) * HARTREE_PER_KCAL) / 1000;
  }
  return {
    energyHartree: r.energyHartree,
    ...modes,
    zpveHartree: zpve,
    enthalpyHartree: enthalpy,
    entropyCalMolK: Math.round(entropy * 1e4) / 1e4,
    gibbsHartree: Math.round(g * 1e12) / 1e12,
    temperatureK: c.temperatureK,
  };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The numbers of the last AUX block `name[n]=` (Fortran D exponents). */
export function auxBlock(aux: string, name: string): number[] | null {
  const re = new RegExp(`^\\s*${escapeRe(name)}\\[(\\d+)\\]=[ \\t]*\\n`, 'gm');
  let last: RegExpExecArray | null = null;
  for (let m = re.exec(aux); m; m = re.exec(aux)) last = m;
  if (!last) return null;
  const n = Number(last[1]);
  const values: number[] = [];
  for (const t of aux.slice(last.index + last[0].length).split(/\s+/)) {
    if (!t) continue;
    if (values.length >= n || !/^[-+]?\d/.test(t)) break;
    values.push(Number(t.replace(/[dD]/, 'e')));
  }
  return values.length === n ? values : null;
}

function auxNumber(aux: string, name: string): number | null {
  const m = new RegExp(`^\\s*${escapeRe(name)}=\\s*(\\S+)`, 'm').exec(aux);
  return m ? Number(m[1]!.replace(/[dD]/, 'e')) : null;
}

/** MOPAC: the force calculation of `s` (already optimised) in `dir`. */
export async function mopacVibrations(tools: EngineTools, dir: string, s: Prepared, c: VibrationCall): Promise<Vibrations> {
  const t = Math.round(c.temperatureK);
  // No 1SCF (it would skip FORCE); every coordinate flag 0, so nothing moves.
  const kw = mopacKeywords({
    method: c.method as 'pm7' | 'pm6',
    solvent: c.solvent,
    charge: c.charge,
    multiplicity: c.multiplicity,
    optimize: {},
    extra: ['FORCE', `THERMO(${t},${t},1)`],
  });
  const atoms = s.symbols.map((sym, i) => {
    const [x, y, z] = s.coords[i]!;
    return `${sym.padEnd(2)} ${x.toFixed(6)} 0 ${y.toFixed(6)} 0 ${z.toFixed(6)} 0`;
  });
  fs.writeFileSync(path.join(dir, 'force.mop'), `${kw}\n${(s.name ?? `structure ${s.index}`).replace(/[\r\n]/g, ' ').slice(0, 70)}\n\n${atoms.join('\n')}\n`);
  const r = await tools.run('mopac', ['force.mop'], dir, { timeoutMs: c.timeoutMs, threads: 1 });
  const read = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : '');
  const out = read('force.out');
  const aux = read('force.aux');
  const heat = auxNumber(aux, 'HEAT_OF_FORMATION:KCAL/MOL');
  const freqs = auxBlock(aux, 'VIB._FREQ:CM(-1)');
  const tdip = auxBlock(aux, 'VIB._T_DIP:ELECTRONS');
  const modes = auxBlock(aux, 'NORMAL_MODES');
  const masses = auxBlock(aux, 'ISOTOPIC_MASSES');
  const temps = auxBlock(aux, 'THERMODYNAMIC_PROPERTIES_TEMPS:K');
  const hof = auxBlock(aux, 'H_O_F(T):KCAL/MOL');
  const entropies = auxBlock(aux, 'ENTROPY_TOT:CAL/K/MOL');
  const zpe = auxNumber(aux, 'ZERO_POINT_ENERGY:KCAL/MOL');
  if (!freqs || !tdip || !modes || !masses || !temps || !hof || !entropies || zpe === null) {
    // MOPAC's closing box names what went wrong: "* Gradient in FORCE is too large, ... *".
    const boxed = [...out.matchAll(/^\s*\*\s+(.*?)\s+\*\s*$/gm)].map((m) => m[1]!).filter((l) => !/JOB ENDED NORMALLY|termination messages/i.test(l));
    throw new ItemFailure('engine_failed', `MOPAC: ${boxed[0] ?? lastLines(out || r.stdout || r.stderr)}`, s.molblock);
  }
  const n3 = 3 * s.coords.length;
  // MOPAC writes the genuine vibrations first, then the rotations and translations.
  const nvib = Math.max(0, Number(/THERE ARE\s+(\d+)\s+GENUINE VIBRATIONS/.exec(out)?.[1] ?? n3 - rigidModes(s)));
  const ints = freqs.slice(0, nvib).map((_, k) => {
    const l = modes.slice(k * n3, (k + 1) * n3);
    const inv = l.reduce((sum, v, idx) => sum + (v * v) / (masses[Math.floor(idx / 3)] ?? 1), 0);
    const reduced = inv > 0 ? 1 / inv : 1;
    return Math.round(((MOPAC_TDIP_TO_KM_MOL * tdip[k]! ** 2) / reduced) * 1e4) / 1e4;
  });
  const sorted = dropRigid(freqs.slice(0, nvib), ints, 0);
  const at = temps.findIndex((x) => Math.abs(x - t) < 0.5);
  const at298 = temps.findIndex((x) => x === 298);
  const energy = heat !== null ? heat * HARTREE_PER_KCAL : c.energyHartree;
  if (at < 0 || at298 < 0 || energy === undefined) throw new ItemFailure('engine_failed', `MOPAC gave no thermodynamic properties at ${t} K`, s.molblock);
  // The heat of formation is an enthalpy at 298 K (MOPAC's parametrisation): at T it moves by
  // MOPAC's H(T) - H(298 K); the zero-point energy is already in it.
  const h = energy + (hof[at]! - hof[at298]!) * HARTREE_PER_KCAL;
  const entropy = entropies[at]!;
  return {
    energyHartree: energy,
    ...sorted,
    zpveHartree: zpe * HARTREE_PER_KCAL,
    enthalpyHartree: h,
    entropyCalMolK: Math.round(entropy * 1e4) / 1e4,
    gibbsHartree: h - (t * entropy * HARTREE_PER_KCAL) / 1000,
    temperatureK: t,
  };
}
