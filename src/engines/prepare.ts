// Structure preparation (docs/engines.md, "Structures"): 3D coordinates with every hydrogen, in
// the input's atom order (hydrogens after the heavy atoms), built by Open Babel. Molblocks with
// 3D coordinates keep them.
import fs from 'node:fs';
import path from 'node:path';
import { isMolblock } from '../chem/jobs/handlers.js';
import { readMolblockAtoms } from './molblock.js';
import { ItemFailure, lastLines, type EngineTools, type Prepared, type Structure } from './tools.js';

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
