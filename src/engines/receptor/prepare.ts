// Receptor preparation (docs/structure.md, "Receptor preparation"): a protein PDB file, already
// filtered by the docking receptor reader (src/engines/docking/receptor.ts: first model, first
// alternate location, waters and hetero groups out unless kept), completed by PDBFixer (missing
// heavy atoms of the residues present; gaps listed, never built), then protonated at a pH by
// PDB2PQR with PROPKA (AMBER names: HID, HIE, HIP, ASH, GLH, LYN, CYX, CYM). What failed is the
// tool's own message as a ReceptorProblem (the job's input, a job error).
import fs from 'node:fs';
import path from 'node:path';
import { ReceptorProblem, WATER_RESIDUES } from '../docking/receptor.js';
import { lastLines, type EngineTools } from '../tools.js';
import { runPdbfixer } from './program.js';

/** A change to the structure: the residue (`RESNAME CHAIN NUMBER`) and what was done. */
export interface Change {
  residue: string;
  what: string;
}

/** A residue's protonation state, by its AMBER name (HIE, HID, HIP, ASH, GLH, LYN, CYX, CYM, ...). */
export interface Protonation {
  residue: string;
  state: string;
}

/** A gap in a chain (residues in SEQRES without coordinates): listed, never built. */
export interface Gap {
  chain: string;
  where: string;
  residues: number;
  terminal: boolean;
}

export interface PreparedProtein {
  /** The prepared PDB (hydrogens included) in the job's directory. */
  file: string;
  atoms: number;
  hydrogens: number;
  changes: Change[];
  protonation: Protonation[];
  gaps: Gap[];
}

/** AMBER residue names of a state other than the residue's usual one at pH 7, by the standard name. */
const STATE_OF: Record<string, string> = {
  HID: 'HIS',
  HIE: 'HIS',
  HIP: 'HIS',
  ASH: 'ASP',
  GLH: 'GLU',
  LYN: 'LYS',
  CYX: 'CYS',
  CYM: 'CYS',
  ARN: 'ARG',
  TYM: 'TYR',
};

interface FixAnswer {
  changes: (Change & { atoms: number })[];
  gaps: Gap[];
}
interface FinishAnswer {
  atoms: number;
  hydrogens: number;
  residues: [string, string, string][];
  restored: string[];
}

/** PDB2PQR's own words for a failure: its CRITICAL and ERROR log lines, else its output's last lines. */
function pdb2pqrMessage(stderr: string, stdout: string): string {
  const lines = stderr
    .split('\n')
    .filter((l) => /^(CRITICAL|ERROR):/.test(l) && !/Giving up/.test(l))
    .map((l) => l.replace(/^(CRITICAL|ERROR):/, '').trim());
  return lines.length ? lines.slice(0, 5).join(' | ').slice(0, 800) : lastLines(stderr || stdout, 5);
}

/** Heavy atoms PDB2PQR reports missing and rebuilds itself ("Missing atom CG in residue LYS A 271"), by residue. */
function pdb2pqrRepairs(stderr: string): Change[] {
  const byResidue = new Map<string, Set<string>>();
  for (const m of stderr.matchAll(/^WARNING:Missing atom (\S+) in residue (\S+ \S+ \S+)\s*$/gm)) {
    const set = byResidue.get(m[2]!) ?? new Set<string>();
    set.add(m[1]!);
    byResidue.set(m[2]!, set);
  }
  return [...byResidue].map(([residue, atoms]) => ({ residue, what: `added atoms ${[...atoms].join(', ')} (PDB2PQR's repair)` }));
}

/**
 * Prepares `input` (a file in `dir`): PDBFixer, then PDB2PQR with PROPKA at `ph`, then the kept
 * hetero groups put back. `removed` are the groups the reader took out (`RESNAME CHAIN NUMBER`).
 */
export async function prepareProtein(
  tools: EngineTools,
  dir: string,
  o: { input: string; ph: number; fill: boolean; removed: string[]; removedMore: number },
): Promise<PreparedProtein> {
  const fix = await runPdbfixer<FixAnswer>(tools, dir, { command: 'fix', input: o.input, output: 'fixed.pdb', fill: o.fill });
  const args = [
    '--ff=AMBER',
    '--ffout=AMBER',
    '--titration-state-method=propka',
    `--with-ph=${o.ph}`,
    '--keep-chain',
    '--pdb-output',
    'protonated.pdb',
    'fixed.pdb',
    'protonated.pqr',
  ];
  const r = await tools.run('pdb2pqr', args, dir, { threads: 1 });
  if (r.code !== 0 || !fs.existsSync(path.join(dir, 'protonated.pdb')))
    throw new ReceptorProblem(`PDB2PQR (PROPKA) could not protonate the structure: ${pdb2pqrMessage(r.stderr, r.stdout)}`);
  const fin = await runPdbfixer<FinishAnswer>(tools, dir, { command: 'finish', pdb2pqr: 'protonated.pdb', fixed: 'fixed.pdb', output: 'prepared.pdb' });
  const changes: Change[] = fix.changes.map(({ residue, what }) => ({ residue, what }));
  if (!o.fill) changes.push(...pdb2pqrRepairs(r.stderr));
  for (const g of o.removed) {
    const name = g.split(' ')[0]!;
    changes.push({ residue: g, what: WATER_RESIDUES.has(name) ? 'removed water' : `removed hetero group ${name}` });
  }
  if (o.removedMore > 0) changes.push({ residue: '', what: `removed ${o.removedMore} more groups (not listed one by one)` });
  const protonation: Protonation[] = [];
  for (const [name, chain, number] of fin.residues) {
    const standard = STATE_OF[name];
    if (standard) protonation.push({ residue: `${standard} ${chain.trim() || '_'} ${number}`, state: name });
  }
  return { file: path.join(dir, 'prepared.pdb'), atoms: fin.atoms, hydrogens: fin.hydrogens, changes, protonation, gaps: fix.gaps };
}
