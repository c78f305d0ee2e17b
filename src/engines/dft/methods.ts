// The DFT and Hartree-Fock methods and basis sets (docs/engines.md, "DFT"): which engine runs
// which method, what each is called in the engine's input, the papers' names of what a
// calculation ran, the elements each basis set covers here, its functions per element (for the
// estimates) and the size limits.

export type DftEngine = 'psi4' | 'nwchem';

export const DFT_METHODS = ['hf', 'pbe', 'pbe0', 'b3lyp', 'wb97x-d', 'b3lyp-d3bj', 'pbe0-d3bj'] as const;
export type DftMethod = (typeof DFT_METHODS)[number];

export const BASIS_SETS = ['def2-svp', 'def2-tzvp', '6-31g*', 'cc-pvdz'] as const;
export type BasisSet = (typeof BASIS_SETS)[number];

export interface DftMethodSpec {
  /** As chemists write it. */
  label: string;
  /** The functional (or hf) as the papers catalog names it (letters, digits and _). */
  functional: string;
  /** The dispersion correction the papers catalog names (d3bj), null when none is added. */
  dispersion: string | null;
  /** Psi4's name of the method (energy('b3lyp')); null when Debian's Psi4 cannot run it. */
  psi4: string | null;
  /** NWChem's dft block: the xc line and the disp line; null when NWChem is not used for it. */
  nwchem: { xc: string; disp?: string } | null;
  /** Why an engine cannot run it, for the 422 that names the ones that can. */
  notOn?: Partial<Record<DftEngine, string>>;
}

/**
 * Psi4 runs what it can (Debian's Psi4 1.3.2 has no dftd3 program, so no -D3 variant); NWChem
 * runs the D3(BJ) methods (its D3 is built in: `disp vdw 4`) and everything in a solvent (COSMO).
 * ωB97X-D's dispersion is part of the functional (Chai and Head-Gordon's own damping), which
 * Psi4 has; it is not run through NWChem here.
 */
export const METHODS: Readonly<Record<DftMethod, DftMethodSpec>> = {
  hf: { label: 'HF', functional: 'hf', dispersion: null, psi4: 'hf', nwchem: { xc: 'HFexch 1.0' } },
  pbe: { label: 'PBE', functional: 'pbe', dispersion: null, psi4: 'pbe', nwchem: { xc: 'xpbe96 cpbe96' } },
  pbe0: { label: 'PBE0', functional: 'pbe0', dispersion: null, psi4: 'pbe0', nwchem: { xc: 'pbe0' } },
  b3lyp: { label: 'B3LYP', functional: 'b3lyp', dispersion: null, psi4: 'b3lyp', nwchem: { xc: 'b3lyp' } },
  'wb97x-d': {
    label: 'ωB97X-D',
    functional: 'wb97x_d',
    dispersion: null,
    psi4: 'wb97x-d',
    nwchem: null,
    notOn: { nwchem: 'ωB97X-D runs in Psi4 only here' },
  },
  'b3lyp-d3bj': {
    label: 'B3LYP-D3(BJ)',
    functional: 'b3lyp',
    dispersion: 'd3bj',
    psi4: null,
    nwchem: { xc: 'b3lyp', disp: 'vdw 4' },
    notOn: { psi4: "Debian's Psi4 1.3.2 has no dftd3 program for -D3 corrections" },
  },
  'pbe0-d3bj': {
    label: 'PBE0-D3(BJ)',
    functional: 'pbe0',
    dispersion: 'd3bj',
    psi4: null,
    nwchem: { xc: 'pbe0', disp: 'vdw 4' },
    notOn: { psi4: "Debian's Psi4 1.3.2 has no dftd3 program for -D3 corrections" },
  },
};

export interface BasisSpec {
  label: string;
  /** As the papers catalog names it. */
  paper: string;
  /** Psi4's and NWChem's library name. */
  psi4: string;
  nwchem: string;
  /** Cartesian d functions (6-31G* is defined with six), else spherical. */
  cartesian: boolean;
  /** Basis functions per element, H to Kr (0: not in the library); elements beyond Kr would need core potentials. */
  functions: readonly number[];
  /** The most heavy atoms (not H) a structure may have with this basis (docs/engines.md, "DFT"). */
  maxHeavyAtoms: number;
}

/** Counted from Psi4's basis files (spherical d and f, Cartesian for 6-31G*); NWChem's libraries hold the same functions. */
export const BASES: Readonly<Record<BasisSet, BasisSpec>> = {
  'def2-svp': {
    paper: 'def2_svp',
    label: 'def2-SVP',
    psi4: 'def2-svp',
    nwchem: 'def2-svp',
    cartesian: false,
    functions: [5, 5, 9, 9, 14, 14, 14, 14, 14, 14, 15, 18, 18, 18, 18, 18, 18, 18, 24, 24, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 32, 32, 32, 32, 32, 32],
    maxHeavyAtoms: 80,
  },
  'def2-tzvp': {
    paper: 'def2_tzvp',
    label: 'def2-TZVP',
    psi4: 'def2-tzvp',
    nwchem: 'def2-tzvp',
    cartesian: false,
    functions: [6, 6, 14, 19, 31, 31, 31, 31, 31, 31, 32, 32, 37, 37, 37, 37, 37, 37, 33, 36, 45, 45, 45, 45, 45, 45, 45, 45, 45, 48, 48, 48, 48, 48, 48, 48],
    maxHeavyAtoms: 50,
  },
  '6-31g*': {
    paper: '6_31gs',
    label: '6-31G*',
    psi4: '6-31g*',
    nwchem: '6-31G*',
    cartesian: true,
    functions: [2, 2, 15, 15, 15, 15, 15, 15, 15, 15, 19, 19, 19, 19, 19, 19, 19, 19, 23, 23, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 35, 35, 35, 35, 35, 35],
    maxHeavyAtoms: 80,
  },
  'cc-pvdz': {
    paper: 'cc_pvdz',
    label: 'cc-pVDZ',
    psi4: 'cc-pvdz',
    nwchem: 'cc-pvdz',
    cartesian: false,
    functions: [5, 5, 14, 14, 14, 14, 14, 14, 14, 14, 18, 18, 18, 18, 18, 18, 18, 18, 0, 27, 43, 43, 43, 43, 43, 43, 43, 43, 43, 43, 27, 27, 27, 27, 27, 27],
    maxHeavyAtoms: 80,
  },
};

export function isDftMethod(method: unknown): method is DftMethod {
  return typeof method === 'string' && (DFT_METHODS as readonly string[]).includes(method);
}

/** The engines that can run `method` (with a solvent: NWChem only, its COSMO), in the order they are chosen. */
export function enginesFor(method: DftMethod, solvent: string | null | undefined): DftEngine[] {
  const m = METHODS[method];
  if (solvent) return m.nwchem ? ['nwchem'] : [];
  return [...(m.psi4 ? (['psi4'] as const) : []), ...(m.nwchem ? (['nwchem'] as const) : [])];
}

/** Why `engine` cannot run `method` (in `solvent`), or null when it can. */
export function cannotRun(engine: DftEngine, method: DftMethod, solvent: string | null | undefined): string | null {
  const m = METHODS[method];
  if (solvent && engine === 'psi4') return 'implicit solvation (COSMO) runs in NWChem only here';
  if (engine === 'psi4' ? m.psi4 === null : m.nwchem === null) return m.notOn?.[engine] ?? `${engine} does not run ${m.label} here`;
  return null;
}

/** Methods that `engine` (or, without one, some engine) can run in `solvent`. */
export function methodsRunnable(solvent: string | null | undefined, engine?: DftEngine): DftMethod[] {
  return DFT_METHODS.filter((m) => (engine ? cannotRun(engine, m, solvent) === null : enginesFor(m, solvent).length > 0));
}

/** Basis functions of a structure's elements (null: an element the basis set does not cover here). */
export function basisFunctions(basis: BasisSet, atomicNumbers: readonly number[]): number | null {
  let n = 0;
  for (const z of atomicNumbers) {
    const f = BASES[basis].functions[z - 1];
    if (!f) return null;
    n += f;
  }
  return n;
}

/** The elements (atomic numbers) a basis set covers here. */
export function coversElement(basis: BasisSet, z: number): boolean {
  return (BASES[basis].functions[z - 1] ?? 0) > 0;
}

/**
 * What a calculation ran, as the papers catalog names them: the functional, the dispersion, the
 * basis set, the solvation model (NWChem's COSMO: Klamt and Schüürmann's model with York and
 * Karplus's smooth surface) and the program.
 */
export function dftPaperMethods(method: DftMethod, basis: BasisSet, solvent: string | null | undefined, engine: DftEngine): string[] {
  const m = METHODS[method];
  return [m.functional, ...(m.dispersion ? [m.dispersion] : []), BASES[basis].paper, ...(solvent ? ['cosmo', 'cosmo_yk'] : []), engine];
}

/** Every method name an engine may run, as the papers catalog names them (GET /engines). */
export function enginePaperMethods(engine: DftEngine): string[] {
  const out = new Set<string>();
  for (const method of DFT_METHODS) {
    for (const solvent of [null, 'water']) {
      if (cannotRun(engine, method, solvent) !== null) continue;
      for (const b of BASIS_SETS) for (const name of dftPaperMethods(method, b, solvent, engine)) out.add(name);
    }
  }
  return [...out];
}
