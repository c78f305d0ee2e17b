// Reading one molecule for a utility, with the reason in words when RDKit cannot: SMILES (the
// rules of /describe: size limits, no other format sneaking in), a V2000/V3000 molblock, or
// `auto` (a molblock when it has an `M  END` line, else SMILES). InChI input is recognised
// but RDKit MinimalLib has no InChI parser, so it is a per-item `unsupported_format`
// (docs/utilities.md). Runs in a chemistry worker thread; the caller deletes the molecule.
import type { Mol } from '@rdkit/rdkit';
import { parseSizedSmiles, tooManyAtomsOf } from '../depict.js';
import type { RDKitModule } from '../rdkit.js';
import { explainSmiles } from '../explain.js';
import { tooLargeToParse } from '../limits.js';
import type { InputFormat, ItemFailure } from './types.js';

/** A molblock longer than this is too_large without being parsed. */
export const MAX_MOLBLOCK_CHARS = 200_000;

export function looksLikeMolblock(input: string): boolean {
  return input.includes('\n') && /^M {2}END\s*$/m.test(input);
}

export type ReadResult = { mol: Mol; failure: null } | { mol: null; failure: ItemFailure };

const fail = (error: ItemFailure['error'], detail: string): ReadResult => ({ mol: null, failure: { error, detail } });

export function readInput(rdkit: RDKitModule, input: string, format: InputFormat): ReadResult {
  const f = format === 'auto' ? (looksLikeMolblock(input) ? 'molblock' : /^\s*InChI=/.test(input) ? 'inchi' : 'smiles') : format;
  if (f === 'inchi') {
    if (!/^\s*InChI=/.test(input)) return fail('unparseable', 'not an InChI: it should start with "InChI="');
    return fail('unsupported_format', 'RDKit MinimalLib cannot read InChI (it only writes it); give the structure as SMILES or a molblock');
  }
  let mol: Mol | null;
  if (f === 'molblock') {
    if (!looksLikeMolblock(input)) return fail('unparseable', 'not a molblock: it has no "M  END" line');
    if (input.length > MAX_MOLBLOCK_CHARS) return fail('too_large', `${input.length} characters; a molblock may have at most ${MAX_MOLBLOCK_CHARS}`);
    mol = rdkit.get_mol(input);
    if (mol && (!mol.is_valid() || mol.get_num_atoms() === 0)) {
      mol.delete();
      mol = null;
    }
    if (!mol) return fail('unparseable', 'RDKit could not read the molblock (bad counts line, atom or bond block, or a valence it cannot sanitise)');
  } else {
    const large = tooLargeToParse(input);
    if (large) return fail('too_large', large);
    mol = parseSizedSmiles(rdkit, input);
    if (!mol) return fail('unparseable', explainSmiles(rdkit, input) || 'RDKit could not read the SMILES');
  }
  const many = tooManyAtomsOf(mol);
  if (many) {
    mol.delete();
    return fail('too_large', many);
  }
  return { mol, failure: null };
}

/** Runs `use` on the molecule read from `input`, deleting it afterwards; a read failure is returned as is. */
export function withMolecule<T>(rdkit: RDKitModule, input: string, format: InputFormat, use: (mol: Mol) => T, failed: (f: ItemFailure) => T): T {
  const r = readInput(rdkit, input, format);
  if (!r.mol) return failed(r.failure);
  try {
    return use(r.mol);
  } finally {
    r.mol.delete();
  }
}
