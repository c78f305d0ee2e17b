// The first `limit` SMILES of a .smi file (the first field of each non-empty line), for the chemistry benchmarks' scripts.
import fs from 'node:fs';

export function readSmilesFile(file: string, limit: number): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.split(/\s+/)[0]!)
    .slice(0, limit);
}
