// xtb (GFN2-xTB, GFN1-xTB, GFN-FF; ALPB solvation) for the engine job types (docs/engines.md).
// The structure goes in as an SDF file, whose atom order xtb keeps; the figures come from its
// output: the total energy from the last "TOTAL ENERGY" line (12 decimals; xtbout.json has 8),
// the gap and the dipole from the summary, the partial charges from xtbout.json, the geometry
// from xtbopt.sdf.
import fs from 'node:fs';
import path from 'node:path';
import { readMolblockAtoms, withCoords } from '../molblock.js';
import { ItemFailure, lastLines, type EngineTools, type Prepared } from '../tools.js';

export const HARTREE_PER_KCAL = 1 / 627.5094740631;

export interface XtbOptions {
  method: 'gfn2' | 'gfn1' | 'gfnff';
  solvent?: string | null;
  charge: number;
  multiplicity: number;
  /** Geometry optimisation (--opt LEVEL, normal unless given), with at most this many cycles. */
  optimize?: { maxIterations?: number; level?: 'normal' | 'tight' | 'vtight' };
  /** Extra arguments (e.g. --hess, --input for constraints). */
  extra?: string[];
  timeoutMs?: number;
}

export interface XtbResult {
  energyHartree: number;
  gapEv: number | null;
  dipoleDebye: number | null;
  charges: number[] | null;
  /** The final geometry in the input's atom order (the input's when not optimised). */
  molblock: string;
  converged: boolean | null;
  iterations: number | null;
  stdout: string;
}

export function methodArgs(method: XtbOptions['method']): string[] {
  return method === 'gfnff' ? ['--gfnff'] : ['--gfn', method === 'gfn1' ? '1' : '2'];
}

/** The last number of the last line matching `label` in xtb's summary box. */
function lastFigure(text: string, label: RegExp): number | null {
  let found: number | null = null;
  for (const line of text.split('\n')) {
    if (!label.test(line)) continue;
    const m = /(-?\d+\.\d+(?:[eE][-+]?\d+)?)/.exec(line.replace(label, ''));
    if (m) found = Number(m[1]);
  }
  return found;
}

/** Lines of a crash report that say nothing to a chemist: gfortran's backtrace and notes. */
const NOISE = /^(#\d+\s|at \S|Backtrace for this error|Error termination\. Backtrace|Note: The following floating-point|normal termination|abnormal termination|-+$|#+$)/;

/**
 * One line of xtb's own words for a failed run (an item's detail; the whole output stays in
 * the logs port, docs/engines.md): the first message of its error block (`-N- where: what`,
 * then any `-N- what`), else the first line of its error output that is not part of a crash
 * backtrace (e.g. "Program received signal SIGSEGV: ..."), at most 300 characters.
 */
export function xtbFailure(text: string, stderr: string): string {
  const line =
    /-\d+- \S+: (.+)/.exec(text)?.[1] ??
    /^-\d+- (.+)$/m.exec(text)?.[1] ??
    [...stderr.split('\n'), ...text.split('\n')].map((l) => l.trim()).find((l) => l !== '' && !NOISE.test(l)) ??
    'it stopped without saying why';
  const one = line.trim();
  return one.length > 300 ? `${one.slice(0, 300)}...` : one;
}

/** Runs xtb on `s` in `dir`; an SCF that does not converge, or a failed run, is an ItemFailure with xtb's own words. */
export async function runXtb(tools: EngineTools, dir: string, s: Prepared, o: XtbOptions): Promise<XtbResult> {
  const input = path.join(dir, 'structure.sdf');
  fs.writeFileSync(input, `${s.molblock.replace(/\s*$/, '\n')}$$$$\n`);
  // GFN-FF reads a gfnff_topo left in the directory by an earlier run instead of setting the
  // topology up from this structure: every run starts from its own input.
  for (const f of ['xtbopt.sdf', 'xtbout.json', 'gfnff_topo', 'gfnff_charges', 'gfnff_adjacency']) fs.rmSync(path.join(dir, f), { force: true });
  const args = [
    'structure.sdf',
    ...methodArgs(o.method),
    '--chrg',
    String(o.charge),
    '--uhf',
    String(o.multiplicity - 1),
    ...(o.solvent ? ['--alpb', o.solvent] : []),
    ...(o.optimize ? ['--opt', o.optimize.level ?? 'normal', ...(o.optimize.maxIterations ? ['--cycles', String(o.optimize.maxIterations)] : [])] : []),
    '--json',
    '-P',
    String(tools.threads),
    ...(o.extra ?? []),
  ];
  const r = await tools.run('xtb', args, dir, { timeoutMs: o.timeoutMs });
  const text = `${r.stdout}\n${r.stderr}`;
  const optFile = path.join(dir, 'xtbopt.sdf');
  const last = fs.existsSync(optFile) ? withCoords(s.molblock, readMolblockAtoms(fs.readFileSync(optFile, 'utf8')).coords) : null;
  if (r.code !== 0) {
    const why = xtbFailure(text, r.stderr);
    const code = /did not converge|not converge/i.test(why) ? 'scf_not_converged' : 'engine_failed';
    throw new ItemFailure(code, `xtb: ${why} (its whole output is in the logs port)`, last);
  }
  const energy = lastFigure(r.stdout, /\|\s*TOTAL ENERGY/);
  if (energy === null) throw new ItemFailure('engine_failed', `xtb gave no total energy: ${lastLines(r.stdout)}`, last);
  let json: { 'partial charges'?: number[] } = {};
  try {
    json = JSON.parse(fs.readFileSync(path.join(dir, 'xtbout.json'), 'utf8')) as typeof json;
  } catch {
    /* gfnff writes none in some versions: no charges then */
  }
  const dipoleLine = /molecular dipole:[\s\S]*?full:\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)/.exec(r.stdout);
  const failedOpt = /FAILED TO CONVERGE GEOMETRY OPTIMIZATION/.test(r.stdout);
  const cycles = /GEOMETRY OPTIMIZATION CONVERGED AFTER (\d+) ITERATIONS/.exec(r.stdout) ?? /FAILED TO CONVERGE GEOMETRY OPTIMIZATION IN (\d+) ITERATIONS/.exec(r.stdout);
  const result: XtbResult = {
    energyHartree: energy,
    gapEv: o.method === 'gfnff' ? null : lastFigure(r.stdout, /\|\s*HOMO-LUMO GAP/),
    dipoleDebye: dipoleLine ? Number(dipoleLine[4]) : null,
    charges: Array.isArray(json['partial charges']) && json['partial charges'].length === s.symbols.length ? json['partial charges'] : null,
    molblock: o.optimize ? (last ?? s.molblock) : s.molblock,
    converged: o.optimize ? !failedOpt : null,
    iterations: cycles ? Number(cycles[1]) : null,
    stdout: r.stdout,
  };
  if (o.optimize && failedOpt)
    throw new ItemFailure(
      'not_converged',
      `xtb: failed to converge the geometry optimisation in ${result.iterations ?? '?'} iterations (the last structure is kept)`,
      result.molblock,
    );
  return result;
}
