// NWChem (docs/engines.md, "DFT"): the input runs `task dft property` (the SCF, then the
// property module's dipole and Mulliken analysis) on the given geometry, after `task dft
// optimize` for an optimisation, so the energy reported is always a single point on the geometry
// returned. scratch_dir and permanent_dir are the calculation's own directories; the SCF is
// `direct` (no integral files); `memory total` is per rank (60% of the runtime's limit, shared by the ranks). Read from the output: the last
// "Total DFT energy", the last "Output coordinates in angstroms" table, "Final eigenvalues"
// (print "final evals"; 4 decimals) sharpened by the final orbital analysis where it lists an
// orbital (7 significant digits), the property module's dipole in Debye and Mulliken gross
// populations.
import fs from 'node:fs';
import path from 'node:path';
import { withCoords } from '../molblock.js';
import { SOLVENTS } from '../qm/solvents.js';
import { ItemFailure, lastLines, type EngineTools, type Prepared } from '../tools.js';
import { BASES, METHODS } from './methods.js';
import { DEFAULT_SCF_ITERATIONS, engineMemoryMb, frontier, toEv, type DftCall, type DftResult } from './types.js';

/** The NWChem input of a calculation in `dir` (its structure in the input's atom order: no centring, no symmetry). */
export function nwchemInput(s: Pick<Prepared, 'symbols' | 'coords'>, c: DftCall, dir: string, ranks: number): string {
  const m = METHODS[c.method];
  if (!m.nwchem) throw new Error(`NWChem does not run ${m.label} here`);
  const b = BASES[c.basis];
  const atoms = s.symbols.map((sym, i) => `  ${sym} ${s.coords[i]!.map((x) => x.toFixed(6)).join(' ')}`);
  return [
    'start calc',
    'title "crucible"',
    `scratch_dir ${path.join(dir, 'nw-scratch')}`,
    `permanent_dir ${dir}`,
    `memory total ${Math.max(200, Math.floor(engineMemoryMb(ranks) / Math.max(1, ranks)))} mb`,
    `charge ${c.charge}`,
    // noautosym and nocenter: the coordinates stay in the input's frame and order.
    `geometry units angstrom nocenter noautosym${c.optimize ? '' : ' noautoz'}`,
    ...atoms,
    'end',
    `basis ${b.cartesian ? 'cartesian' : 'spherical'}`,
    `  * library "${b.nwchem}"`,
    'end',
    'dft',
    `  xc ${m.nwchem.xc}`,
    ...(m.nwchem.disp ? [`  disp ${m.nwchem.disp}`] : []),
    `  mult ${c.multiplicity}`,
    `  iterations ${c.scfMaxIterations ?? DEFAULT_SCF_ITERATIONS}`,
    '  convergence energy 1e-8',
    '  convergence density 1e-6',
    '  print "final evals"',
    // Integrals computed as needed, never cached on disk: NWChem's default (semidirect) wrote a
    // file past the runtime's 512 MB file-size limit for ibuprofen at def2-SVP (SIGXFSZ).
    '  direct',
    'end',
    ...(c.solvent ? ['cosmo', `  dielec ${SOLVENTS[c.solvent] ?? 78.4}`, '  do_gasphase false', 'end'] : []),
    ...(c.optimize ? ['driver', ...(c.optimize.maxIterations ? [`  maxiter ${c.optimize.maxIterations}`] : []), 'end', 'task dft optimize'] : []),
    'property',
    '  dipole',
    '  mulliken',
    'end',
    'task dft property',
    '',
  ].join('\n');
}

const num = (s: string) => Number(s.replace(/[dD]/, 'e'));

/** The rows of the last "Output coordinates in angstroms" table. */
function lastCoordinates(text: string, n: number): [number, number, number][] | null {
  const at = text.lastIndexOf('Output coordinates in angstroms');
  if (at < 0) return null;
  const rows = [...text.slice(at).matchAll(/^\s+\d+\s+\S+\s+-?\d+\.\d+\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s*$/gm)].slice(0, n);
  return rows.length === n ? rows.map((r) => [Number(r[1]), Number(r[2]), Number(r[3])]) : null;
}

/** The eigenvalues of the last "Final [alpha|beta] eigenvalues" block of a spin (Hartree). */
function eigenvalues(text: string, spin: '' | 'alpha ' | 'beta '): number[] | null {
  const re = new RegExp(`Final ${spin}eigenvalues\\s*\\n\\s*-+\\s*\\n\\s*\\n\\s*1\\s*\\n((?:\\s+\\d+\\s+-?\\d+\\.\\d+\\s*\\n)+)`, 'g');
  let last: string | null = null;
  for (const m of text.matchAll(re)) last = m[1]!;
  return last ? [...last.matchAll(/^\s+\d+\s+(-?\d+\.\d+)/gm)].map((r) => Number(r[1])) : null;
}

/** Orbital energies the last final orbital analysis of a spin lists (7 significant digits), by orbital number. */
function analysedOrbitals(text: string, spin: '' | 'Alpha ' | 'Beta '): Map<number, number> {
  const at = text.lastIndexOf(`DFT Final ${spin}Molecular Orbital Analysis`);
  const out = new Map<number, number>();
  if (at < 0) return out;
  const block = text.slice(at, text.indexOf('center of mass', at) > 0 ? text.indexOf('center of mass', at) : undefined);
  for (const m of block.matchAll(/Vector\s+(\d+)\s+Occ=\S+\s+E=\s*(-?\d+\.\d+D[-+]\d+)/g)) out.set(Number(m[1]), num(m[2]!));
  return out;
}

function sharpened(evals: number[] | null, analysed: Map<number, number>): number[] | null {
  return evals ? evals.map((e, i) => analysed.get(i + 1) ?? e) : null;
}

/** NWChem's words for a failure: its error block's first line, after "Calculation failed to converge" where the SCF did not. */
export function nwchemFailure(text: string, stderr: string): { code: string; message: string } {
  const block = [...text.matchAll(/^ -{60,}\n (\S.*?)\s*\n -{60,}$/gm)].map((m) => m[1]!.replace(/\s{2,}\d+$/, '').trim()).find((l) => !/current input line/.test(l));
  if (/Calculation failed to converge/.test(text)) return { code: 'scf_not_converged', message: `Calculation failed to converge${block ? ` (${block})` : ''}` };
  if (/Failed to converge in maximum number of steps/.test(text))
    return { code: 'not_converged', message: `Failed to converge in maximum number of steps${block ? ` (${block})` : ''}` };
  return { code: 'engine_failed', message: block ?? lastLines(stderr || text) };
}

/** Runs NWChem on `s` in `dir` (through its launcher, one rank per thread). */
export async function runNwchem(tools: EngineTools, dir: string, s: Prepared, c: DftCall): Promise<DftResult> {
  const ranks = tools.threads;
  fs.mkdirSync(path.join(dir, 'nw-scratch'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'calc.nw'), nwchemInput(s, c, dir, ranks));
  const r = await tools.run('nwchem', ['calc.nw'], dir, { timeoutMs: c.timeoutMs });
  const text = r.stdout;
  const coords = lastCoordinates(text, s.symbols.length);
  const last = c.optimize && coords ? withCoords(s.molblock, coords) : null;
  const energies = [...text.matchAll(/Total DFT energy =\s+(-?\d+\.\d+)/g)];
  const propertyDone = /Total dipole\s+(-?\d+\.\d+)\s+DEBYE/.exec(text);
  if (r.code !== 0 || !energies.length || !propertyDone) {
    const f = nwchemFailure(text, r.stderr);
    throw new ItemFailure(f.code, `NWChem: ${f.message} (its whole output is in the logs port)`, last);
  }
  const electrons = (label: string) => Number([...text.matchAll(new RegExp(`${label} electrons :\\s+(\\d+)`, 'g'))].pop()?.[1] ?? 0);
  const na = electrons('Alpha');
  const nb = electrons('Beta');
  const open = c.multiplicity > 1;
  const epsA = sharpened(eigenvalues(text, open ? 'alpha ' : ''), analysedOrbitals(text, open ? 'Alpha ' : '')) ?? [];
  const epsB = open ? sharpened(eigenvalues(text, 'beta '), analysedOrbitals(text, 'Beta ')) : null;
  const gross = text.lastIndexOf('Total      gross population on atoms');
  const pops = gross >= 0 ? [...text.slice(gross).matchAll(/^\s+\d+\s+[A-Z][a-z]?\S*\s+(\d+\.\d+)\s+(\d+\.\d+)\s*$/gm)].slice(0, s.symbols.length) : [];
  const steps = [...text.matchAll(/^@\s+(\d+)\s+-?\d+\.\d+/gm)].pop();
  const nbf = [...text.matchAll(/AO basis - number of functions:\s+(\d+)/g)].pop();
  return {
    engine: 'nwchem',
    energyHartree: Number(energies.at(-1)![1]),
    ...frontier(epsA, epsB, na, nb),
    dipoleDebye: Number(propertyDone[1]),
    mulliken: pops.length === s.symbols.length ? pops.map((p) => Math.round((Number(p[1]) - Number(p[2])) * 1e5) / 1e5) : null,
    lowdin: null,
    orbitalEnergiesEv: toEv(epsA),
    orbitalEnergiesBetaEv: epsB ? toEv(epsB) : null,
    molblock: c.optimize ? (last ?? s.molblock) : s.molblock,
    converged: c.optimize ? /Optimization converged/.test(text) : null,
    iterations: c.optimize ? (steps ? Number(steps[1]) : null) : null,
    basisFunctions: nbf ? Number(nbf[1]) : null,
    cubes: {},
  };
}
