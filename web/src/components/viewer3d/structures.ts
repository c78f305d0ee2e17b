// The 3D structures a job's result carries (docs/console.md, "Jobs"; the <Type>Result schemas of
// /openapi.json): an engine item's own `molblock` (optimize, singlepoint, frequencies), its
// `conformers` (lowest first, with energies and Boltzmann weights), its docking `poses` (best
// first, with Vina's scores) or its torsion scan's `points`. Each is one entry of the viewer's
// selector, its label carrying the values the API gives (energies in Eh to 6 decimals).
import { numberText } from '../../lib/units.ts';

export interface Structure {
  /** The selector's text: which one, and its energy or score. */
  label: string;
  /** V2000 molblock, 3D coordinates in Å. */
  molblock: string;
}

export interface ItemStructures {
  /** The item's position in `items`. */
  index: number;
  /** The item's name, else its id (an uploaded set's record), else "molecule <position + 1>". */
  name: string;
  /** What one entry is: "Conformer", "Pose", "Scan point" or "Structure". */
  kind: string;
  structures: Structure[];
}

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const isMolblock = (v: unknown): v is string => typeof v === 'string' && /M {2}END/.test(v);

/** The label of a conformer: its energy, its energy above the lowest and its Boltzmann weight. */
export const conformerLabel = (c: Row, k: number) =>
  `Conformer ${k + 1}: ${numberText(c.energy_hartree, 6)} Eh, ${numberText(c.relative_kcal, 2, { sign: true })} kcal/mol, weight ${numberText(num(c.boltzmann_weight) === null ? null : (c.boltzmann_weight as number) * 100, 1)} %`;

/** The label of a docking pose: Vina's score and its RMSD bounds to the best pose. */
export const poseLabel = (p: Row, k: number) => `Pose ${k + 1}: ${numberText(p.score_kcal_mol, 3)} kcal/mol (RMSD ${numberText(p.rmsd_lb, 2)} / ${numberText(p.rmsd_ub, 2)} Å)`;

const pointLabel = (p: Row) => `${numberText(p.angle_deg, 1)}°: ${numberText(p.energy_hartree, 6)} Eh, ${numberText(p.relative_kcal, 2, { sign: true })} kcal/mol`;

function single(item: Row, jobType: string): string {
  const what = jobType === 'optimize' ? 'Optimised geometry' : 'Structure';
  const parts: string[] = [];
  if (num(item.energy_hartree) !== null) parts.push(`${numberText(item.energy_hartree, 6)} Eh`);
  if (num(item.heat_of_formation_kcal_mol) !== null) parts.push(`ΔHf ${numberText(item.heat_of_formation_kcal_mol, 2)} kcal/mol`);
  return parts.length ? `${what}: ${parts.join(', ')}` : what;
}

const list = (v: unknown): Row[] => (Array.isArray(v) ? v.filter((x): x is Row => !!x && typeof x === 'object' && isMolblock((x as Row).molblock)) : []);

/** An item's name, else its id (an uploaded set's record), else "molecule <position + 1>" (inline molecules have no name and their position as id). */
export function itemName(item: Row, n: number): string {
  const index = typeof item.index === 'number' ? item.index : n;
  return typeof item.name === 'string' && item.name ? item.name : typeof item.id === 'string' && item.id && item.id !== String(index) ? item.id : `molecule ${index + 1}`;
}

/** The structures of each item that has some, in item order. */
export function itemStructures(result: Row): ItemStructures[] {
  const items = Array.isArray(result.items) ? (result.items as Row[]) : [];
  const jobType = typeof result.job_type === 'string' ? result.job_type : '';
  const out: ItemStructures[] = [];
  items.forEach((item, n) => {
    if (!item || typeof item !== 'object') return;
    const index = typeof item.index === 'number' ? item.index : n;
    const name = itemName(item, n);
    const conformers = list(item.conformers);
    const poses = list(item.poses);
    const points = list(item.points);
    if (conformers.length) out.push({ index, name, kind: 'Conformer', structures: conformers.map((c, k) => ({ label: conformerLabel(c, k), molblock: c.molblock as string })) });
    else if (poses.length) out.push({ index, name, kind: 'Pose', structures: poses.map((p, k) => ({ label: poseLabel(p, k), molblock: p.molblock as string })) });
    else if (points.length) out.push({ index, name, kind: 'Scan point', structures: points.map((p) => ({ label: pointLabel(p), molblock: p.molblock as string })) });
    else if (isMolblock(item.molblock)) out.push({ index, name, kind: 'Structure', structures: [{ label: single(item, jobType), molblock: item.molblock }] });
  });
  return out;
}

/**
 * Where the docking receptor's PDB text is: the job's result artifact's `receptor` port (the
 * receptor as docked, whether uploaded or fetched from RCSB; docs/engines.md), else the uploaded
 * file (`receptor.artifact_id`, its `file` port) for a result from before that port. A
 * `receptor.pdb_id` with neither cannot be drawn.
 */
export function receptorOf(result: Row, resultArtifactId: string | null = null): { artifactId: string; port: string } | { pdbId: string } | null {
  const r = result.receptor;
  if (!r || typeof r !== 'object') return null;
  const ports = result.ports && typeof result.ports === 'object' ? (result.ports as Row) : {};
  if (resultArtifactId && typeof ports.receptor === 'string') return { artifactId: resultArtifactId, port: 'receptor' };
  const { artifact_id: artifactId, pdb_id: pdbId } = r as Row;
  if (typeof artifactId === 'string' && artifactId) return { artifactId, port: 'file' };
  if (typeof pdbId === 'string' && pdbId) return { pdbId };
  return null;
}

/** The cube files a properties_qm item wrote (its `cubes`: kinds whose files are the result's `cubes` port, record `<id>-<kind>`). */
export function cubesOf(item: Row | undefined, artifactId: string | null): { kind: 'homo' | 'lumo' | 'density'; artifactId: string; record: string }[] {
  if (!item || !artifactId || !Array.isArray(item.cubes) || typeof item.id !== 'string') return [];
  return item.cubes
    .filter((k): k is 'homo' | 'lumo' | 'density' => k === 'homo' || k === 'lumo' || k === 'density')
    .map((kind) => ({ kind, artifactId, record: `${item.id as string}-${kind}` }));
}
