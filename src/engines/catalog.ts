// The compute engines Crucible runs as child processes (docs/engines.md): the program each one
// is, the Debian package that ships it, and how to ask its version. Discovery (discovery.ts)
// finds them on the PATH at start.
export type EngineName = 'xtb' | 'mopac' | 'obabel' | 'vina';

export interface EngineSpec {
  name: EngineName;
  /** The program looked up on the PATH. */
  binary: string;
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
}

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
};

export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];
