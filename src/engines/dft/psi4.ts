// Psi4 (docs/engines.md, "DFT"): the input is a Psithon file (Psi4's Python with its molecule
// and set blocks) that runs the calculation and writes what it found to crucible.json: the
// energy, the geometry (Bohr, Psi4's conversion factor beside it), the orbital energies and
// occupations, the dipole (Debye, Psi4 1.3's oeprop), Mulliken and Löwdin charges, and any error
// in Psi4's own words (SCFConvergenceError, OptimizationConvergenceError: their messages).
// PSI_SCRATCH is the calculation's scratch directory; `-n` its threads; `memory` 60% of the
// runtime's address-space limit.
import fs from 'node:fs';
import path from 'node:path';
import { withCoords } from '../molblock.js';
import { ItemFailure, lastLines, type EngineTools, type Prepared } from '../tools.js';
import { BASES, METHODS } from './methods.js';
import { DEFAULT_SCF_ITERATIONS, engineMemoryMb, frontier, toEv, type DftCall, type DftResult } from './types.js';

/** What the Psithon script writes (crucible.json). */
interface Psi4Out {
  energy?: number;
  geometry_bohr?: number[][];
  bohr2angstroms?: number;
  nalpha?: number;
  nbeta?: number;
  nbf?: number;
  eps_a?: number[];
  eps_b?: number[] | null;
  dipole_debye?: number[];
  mulliken?: number[];
  lowdin?: number[];
  opt_steps?: number | null;
  cubes?: Record<string, string>;
  error?: { kind: string; message: string };
}

const py = (s: string) => JSON.stringify(s);

/** The Psithon input of a calculation (its structure in the input's atom order, no reorientation, no symmetry). */
export function psi4Input(s: Pick<Prepared, 'symbols' | 'coords'>, c: DftCall, threads: number): string {
  const m = METHODS[c.method];
  if (!m.psi4) throw new Error(`Psi4 does not run ${m.label} here`);
  const atoms = s.symbols.map((sym, i) => `${sym} ${s.coords[i]!.map((x) => x.toFixed(6)).join(' ')}`);
  const open = c.multiplicity > 1;
  const cubes = c.cubes ?? [];
  const lines = [
    `memory ${engineMemoryMb(threads)} mb`,
    '',
    'molecule mol {',
    `${c.charge} ${c.multiplicity}`,
    ...atoms,
    'units angstrom',
    'no_reorient',
    'no_com',
    'symmetry c1',
    '}',
    '',
    'set {',
    `  basis ${BASES[c.basis].psi4}`,
    '  scf_type df',
    `  reference ${open ? 'uhf' : 'rhf'}`,
    `  maxiter ${c.scfMaxIterations ?? DEFAULT_SCF_ITERATIONS}`,
    '  e_convergence 1e-8',
    '  d_convergence 1e-7',
    ...(c.optimize?.maxIterations ? [`  geom_maxiter ${c.optimize.maxIterations}`] : []),
    '}',
    '',
    'import json',
    'out = {"bohr2angstroms": psi_bohr2angstroms}',
    'def crucible_geometry(m):',
    '    out["geometry_bohr"] = m.geometry().to_array().tolist()',
    'try:',
    c.optimize
      ? [
          `    e, wfn, history = optimize(${py(m.psi4)}, return_wfn=True, return_history=True)`,
          '    out["opt_steps"] = len(history["energy"])',
          // The energy returned is a single point on the geometry as returned: the optimised
          // coordinates rounded to the molblock's 4 decimals (Angstrom), from the optimiser's orbitals.
          '    mol = wfn.molecule()',
          '    import numpy as np',
          '    a = [[float("%.4f" % (x * psi_bohr2angstroms)) / psi_bohr2angstroms for x in row] for row in mol.geometry().to_array().tolist()]',
          '    mol.set_geometry(core.Matrix.from_array(np.array(a)))',
          '    mol.update_geometry()',
          '    core.set_local_option("SCF", "GUESS", "READ")',
          `    e, wfn = energy(${py(m.psi4)}, molecule=mol, return_wfn=True)`,
        ].join('\n')
      : `    e, wfn = energy(${py(m.psi4)}, return_wfn=True)`,
    '    out["energy"] = e',
    '    crucible_geometry(wfn.molecule())',
    '    out["nalpha"], out["nbeta"], out["nbf"] = wfn.nalpha(), wfn.nbeta(), wfn.nso()',
    '    out["eps_a"] = wfn.epsilon_a().to_array().tolist()',
    `    out["eps_b"] = wfn.epsilon_b().to_array().tolist() if ${open ? 'True' : 'False'} else None`,
    "    oeprop(wfn, 'DIPOLE')",
    '    out["dipole_debye"] = [variable("CURRENT DIPOLE " + k) for k in "XYZ"]',
    "    oeprop(wfn, 'MULLIKEN_CHARGES')",
    '    out["mulliken"] = wfn.atomic_point_charges().to_array().tolist()',
    "    oeprop(wfn, 'LOWDIN_CHARGES')",
    '    out["lowdin"] = wfn.atomic_point_charges().to_array().tolist()',
    ...(cubes.length ? cubeLines(cubes, open) : []),
    'except ConvergenceError as err:',
    '    out["error"] = {"kind": type(err).__name__, "message": str(err)}',
    '    if getattr(err, "wfn", None) is not None:',
    '        crucible_geometry(err.wfn.molecule())',
    'except Exception as err:',
    '    out["error"] = {"kind": type(err).__name__, "message": str(err)}',
    'with open("crucible.json", "w") as f:',
    '    json.dump(out, f)',
    '',
  ];
  return lines.join('\n');
}

/** cubeprop's settings and call: the HOMO and LUMO (alpha orbitals, 1-based) and the total density. */
function cubeLines(cubes: readonly string[], open: boolean): string[] {
  const orbitals = cubes.filter((k) => k === 'homo' || k === 'lumo');
  const tasks = [...(orbitals.length ? ['orbitals'] : []), ...(cubes.includes('density') ? ['density'] : [])];
  return [
    `    homo = max(wfn.nalpha(), wfn.nbeta() if ${open ? 'True' : 'False'} else 0)`,
    `    wanted = {${orbitals.map((k) => `${py(k)}: ${k === 'homo' ? 'homo' : 'homo + 1'}`).join(', ')}}`,
    `    core.set_global_option("CUBEPROP_TASKS", ${JSON.stringify(tasks)})`,
    '    core.set_global_option("CUBEPROP_ORBITALS", list(wanted.values()))',
    '    core.set_global_option("CUBEPROP_FILEPATH", "cubes")',
    // A 0.3 Bohr grid (Psi4's default 0.2 writes 3.4 times the points) with 4 Bohr around the atoms.
    '    core.set_global_option("CUBIC_GRID_SPACING", [0.3, 0.3, 0.3])',
    '    import os',
    '    os.makedirs("cubes", exist_ok=True)',
    '    cubeprop(wfn)',
    '    names = os.listdir("cubes")',
    '    out["cubes"] = {}',
    '    for kind, n in wanted.items():',
    '        hit = [f for f in names if f.startswith("Psi_a_%d_" % n)]',
    '        if hit: out["cubes"][kind] = "cubes/" + hit[0]',
    ...(cubes.includes('density') ? ['    if "Dt.cube" in names: out["cubes"]["density"] = "cubes/Dt.cube"'] : []),
  ];
}

/** The error of a failed run in Psi4's words: its exception's message, else the last lines of its output. */
function psi4Failure(out: Psi4Out | null, text: string): ItemFailure {
  const e = out?.error;
  if (e) {
    const code = e.kind === 'SCFConvergenceError' ? 'scf_not_converged' : e.kind === 'OptimizationConvergenceError' ? 'not_converged' : 'engine_failed';
    return new ItemFailure(code, `Psi4: ${e.kind}: ${e.message.trim().slice(0, 400)} (its whole output is in the logs port)`);
  }
  const raised = /^(\w+(?:Error|Exception)): (.+)$/m.exec(text);
  return new ItemFailure('engine_failed', `Psi4: ${raised ? `${raised[1]}: ${raised[2]}` : lastLines(text)}`);
}

/** Runs Psi4 on `s` in `dir`; a calculation that does not converge, or fails, is an ItemFailure with Psi4's own words. */
export async function runPsi4(tools: EngineTools, dir: string, s: Prepared, c: DftCall): Promise<DftResult> {
  const threads = tools.threads;
  fs.writeFileSync(path.join(dir, 'calc.in'), psi4Input(s, c, threads));
  const result = path.join(dir, 'crucible.json');
  fs.rmSync(result, { force: true });
  const scratch = path.join(dir, 'psi-scratch');
  fs.mkdirSync(scratch, { recursive: true });
  const r = await tools.run('psi4', ['-n', String(threads), 'calc.in', 'calc.out'], dir, { timeoutMs: c.timeoutMs, env: { PSI_SCRATCH: scratch } });
  const text = fs.existsSync(path.join(dir, 'calc.out')) ? fs.readFileSync(path.join(dir, 'calc.out'), 'utf8') : '';
  let out: Psi4Out | null = null;
  try {
    out = JSON.parse(fs.readFileSync(result, 'utf8')) as Psi4Out;
  } catch {
    /* Psi4 stopped before writing it */
  }
  const toAngstrom = out?.bohr2angstroms ?? 0.52917721067;
  const coords = out?.geometry_bohr?.length === s.symbols.length ? out.geometry_bohr.map((p) => p.map((x) => x * toAngstrom) as [number, number, number]) : null;
  const last = coords ? withCoords(s.molblock, coords) : null;
  if (!out || out.error || out.energy === undefined) {
    const failure = psi4Failure(out, `${text}\n${r.stderr}`);
    throw new ItemFailure(failure.code, failure.message, last);
  }
  const epsA = out.eps_a ?? [];
  const epsB = out.eps_b ?? null;
  const dipole = out.dipole_debye;
  const cubes = Object.fromEntries(Object.entries(out.cubes ?? {}).map(([k, f]) => [k, path.join(dir, f)]));
  return {
    engine: 'psi4',
    energyHartree: out.energy,
    ...frontier(epsA, epsB, out.nalpha ?? 0, out.nbeta ?? 0),
    dipoleDebye: dipole ? Math.round(Math.hypot(...dipole) * 1e6) / 1e6 : null,
    mulliken: out.mulliken?.length === s.symbols.length ? out.mulliken : null,
    lowdin: out.lowdin?.length === s.symbols.length ? out.lowdin : null,
    orbitalEnergiesEv: toEv(epsA),
    orbitalEnergiesBetaEv: epsB ? toEv(epsB) : null,
    molblock: c.optimize ? (last ?? s.molblock) : s.molblock,
    converged: c.optimize ? true : null,
    iterations: c.optimize ? (out.opt_steps ?? null) : null,
    basisFunctions: out.nbf ?? null,
    cubes,
  };
}
