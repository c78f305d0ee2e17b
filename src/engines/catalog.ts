// The compute engines Crucible runs as child processes (docs/engines.md): the program each one
// is, the Debian package that ships it, how to ask its version, and the program it is started
// through where it has one (NWChem: Open MPI's mpirun). Discovery (discovery.ts) finds them on
// the PATH at start.
export type EngineName = 'xtb' | 'mopac' | 'obabel' | 'vina' | 'psi4' | 'nwchem' | 'rdkit' | 'pdbfixer' | 'pdb2pqr' | 'plip';

/** A program an engine is started through, found on the PATH beside it (NWChem's MPI launcher). */
export interface Launcher {
  binary: string;
  /** The launcher's arguments before the engine's own: `threads` processes of `program`. */
  args(threads: number, program: string): string[];
  /** Environment the launcher needs beside the runtime's (engineEnv). */
  env(threads: number): Record<string, string>;
}

export interface EngineSpec {
  name: EngineName;
  /** The program looked up on the PATH. */
  binary: string;
  /** Every `binary` on the PATH is asked in turn, the first that answers is the engine (a python3 without the package comes first under pyenv). */
  firstAnswering?: boolean;
  /** The Debian package that installs it (named in engine-unavailable problems). */
  debianPackage: string;
  /** What it is, for GET /engines readers. */
  summary: string;
  /**
   * How to learn its version: the arguments, stdin, and a pattern whose first group is the
   * version in the output (stdout and stderr together). MOPAC has no version flag: it runs a
   * one-atom single point in a scratch directory (a few milliseconds).
   */
  version: { args: string[]; input?: string; file?: { name: string; content: string }; pattern: RegExp; fromFile?: string };
  /** Started through this program (the engine's own path goes among its arguments). */
  launcher?: Launcher;
  /**
   * The largest file a calculation may write, when its scratch files are larger by nature than
   * the runtime's default bound (src/engines/process.ts): Psi4's density-fitted integrals of a
   * drug-sized molecule at def2-SVP pass 1 GB (lidocaine, N 348, failed in libpsio at 512 MB).
   */
  maxFileBytes?: number;
}

/** What a DFT engine may write in one file: its integral and scratch files. */
const DFT_SCRATCH_FILE = 16 * 1024 ** 3;

/**
 * Open MPI's mpirun as NWChem's launcher (docs/engines.md, "DFT"): `threads` ranks of one thread
 * each, bound to no core (the machine is shared), more ranks than cores allowed, shared memory
 * between ranks only (no network transport probed), no remote launcher (`plm isolated`). Open MPI refuses root unless told; a
 * worker in a container often is root. Each rank runs in a process group of its own, so a
 * cancel kills the calculation's whole session (process.ts).
 */
const MPIRUN: Launcher = {
  binary: 'mpirun',
  args: (threads, program) => ['-np', String(Math.max(1, threads)), '--bind-to', 'none', '--oversubscribe', '--mca', 'btl', 'self,vader', program],
  env: () => ({
    OMP_NUM_THREADS: '1',
    MKL_NUM_THREADS: '1',
    OPENBLAS_NUM_THREADS: '1',
    OMPI_ALLOW_RUN_AS_ROOT: '1',
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1',
    // One machine: no daemons started over ssh/rsh (neither need be installed).
    OMPI_MCA_plm: 'isolated',
  }),
};

export const ENGINES: Readonly<Record<EngineName, EngineSpec>> = {
  xtb: {
    name: 'xtb',
    binary: 'xtb',
    debianPackage: 'xtb',
    summary: 'Semiempirical tight-binding quantum chemistry: GFN2-xTB, GFN1-xTB, GFN-FF; ALPB implicit solvation',
    version: { args: ['--version'], pattern: /xtb version (\S+)/ },
  },
  mopac: {
    name: 'mopac',
    binary: 'mopac',
    debianPackage: 'mopac',
    summary: 'Semiempirical quantum chemistry: PM7, PM6; COSMO implicit solvation',
    version: { args: ['probe.mop'], file: { name: 'probe.mop', content: 'PM7 1SCF\nversion probe\n\nH 0 0 0\nH 0.74 0 0\n' }, fromFile: 'probe.out', pattern: /MOPAC v(\S+)/ },
  },
  obabel: {
    name: 'obabel',
    binary: 'obabel',
    debianPackage: 'openbabel',
    summary: 'Open Babel: 3D coordinates, conformer generation, protonation, file formats',
    version: { args: ['-V'], pattern: /Open Babel (\S+)/ },
  },
  vina: {
    name: 'vina',
    binary: 'vina',
    debianPackage: 'autodock-vina',
    summary: 'AutoDock Vina: docking of ligands into a receptor',
    version: { args: ['--version'], pattern: /AutoDock Vina v?(\S+)/ },
  },
  psi4: {
    name: 'psi4',
    binary: 'psi4',
    debianPackage: 'psi4',
    summary: 'Psi4: Hartree-Fock and density functional theory (HF, PBE, PBE0, B3LYP, wB97X-D) with Gaussian basis sets',
    version: { args: ['--version'], pattern: /^(\d+\.\d+(?:\.\d+)?)/m },
    maxFileBytes: DFT_SCRATCH_FILE,
  },
  nwchem: {
    name: 'nwchem',
    binary: 'nwchem',
    debianPackage: 'nwchem',
    summary: 'NWChem: Hartree-Fock and density functional theory with built-in D3(BJ) dispersion and COSMO implicit solvation, run through mpirun',
    version: {
      args: ['probe.nw'],
      file: { name: 'probe.nw', content: 'start probe\nscratch_dir .\npermanent_dir .\nmemory total 64 mb\n' },
      pattern: /\(NWChem\) (\S+)/,
    },
    launcher: MPIRUN,
    maxFileBytes: DFT_SCRATCH_FILE,
  },
  rdkit: {
    name: 'rdkit',
    binary: 'python3',
    // A python3 earlier on the PATH (a pyenv shim, a virtualenv) often lacks Debian's package.
    firstAnswering: true,
    debianPackage: 'python3-rdkit',
    summary: "RDKit's Python library (Debian's python3-rdkit) run as a program: ionisable sites, protonation states, tautomer enumeration, bonds to break and ETKDG conformers",
    version: { args: ['-c', 'import rdkit; print("RDKit", rdkit.__version__)'], pattern: /RDKit (\S+)/ },
  },
  pdbfixer: {
    name: 'pdbfixer',
    binary: 'python3',
    firstAnswering: true,
    debianPackage: 'python3-pdbfixer',
    summary: "PDBFixer with OpenMM (Debian's python3-pdbfixer) run as a program: missing heavy atoms and side chains, waters and hetero groups removed, hydrogens at a pH",
    version: { args: ['-c', 'import pdbfixer, openmm; print("OpenMM", openmm.__version__)'], pattern: /OpenMM (\S+)/ },
  },
  pdb2pqr: {
    name: 'pdb2pqr',
    binary: 'pdb2pqr30',
    debianPackage: 'pdb2pqr',
    summary: 'PDB2PQR with PROPKA: protonation states of a protein at a pH (His, Asp, Glu, Lys, ...)',
    version: { args: ['--version'], pattern: /pdb2pqr (\S+)/ },
  },
  plip: {
    name: 'plip',
    binary: 'plipcmd',
    debianPackage: 'plip',
    summary: 'PLIP, the Protein-Ligand Interaction Profiler: hydrogen bonds, salt bridges, pi-stacking, cation-pi, hydrophobic contacts and halogen bonds of a complex',
    version: { args: ['-h'], pattern: /PLIP\) Version (\S+)/ },
  },
};

export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];
