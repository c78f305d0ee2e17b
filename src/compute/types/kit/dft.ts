// The DFT and Hartree-Fock part of the quantum-chemistry job types (docs/engines.md, "DFT"):
// the payload fields (method, basis, engine, scf_max_iterations), the rules at submit (a basis
// with a DFT or HF method, an engine that can run the method, the size limit of the basis set),
// the engine a payload runs on, what an item carries (engine, engine_version, method, basis) and
// the estimate, by basis functions (kit/calibration.ts).
import { Type } from '@sinclair/typebox';
import { invalid } from '../../../errors.js';
import { ELEMENTS } from '../../../chem/properties/data.js';
import type { EngineName } from '../../../engines/catalog.js';
import {
  BASES,
  BASIS_SETS,
  cannotRun,
  coversElement,
  DFT_METHODS,
  enginesFor,
  isDftMethod,
  METHODS,
  methodsRunnable,
  type BasisSet,
  type DftEngine,
  type DftMethod,
} from '../../../engines/dft/methods.js';
import { runDft } from '../../../engines/dft/run.js';
import type { DftCall, DftResult } from '../../../engines/dft/types.js';
import { prepare } from '../../../engines/prepare.js';
import { ItemFailure, type EngineTools, type Structure } from '../../../engines/tools.js';
import type { Estimate, EstimateContext } from '../../job-type.js';
import { dftEstimate, type DftTask } from './dft-cost.js';
import { countStructures, qmFields, QM_METHODS, type QmMethod, type QmPayload } from './payload.js';
import { chargeAndSpin, checkSpins } from './qm.js';
import { checkStructure } from './structures.js';

export interface DftPayload extends Omit<QmPayload, 'method'> {
  method?: QmMethod | DftMethod;
  basis?: BasisSet;
  engine?: DftEngine;
  scf_max_iterations?: number;
}

/** The payload fields of a job type that runs DFT and HF besides xtb and MOPAC (they replace qmFields' method). */
export function dftFields() {
  return {
    method: Type.Optional(
      Type.Union(
        [...QM_METHODS, ...DFT_METHODS].map((m) => Type.Literal(m)),
        {
          default: 'gfn2',
          description:
            'gfn2 (GFN2-xTB), gfn1 (GFN1-xTB), gfnff (GFN-FF force field): xtb; pm7, pm6: MOPAC; hf, pbe, pbe0, b3lyp, wb97x-d: Psi4 (in a solvent NWChem, except wb97x-d); b3lyp-d3bj, pbe0-d3bj: NWChem (D3 with Becke-Johnson damping). DFT and HF need basis',
        },
      ),
    ),
    basis: Type.Optional(
      Type.Union(
        BASIS_SETS.map((b) => Type.Literal(b)),
        { description: 'The basis set of a DFT or HF method (required with one): def2-svp, def2-tzvp, 6-31g*, cc-pvdz' },
      ),
    ),
    engine: Type.Optional(
      Type.Union([Type.Literal('psi4'), Type.Literal('nwchem')], {
        description:
          'The DFT engine (default: Psi4 where it can run the method, else NWChem; NWChem in a solvent). A method the engine cannot run is a 422 naming the ones that can',
      }),
    ),
    scf_max_iterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000, description: 'SCF iterations at most (DFT and HF; 100 when absent)' })),
  };
}

/**
 * The payload fields of a job type that runs only DFT and HF (properties_qm, rerank): the method
 * (default `defaultMethod`) and basis set (default def2-SVP), the engine, an implicit solvent,
 * the charge and multiplicity, and the SCF's iterations.
 */
export function dftOnlyFields(defaultMethod: DftMethod) {
  return {
    method: Type.Optional(
      Type.Union(
        DFT_METHODS.map((m) => Type.Literal(m)),
        {
          default: defaultMethod,
          description: 'hf, pbe, pbe0, b3lyp, wb97x-d: Psi4 (in a solvent NWChem, except wb97x-d); b3lyp-d3bj, pbe0-d3bj: NWChem (D3 with Becke-Johnson damping)',
        },
      ),
    ),
    basis: Type.Optional(
      Type.Union(
        BASIS_SETS.map((b) => Type.Literal(b)),
        { default: 'def2-svp', description: 'def2-svp, def2-tzvp, 6-31g*, cc-pvdz' },
      ),
    ),
    engine: dftFields().engine,
    solvent: qmFields().solvent,
    charge: qmFields().charge,
    multiplicity: qmFields().multiplicity,
    scf_max_iterations: dftFields().scf_max_iterations,
  };
}

/** A DFT-only payload with its defaults filled: `method` (the type's default), def2-SVP. */
export function withDftDefaults<P extends Omit<DftPayload, 'method'> & { method?: DftMethod }>(p: P, method: DftMethod): P & DftPayload & { method: DftMethod } {
  return { ...p, method: p.method ?? method, basis: p.basis ?? 'def2-svp' };
}

export function isDft(p: DftPayload): p is DftPayload & { method: DftMethod } {
  return isDftMethod(p.method);
}

/** The engine a DFT payload runs on (its checks passed: checkDftPayload). */
export function dftEngineOf(p: DftPayload & { method: DftMethod }): DftEngine {
  return p.engine ?? enginesFor(p.method, p.solvent)[0] ?? 'nwchem';
}

/** The engines a payload needs: Open Babel builds the 3D structure for every method. */
export function dftEngines(p: DftPayload & { method: DftMethod }): EngineName[] {
  return ['obabel', dftEngineOf(p)];
}

export const DFT_ENGINE_SETS: EngineName[][] = [
  ['obabel', 'psi4'],
  ['nwchem', 'obabel'],
];

/**
 * The rules of a DFT or HF payload a JSON schema cannot say: a basis set with the method (and
 * none without), an engine that runs the method (in the solvent), the DFT-only fields only with
 * DFT. 422s located relative to the payload.
 */
export function checkDftPayload(p: DftPayload): void {
  if (!isDft(p)) {
    for (const field of ['basis', 'engine', 'scf_max_iterations'] as const)
      if (p[field] !== undefined) throw invalid([field], `${field} applies to the DFT and HF methods (${DFT_METHODS.join(', ')}), not to ${p.method ?? 'gfn2'}`, p[field]);
    return;
  }
  const label = METHODS[p.method].label;
  if (p.basis === undefined) throw invalid(['basis'], `Field required: ${p.method} (${label}) needs a basis set: one of ${BASIS_SETS.join(', ')}`, null, 'missing');
  const where = p.solvent ? ` in a solvent (${p.solvent})` : '';
  if (p.engine) {
    const why = cannotRun(p.engine, p.method, p.solvent);
    if (!why) return;
    const others = enginesFor(p.method, p.solvent);
    const can = methodsRunnable(p.solvent, p.engine);
    throw invalid(
      ['engine'],
      `${p.engine} cannot run ${label}${where}: ${why}. ${others.length ? `${others.join(' and ')} can` : `No engine here runs ${label}${where}`}; ${p.engine} runs ${can.length ? can.join(', ') : 'none of the methods'}${where}`,
      p.engine,
    );
  }
  if (enginesFor(p.method, p.solvent).length === 0) {
    const reasons = (['psi4', 'nwchem'] as const).map((e) => `${e}: ${cannotRun(e, p.method as DftMethod, p.solvent)}`).join('; ');
    throw invalid(['method'], `No engine here runs ${label}${where} (${reasons}); ${where ? `in a solvent, ` : ''}use one of ${methodsRunnable(p.solvent).join(', ')}`, p.method);
  }
}

const symbolZ = new Map(ELEMENTS.filter(Boolean).map((e) => [e.symbol, e.z]));

/** Why a structure cannot be run with `basis` (an ItemFailure): more heavy atoms than the basis set's limit, an element it does not cover here. */
export function checkDftStructure(s: Structure, basis: BasisSet): void {
  const b = BASES[basis];
  if (s.info.heavy > b.maxHeavyAtoms) throw new ItemFailure('too_large', `${s.info.heavy} heavy atoms; ${b.label} takes at most ${b.maxHeavyAtoms} (docs/engines.md, "DFT")`);
  const bad = s.info.elements.filter((e) => !coversElement(basis, symbolZ.get(e) ?? 0));
  if (bad.length)
    throw new ItemFailure(
      'unsupported_element',
      `${b.label} here covers H to Kr (no effective core potentials${basis === 'cc-pvdz' ? '; cc-pVDZ has no K' : ''}): not ${bad.join(', ')}`,
    );
}

/** The basis functions of a structure known by its counts (the heavy atoms at the mean of their elements' functions). */
export function approximateFunctions(basis: BasisSet, info: { atoms: number; heavy: number; elements: string[] }): number {
  const f = BASES[basis].functions;
  const heavy = info.elements.filter((e) => e !== 'H').map((e) => f[(symbolZ.get(e) ?? 6) - 1] ?? 0);
  const mean = heavy.length ? heavy.reduce((a, b) => a + b, 0) / heavy.length : 0;
  return Math.round(info.heavy * mean + (info.atoms - info.heavy) * f[0]!);
}

/**
 * The checks at submit and the estimate of a DFT or HF job: the payload's rules, each inline
 * structure's charge and multiplicity and its size against the basis set's limit (a 422 naming
 * the limit), and the expected time from its basis functions.
 */
export async function dftEstimateOf(p: DftPayload & { method: DftMethod }, ctx: EstimateContext, task: DftTask, steps = 1): Promise<Estimate> {
  checkDftPayload(p);
  const basis = p.basis!;
  const n = await countStructures(p, ctx);
  let functions: number[] = [];
  if (p.molecules && ctx.structureInfo) {
    const infos = await ctx.structureInfo(p.molecules);
    infos.forEach((info, i) => {
      if (info.error) return;
      const b = BASES[basis];
      if (info.heavy <= b.maxHeavyAtoms) return;
      const larger = BASIS_SETS.filter((x) => BASES[x].maxHeavyAtoms > b.maxHeavyAtoms).map((x) => `${x} takes ${BASES[x].maxHeavyAtoms}`);
      throw invalid(
        ['molecules', i],
        `structure ${i} has ${info.heavy} heavy atoms; ${METHODS[p.method].label}/${b.label} takes at most ${b.maxHeavyAtoms} heavy atoms${larger.length ? ` (${larger.join(', ')})` : ''}`,
        p.molecules![i]!.slice(0, 200),
        'too_large',
      );
    });
    checkSpins(p, infos);
    functions = infos.map((info) => (info.error ? 0 : approximateFunctions(basis, info)));
  }
  return dftEstimate({ method: p.method, basis, engine: dftEngineOf(p), task, n, functions, threads: ctx.resource.vcpu, steps });
}

/** What every item of a DFT or HF job carries, and the result's top level. */
export function dftItemFields(p: DftPayload & { method: DftMethod }, version: string | null): Record<string, unknown> {
  return { engine: dftEngineOf(p), engine_version: version, method: p.method, basis: p.basis };
}

/**
 * One structure's DFT or HF calculation as every DFT job type runs it (singlepoint, optimize,
 * properties_qm, rerank): its checks (elements, the basis set's size limit), its charge and
 * multiplicity, its 3D structure by Open Babel in `dir`, then the payload's engine; `extra` adds
 * an optimisation or cube files.
 */
export async function runDftItem(
  p: DftPayload & { method: DftMethod },
  s: Structure,
  tools: EngineTools,
  dir: string,
  extra: Pick<DftCall, 'optimize' | 'cubes'> = {},
): Promise<{ r: DftResult; spin: { charge: number; multiplicity: number } }> {
  checkStructure(s, p.method);
  checkDftStructure(s, p.basis!);
  const spin = chargeAndSpin(p, s);
  const prepared = await prepare(s, tools, dir);
  const r = await runDft(dftEngineOf(p), tools, dir, prepared, {
    method: p.method,
    basis: p.basis!,
    solvent: p.solvent,
    ...spin,
    scfMaxIterations: p.scf_max_iterations,
    ...extra,
  });
  return { r, spin };
}
