// The kernel of the engine chemistry (docs/engines.md, "The engine runtime"): what a calculation
// is handed (EngineTools, one engine call in a scratch directory), the structures it reads
// (Structure, Prepared), how one structure fails (ItemFailure) and the tail of an engine's output
// for a message. The job runtime (src/compute) builds the tools and maps the failures; nothing
// here imports it.
import type { StructureInfoOutcome } from '../chem/jobs/types.js';
import type { EngineName } from './catalog.js';
import type { EngineResult } from './process.js';

/** A job's handle on the engines: runs one program with the job's resource and signal, and keeps its log. */
export interface EngineTools {
  threads: number;
  run(
    engine: EngineName,
    args: string[],
    cwd: string,
    opts?: { input?: string; timeoutMs?: number; threads?: number; onStdout?: (chunk: Buffer) => void; env?: Record<string, string> },
  ): Promise<EngineResult>;
}

/** One structure of a job, in input order. */
export interface Structure {
  index: number;
  /** The record id of an uploaded set, else the index. */
  id: string;
  name?: string;
  /** As given: SMILES or molblock. */
  input: string;
  info: StructureInfoOutcome;
  /** An uploaded record's numeric SDF data fields (a conformer search's energy_hartree and index). */
  metrics?: Record<string, number>;
}

/** A structure ready for an engine: a V2000 molblock with 3D coordinates and every hydrogen. */
export interface Prepared extends Structure {
  molblock: string;
  /** Element symbols in atom order. */
  symbols: string[];
  coords: [number, number, number][];
}

/** An error of one structure (an item of the result): a code and what happened. */
export class ItemFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The last structure reached (a calculation that did not converge keeps it). */
    readonly molblock: string | null = null,
  ) {
    super(message);
  }
}

/** The last few lines of an engine's output, for a message. */
export function lastLines(text: string, n = 3): string {
  return (
    text
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .slice(-n)
      .join(' | ')
      .slice(0, 500) || 'no output'
  );
}
