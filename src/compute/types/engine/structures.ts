// The structures of an engine job (docs/engines.md, "Structures"): read from the payload or an
// uploaded set, checked with RDKit on the chemistry pool (atoms, elements, charge, electrons),
// and given 3D coordinates with every hydrogen by Open Babel, in the input's atom order
// (hydrogens after the heavy atoms). Molblocks with 3D coordinates keep them.
import fs from 'node:fs';
import path from 'node:path';
import type { StructureInfoOutcome } from '../../../chem/jobs/types.js';
import type { ChemPool } from '../../../chem/pool.js';
import { ELEMENTS } from '../../../chem/properties/data.js';
import { JobInputError, type RunContext } from '../../job-type.js';
import { checkAborted } from '../molecule-jobs.js';
import { isMolblock } from '../../../chem/jobs/handlers.js';
import type { EngineTools } from './run.js';
import { maxAtoms, type StructurePayload } from './payload.js';

/** One structure of a job, in input order. */
export interface Structure {
  index: number;
  /** The record id of an uploaded set, else the index. */
  id: string;
  name?: string;
  /** As given: SMILES or molblock. */
  input: string;
  info: StructureInfoOutcome;
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

/** The job's structures, with RDKit's reading of each. */
export async function loadStructures(ctx: RunContext<StructurePayload>, pool: ChemPool): Promise<Structure[]> {
  const p = ctx.payload;
  const raw: { id: string; name?: string; input: string }[] = [];
  if (p.molecules) p.molecules.forEach((m, i) => raw.push({ id: String(i), input: m }));
  else {
    try {
      for await (const m of ctx.readMolecules(p.input_artifact_id!, p.port)) raw.push({ id: m.id, name: m.name, input: m.molblock ?? m.smiles });
    } catch (err) {
      throw err instanceof JobInputError ? err : new JobInputError(`the input set ${p.input_artifact_id} cannot be read: ${(err as Error).message}`);
    }
  }
  checkAborted(ctx.signal);
  const outs = await pool.runItems(
    'structure_info',
    raw.map((r) => r.input),
    {},
    1,
  );
  return raw.map((r, index) => {
    const o = outs[index];
    const info: StructureInfoOutcome =
      o && o.ok
        ? o.value
        : { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: false, smiles: null, error: o && !o.ok && o.failure === 'timeout' ? 'too_large' : 'failed' };
    return { index, id: r.id, name: r.name, input: r.input, info };
  });
}

/** Elements a method has parameters for. */
export function unsupportedElements(method: string, elements: string[]): string[] {
  const z = (sym: string) => ELEMENTS.findIndex((e) => e?.symbol === sym);
  const ok = (n: number) => (method === 'pm6' || method === 'pm7' ? n >= 1 && (n <= 57 || (n >= 72 && n <= 83)) : n >= 1 && n <= 86);
  return elements.filter((e) => !ok(z(e)));
}

/** Why a structure cannot be run with `method` (an ItemFailure), before any engine runs. */
export function checkStructure(s: Structure, method: string): void {
  if (s.info.error === 'unparseable') throw new ItemFailure('unparseable', 'RDKit cannot read this structure');
  if (s.info.error) throw new ItemFailure(s.info.error, s.info.error === 'too_large' ? 'the structure is too large' : 'the structure could not be read');
  if (s.info.atoms > maxAtoms(method)) throw new ItemFailure('too_large', `${s.info.atoms} atoms with hydrogens; ${method} takes at most ${maxAtoms(method)}`);
  const bad = unsupportedElements(method, s.info.elements);
  if (bad.length) throw new ItemFailure('unsupported_element', `${method} has no parameters for ${bad.join(', ')}`);
}

/** Atom symbols and coordinates of a V2000 molblock. */
export function readMolblockAtoms(molblock: string): { symbols: string[]; coords: [number, number, number][] } {
  const lines = molblock.split(/\r?\n/);
  const n = Number((lines[3] ?? '').slice(0, 3));
  const symbols: string[] = [];
  const coords: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    const l = lines[4 + i] ?? '';
    coords.push([Number(l.slice(0, 10)), Number(l.slice(10, 20)), Number(l.slice(20, 30))]);
    symbols.push(l.slice(31, 34).trim());
  }
  return { symbols, coords };
}

/** `molblock` with its atoms moved to `coords` (same atoms, same order), 4 decimals as V2000 carries. */
export function withCoords(molblock: string, coords: readonly (readonly [number, number, number])[]): string {
  const lines = molblock.split(/\r?\n/);
  const n = Number((lines[3] ?? '').slice(0, 3));
  if (n !== coords.length) throw new Error(`the molblock has ${n} atoms, the coordinates ${coords.length}`);
  for (let i = 0; i < n; i++) {
    const l = lines[4 + i]!;
    const [x, y, z] = coords[i]!;
    lines[4 + i] = `${x.toFixed(4).padStart(10)}${y.toFixed(4).padStart(10)}${z.toFixed(4).padStart(10)}${l.slice(30)}`;
  }
  return lines.join('\n');
}

/** A structure's SMILES: as given, or RDKit's of a molblock (null when RDKit cannot read the molblock). */
export function smilesOf(s: Pick<Structure, 'input' | 'info'>): string | null {
  return s.info.smiles ?? (isMolblock(s.input) ? null : s.input.trim() || null);
}

/** What a plot calls a structure: its name, else its SMILES (when short), else its place (1-based). */
export function displayName(s: Pick<Structure, 'index' | 'name' | 'info' | 'input'>): string {
  const smiles = smilesOf(s);
  return s.name || (smiles && smiles.length <= 80 ? smiles : null) || `structure ${s.index + 1}`;
}

/** Names a molblock: its first line. */
export function titled(molblock: string, title: string): string {
  const lines = molblock.split('\n');
  lines[0] = title.replace(/[\r\n]/g, ' ').slice(0, 80);
  return lines.join('\n');
}

/**
 * 3D coordinates with every hydrogen, in the input's atom order: Open Babel builds them from a
 * SMILES or a 2D molblock (--gen3d), adds the missing hydrogens of a 3D molblock (-h keeps
 * the coordinates given), and writes a V2000 molblock. Always on one thread: with several, Open
 * Babel's 3D builds differ from run to run.
 */
export async function prepare(s: Structure, tools: EngineTools, dir: string): Promise<Prepared> {
  const molblockIn = isMolblock(s.input);
  const input = path.join(dir, molblockIn ? 'input.mol' : 'input.smi');
  fs.writeFileSync(input, molblockIn ? s.input : `${s.input}\n`);
  const args = [input, '-O', path.join(dir, 'prepared.mol'), '-h', ...(molblockIn && s.info.has3d ? [] : ['--gen3d'])];
  const r = await tools.run('obabel', args, dir, { timeoutMs: 120_000, threads: 1 });
  const out = path.join(dir, 'prepared.mol');
  const molblock = fs.existsSync(out) ? fs.readFileSync(out, 'utf8').split('$$$$')[0]!.replace(/\s+$/, '\n') : '';
  const atoms = molblock ? readMolblockAtoms(molblock) : { symbols: [], coords: [] };
  if (!molblock || atoms.symbols.length === 0) throw new ItemFailure('preparation_failed', `Open Babel could not build 3D coordinates: ${lastLines(r.stderr || r.stdout)}`);
  if (atoms.symbols.length !== s.info.atoms)
    throw new ItemFailure(
      'preparation_failed',
      `Open Babel gave ${atoms.symbols.length} atoms with hydrogens, RDKit counts ${s.info.atoms}: the structure's hydrogens are ambiguous`,
    );
  if (!s.info.has3d && atoms.coords.every((c) => Math.abs(c[2]) < 1e-4)) throw new ItemFailure('preparation_failed', 'Open Babel could not build 3D coordinates');
  return { ...s, molblock, ...atoms };
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
