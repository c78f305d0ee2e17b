// What the 3D viewer draws (3Dmol.js): a molecule as sticks and balls; with a docking receptor,
// the protein as a cartoon, the residues within 5 Å of the pose as lines (thin sticks), and the pose as sticks
// with green carbons, the camera on the pocket (the pose and those residues).
import type { Viewer } from './load.ts';

type Model = ReturnType<Viewer['addModel']>;
type Atom = ReturnType<Model['selectedAtoms']>[number];
type Selection = Parameters<Viewer['zoomTo']>[0];

export interface Drawn {
  ligand: Model;
  receptor: Model | null;
  /** The pose and the receptor's residues near it: what the camera frames. */
  frame: Selection;
}

const POCKET = 5;
const residueOf = (a: Atom) => `${a.chain ?? ''}:${a.resi ?? ''}:${a.icode ?? ''}`;

/**
 * The receptor's residues with an atom within `distance` Å of the ligand. (3Dmol's `within`
 * selects within one model only; the pose and the receptor are two.)
 */
function residuesNear(ligand: Model, receptor: Model, distance: number): Set<string> {
  const lig = ligand.selectedAtoms({}).filter((a) => a.elem !== 'H');
  const d2 = distance * distance;
  const near = new Set<string>();
  for (const a of receptor.selectedAtoms({ hetflag: false })) {
    if (near.has(residueOf(a))) continue;
    for (const b of lig) {
      const dx = a.x! - b.x!;
      const dy = a.y! - b.y!;
      const dz = a.z! - b.z!;
      if (dx * dx + dy * dy + dz * dz <= d2) {
        near.add(residueOf(a));
        break;
      }
    }
  }
  return near;
}

/** Replaces what `viewer` shows with `molblock` (and the receptor's PDB text); keeps the camera when `keepView`. */
export function draw(viewer: Viewer, molblock: string, receptorPdb: string | null, keepView: boolean): Drawn {
  const view = keepView ? viewer.getView() : null;
  viewer.spin(false);
  viewer.removeAllModels();
  const ligand = viewer.addModel(molblock, 'sdf');
  let receptor: Model | null = null;
  let frame: Selection = { model: ligand };
  if (receptorPdb) {
    receptor = viewer.addModel(receptorPdb, 'pdb');
    const near = residuesNear(ligand, receptor, POCKET);
    const inPocket = (a: Atom) => !a.hetflag && near.has(residueOf(a));
    receptor.setStyle({}, { cartoon: { color: 'spectrum', opacity: 0.7 } });
    // Waters and hetero groups (the crystal ligand among them) were not part of the docking.
    receptor.setStyle({ hetflag: true }, {});
    // "Lines": thin sticks (WebGL draws a line 1 px wide whatever its width), heavy atoms only.
    receptor.setStyle(
      { predicate: (a: Atom) => inPocket(a) && a.elem !== 'H' },
      { cartoon: { color: 'spectrum', opacity: 0.7 }, stick: { radius: 0.07, colorscheme: 'grayCarbon' } },
    );
    ligand.setStyle({}, { stick: { radius: 0.22, colorscheme: 'greenCarbon' } });
    const [ligandId, receptorId] = [ligand.getID(), receptor.getID()];
    frame = { predicate: (a: Atom) => a.model === ligandId || (a.model === receptorId && inPocket(a)) };
  } else {
    ligand.setStyle({}, { stick: { radius: 0.14 }, sphere: { scale: 0.22 } });
  }
  if (view) viewer.setView(view);
  else viewer.zoomTo(frame);
  viewer.render();
  return { ligand, receptor, frame };
}

/** The camera back on the molecule (or the pocket). */
export function resetView(viewer: Viewer, drawn: Drawn | null): void {
  if (drawn) viewer.zoomTo(drawn.frame, 300);
}

/** A cube file's kind: an orbital (both phases drawn) or the electron density. */
export type CubeKind = 'homo' | 'lumo' | 'density';

/** Orbitals at ±0.03 (a/u: blue positive, red negative), the density at 0.01 e/Bohr³ (gray). */
const ISO: Record<CubeKind, { isoval: number; color: string; opacity: number }[]> = {
  homo: [
    { isoval: 0.03, color: 'blue', opacity: 0.8 },
    { isoval: -0.03, color: 'red', opacity: 0.8 },
  ],
  lumo: [
    { isoval: 0.03, color: 'blue', opacity: 0.8 },
    { isoval: -0.03, color: 'red', opacity: 0.8 },
  ],
  density: [{ isoval: 0.01, color: 'gray', opacity: 0.6 }],
};

/** Replaces the isosurfaces shown with those of `cube` (a Gaussian cube's text), or none. */
export function drawSurface(viewer: Viewer, cube: { kind: CubeKind; text: string } | null): void {
  viewer.removeAllShapes();
  if (cube) for (const spec of ISO[cube.kind]) viewer.addVolumetricData(cube.text, 'cube', spec);
  viewer.render();
}
