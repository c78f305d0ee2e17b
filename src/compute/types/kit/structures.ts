// The structures of an engine job (docs/engines.md, "Structures"): read from the payload or an
// uploaded set and checked with RDKit on the chemistry pool (atoms, elements, charge,
// electrons); src/engines/prepare.ts then gives them 3D coordinates with every hydrogen.
import type { StructureInfoOutcome } from '../../../chem/jobs/types.js';
import { ELEMENTS } from '../../../chem/properties/data.js';
import { isMolblock } from '../../../chem/jobs/handlers.js';
import { ItemFailure, type Structure } from '../../../engines/tools.js';
import { JobInputError, type RunContext } from '../../job-type.js';
import { checkAborted, chemPool } from '../molecule-jobs.js';
import { maxAtoms, type StructurePayload } from './payload.js';

/** The job's structures, with RDKit's reading of each. */
export async function loadStructures(ctx: RunContext<StructurePayload>): Promise<Structure[]> {
  const p = ctx.payload;
  const raw: { id: string; name?: string; input: string; metrics?: Record<string, number> }[] = [];
  if (p.molecules) p.molecules.forEach((m, i) => raw.push({ id: String(i), input: m }));
  else {
    try {
      for await (const m of ctx.readMolecules(p.input_artifact_id!, p.port))
        raw.push({ id: m.id, name: m.name, input: m.molblock ?? m.smiles, ...(m.metrics ? { metrics: m.metrics } : {}) });
    } catch (err) {
      throw err instanceof JobInputError ? err : new JobInputError(`the input set ${p.input_artifact_id} cannot be read: ${(err as Error).message}`);
    }
  }
  checkAborted(ctx.signal);
  const outs = await chemPool(ctx).runItems(
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
    return { index, id: r.id, name: r.name, input: r.input, info, ...(r.metrics ? { metrics: r.metrics } : {}) };
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

/** A structure's SMILES: as given, or RDKit's of a molblock (null when RDKit cannot read the molblock). */
export function smilesOf(s: Pick<Structure, 'input' | 'info'>): string | null {
  return s.info.smiles ?? (isMolblock(s.input) ? null : s.input.trim() || null);
}

/** What a plot calls a structure: its name, else its SMILES (when short), else its place (1-based). */
export function displayName(s: Pick<Structure, 'index' | 'name' | 'info' | 'input'>): string {
  const smiles = smilesOf(s);
  return s.name || (smiles && smiles.length <= 80 ? smiles : null) || `structure ${s.index + 1}`;
}
