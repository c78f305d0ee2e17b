// Molecules read in the browser from pasted text or a file (.smi, .csv, .sdf, .mol): a SMILES and
// a name each, and the records that could not be read, named by their index. POST /describe
// takes SMILES only, so molfile records are converted with openchemlib (loaded on demand).
import { loadOcl, type Ocl } from './ocl.ts';
import { csvFields } from '../../lib/csv.ts';

export interface MoleculeInput {
  smiles: string;
  name: string | null;
}

export interface ReadResult {
  molecules: MoleculeInput[];
  /** One line per record that could not be read, e.g. "record 2 (bad): no counts line". */
  problems: string[];
}

/** One molecule a line: SMILES, then an optional name after whitespace (the .smi layout). */
export function parseLines(text: string): MoleculeInput[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [smiles = '', ...name] = l.split(/\s+/);
      return { smiles, name: name.join(' ') || null };
    });
}

/** The lines of the textarea for these molecules (names after a space). */
export function toLines(molecules: MoleculeInput[]): string {
  return molecules.map((m) => (m.name ? `${m.smiles} ${m.name}` : m.smiles)).join('\n');
}

/** A CSV with a header: the SMILES column (named "smiles", any case) and a name column if any. */
export function parseCsv(text: string): ReadResult {
  const lines = text.split(/\r?\n/);
  const header = csvFields(lines[0] ?? '').map((c) => c.toLowerCase());
  const s = header.indexOf('smiles');
  const n = ['name', 'title', 'id'].map((c) => header.indexOf(c)).find((i) => i >= 0) ?? -1;
  if (s < 0) return { molecules: [], problems: [`no "smiles" column in the header (${header.join(', ') || 'empty'})`] };
  const result: ReadResult = { molecules: [], problems: [] };
  lines.slice(1).forEach((line, i) => {
    if (!line.trim()) return;
    const fields = csvFields(line);
    const smiles = fields[s] ?? '';
    const name = n >= 0 ? fields[n] || null : null;
    // Row numbers count the header as row 1, as a spreadsheet shows them.
    if (!smiles || /\s/.test(smiles)) result.problems.push(`row ${i + 2}${name ? ` (${name})` : ''}: ${smiles ? 'a SMILES has no spaces' : 'no SMILES'}`);
    else result.molecules.push({ smiles, name });
  });
  return result;
}

/** The records of an SD file (or one molfile): each molblock up to "M  END", split at "$$$$". */
export function splitSdf(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/^\$\$\$\$[^\n]*(?:\n|$)/m)
    .filter((r) => r.trim())
    .map((r) => {
      const end = r.search(/^M {2}END/m);
      return end >= 0 ? r.slice(0, end) + 'M  END\n' : r;
    });
}

/** Why a molblock cannot be a molecule, or null when its header and atom block look whole. */
function molblockProblem(block: string): string | null {
  const lines = block.split('\n');
  const counts = lines[3] ?? '';
  if (/V3000/.test(counts)) return /M {2}V30 BEGIN ATOM/.test(block) ? null : 'a V3000 molfile without an atom block';
  if (!/V2000/.test(counts)) return 'line 4 is not a V2000 or V3000 counts line';
  const atoms = Number(counts.slice(0, 3));
  const bonds = Number(counts.slice(3, 6));
  if (!Number.isInteger(atoms) || !Number.isInteger(bonds)) return `the counts line "${counts.trim()}" does not give the atoms and bonds`;
  const body = lines.slice(4, 4 + atoms + bonds);
  if (body.length < atoms + bonds || body.some((l) => l.startsWith('M  '))) return `the counts line announces ${atoms} atoms and ${bonds} bonds; the record is shorter`;
  const badAtom = body.slice(0, atoms).findIndex((l) => !/^\s*-?\d+\.\d+\s+-?\d+\.\d+\s+-?\d+\.\d+\s+[A-Za-z*]/.test(l));
  if (badAtom >= 0) return `atom line ${badAtom + 1} cannot be read`;
  return null;
}

/**
 * The SMILES sent to the server: openchemlib's, with the double bonds localised (Kekulé form), which
 * RDKit reads whatever its aromaticity model; the server answers with its own canonical SMILES.
 */
export function toSmiles(mol: InstanceType<Ocl['Molecule']>): string {
  return mol.toIsomericSmiles({ kekulizedOutput: true });
}

/** Molblocks to SMILES with openchemlib, each keeping its name (the first line of its molblock). */
export function molblocksToSmiles(ocl: Ocl, blocks: string[]): ReadResult {
  const result: ReadResult = { molecules: [], problems: [] };
  blocks.forEach((block, i) => {
    const name = block.split('\n')[0]?.trim() || null;
    const label = `record ${i + 1}${name ? ` (${name})` : ''}`;
    const why = molblockProblem(block);
    if (why) {
      result.problems.push(`${label}: ${why}`);
      return;
    }
    try {
      const mol = ocl.Molecule.fromMolfile(block);
      if (mol.getAllAtoms() === 0) result.problems.push(`${label}: no atoms could be read`);
      else result.molecules.push({ smiles: toSmiles(mol), name: name ?? `record ${i + 1}` });
    } catch (err) {
      result.problems.push(`${label}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  return result;
}

/** A file read by its extension: .sdf/.mol (converted), .csv (a SMILES column), else .smi lines. */
export async function readMoleculeFile(file: File): Promise<ReadResult> {
  const text = await file.text();
  if (/\.(sdf|sd|mol)$/i.test(file.name)) return molblocksToSmiles(await loadOcl(), splitSdf(text));
  if (/\.csv$/i.test(file.name)) return parseCsv(text);
  return { molecules: parseLines(text), problems: [] };
}
